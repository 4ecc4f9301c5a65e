import { useEffect } from 'react';
import { RECORDS } from '../../shared/store';
import { t } from '../../ui/i18n';
import { pageStore } from '../lib/store';
import { useChat } from '../stores/chat';
import { useSettings } from '../stores/settings';

/**
 * The model this chat talks to, picked from the provider's live list (the settings' default
 * unless the chat chose another), and how many tools the agent offers it.
 */
export function ModelBar() {
  const conversation = useChat((s) => s.conversation);
  const setModel = useChat((s) => s.setModel);
  const { settings, models, listError, tools, refresh } = useSettings();

  useEffect(() => {
    void refresh();
    // New settings (another provider, server or default model): list again.
    return pageStore.watch(RECORDS.settings, () => void refresh());
  }, [refresh]);

  const fallback = settings?.provider.model ?? '';
  const chosen = conversation?.model ?? '';
  const ids = models.map((m) => m.id);
  // A chosen model the server no longer lists stays visible, so the choice is never hidden.
  if (chosen && !ids.includes(chosen)) ids.unshift(chosen);
  const info = models.find((m) => m.id === (chosen || fallback));
  return (
    <div className="flex items-center gap-2 px-2 pt-2 text-xs">
      <select
        data-testid="model-picker"
        aria-label={t('modelPickerLabel')}
        title={listError ?? t('modelPickerLabel')}
        value={chosen}
        onFocus={() => void refresh()}
        onChange={(e) => void setModel(e.target.value)}
        className="min-w-0 flex-1 truncate rounded border border-line bg-surface p-1"
      >
        <option value="">{fallback ? t('modelDefaultNamed', fallback) : t('modelDefault')}</option>
        {ids.map((id) => (
          <option key={id} value={id}>{id}</option>
        ))}
      </select>
      <span data-testid="tool-badge" title={tools.map((tool) => tool.name).join(', ')} className="whitespace-nowrap rounded-full border border-line px-2 py-0.5 text-muted">
        {info?.tools === false ? t('toolBadgeText', String(tools.length)) : t('toolBadge', String(tools.length))}
      </span>
    </div>
  );
}
