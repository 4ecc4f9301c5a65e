import { useId } from 'react';
import { PlanSettingsSchema, type PlanSettings } from '../shared/plan-settings';
import { t } from '../ui/i18n';

const concurrencySchema = PlanSettingsSchema.shape.concurrency.unwrap();
/** The choices the settings schema accepts, so the field and the background agree. */
const CONCURRENCY = Array.from({ length: (concurrencySchema.maxValue ?? 5) - (concurrencySchema.minValue ?? 1) + 1 }, (_, i) => i + (concurrencySchema.minValue ?? 1));

/** How workflow plans run: approval of plans that only read, the tabs a plan opened, steps at the same time. */
export function PlanFields({ plans, className, onChange }: { plans: PlanSettings; className: string; onChange(plans: PlanSettings): void }) {
  const readOnlyHelp = useId();
  const keepHelp = useId();
  const concurrencyHelp = useId();
  const set = (patch: Partial<PlanSettings>) => onChange({ ...plans, ...patch });
  return (
    <fieldset className="space-y-3 rounded border border-line p-3">
      <legend className="px-1 text-sm font-medium">{t('settingsPlansHeading')}</legend>
      <div className="text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" data-testid="plans-read-only" aria-describedby={readOnlyHelp} checked={plans.runReadOnlyWithoutAsking} onChange={(e) => set({ runReadOnlyWithoutAsking: e.target.checked })} />
          {t('settingsPlansReadOnly')}
        </label>
        <span id={readOnlyHelp} className="mt-1 block text-xs text-muted">{t('settingsPlansReadOnlyHelp')}</span>
      </div>
      <div className="text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" data-testid="plans-keep-tabs" aria-describedby={keepHelp} checked={plans.keepOpenedTabs} onChange={(e) => set({ keepOpenedTabs: e.target.checked })} />
          {t('settingsPlansKeepTabs')}
        </label>
        <span id={keepHelp} className="mt-1 block text-xs text-muted">{t('settingsPlansKeepTabsHelp')}</span>
      </div>
      <label className="block text-sm">
        {t('settingsPlansConcurrency')}
        <select data-testid="plans-concurrency" className={className} aria-describedby={concurrencyHelp} value={plans.concurrency} onChange={(e) => set({ concurrency: concurrencySchema.parse(Number(e.target.value)) })}>
          {CONCURRENCY.map((n) => (
            <option key={n} value={n}>{n}</option>
          ))}
        </select>
        <span id={concurrencyHelp} className="mt-1 block text-xs text-muted">{t('settingsPlansConcurrencyHelp', [String(CONCURRENCY[0]), String(CONCURRENCY.at(-1))])}</span>
      </label>
    </fieldset>
  );
}
