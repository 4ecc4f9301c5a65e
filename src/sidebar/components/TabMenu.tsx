import type { TabRef } from '../../shared/conversation';
import type { OpenTab } from '../../shared/protocol';
import { t } from '../../ui/i18n';

/** The first entry of the @ menu: every readable tab of the window at once. */
export const ALL_TABS = 'all';
export type TabOption = OpenTab | typeof ALL_TABS;

/** The @ menu: "All tabs in this window", then the window's tabs; tabs FoxAgent cannot read are shown, not offered. */
export function TabMenu({ options, highlight, onPick, onHover }: { options: TabOption[]; highlight: number; onPick(option: TabOption): void; onHover(index: number): void }) {
  return (
    <ul role="listbox" aria-label={t('tabMenuLabel')} data-testid="tab-menu" className="max-h-48 overflow-y-auto border-b border-line bg-surface text-sm">
      {options.map((option, i) => {
        const disabled = option !== ALL_TABS && Boolean(option.restriction);
        return (
          <li
            key={option === ALL_TABS ? ALL_TABS : option.id}
            role="option"
            data-testid="tab-option"
            aria-selected={i === highlight}
            aria-disabled={disabled}
            title={option === ALL_TABS ? undefined : (option.restriction ?? option.url)}
            className={`cursor-pointer truncate px-2 py-1 ${i === highlight ? 'bg-user' : ''} ${disabled ? 'text-muted' : ''}`}
            onMouseEnter={() => onHover(i)}
            onMouseDown={(e) => {
              // Keep the focus in the composer.
              e.preventDefault();
              if (!disabled) onPick(option);
            }}
          >
            {option === ALL_TABS ? t('allTabsInWindow') : `${option.title || option.url}${option.active ? ` ${t('currentTabMark')}` : ''}`}
          </li>
        );
      })}
      {options.length === 1 && <li className="px-2 py-1 text-muted">{t('noTabsMatch')}</li>}
    </ul>
  );
}

/** The tabs attached to a message, as chips; `onRemove` makes them removable. */
export function TabChips({ tabs, onRemove }: { tabs: readonly TabRef[]; onRemove?(id: number): void }) {
  if (!tabs.length) return null;
  return (
    <ul aria-label={t('attachedTabsLabel')} className="flex flex-wrap gap-1 text-xs">
      {tabs.map((tab) => (
        <li key={tab.id} data-testid="tab-chip" title={tab.url} className="flex max-w-[14rem] items-center gap-1 rounded-full border border-line bg-surface px-2">
          <span className="truncate">{tab.title || tab.url}</span>
          {onRemove && (
            <button type="button" aria-label={t('removeTab', tab.title || tab.url)} className="text-muted" onClick={() => onRemove(tab.id)}>
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
