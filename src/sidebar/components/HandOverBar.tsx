import { t } from '../../ui/i18n';
import { useHandOvers } from '../stores/handovers';
import { focusTab } from '../lib/focus-tab';

/**
 * Tasks handed over to the user (a login, a captcha, a choice only they can make), from a plan's
 * step or a plain task: what is needed, in the model's words shown as text (a page may have
 * steered them), the site of the tab it concerns, and Continue.
 */
export function HandOverBar() {
  const pending = useHandOvers((s) => s.pending);
  const failure = useHandOvers((s) => s.failure);
  const proceed = useHandOvers((s) => s.continue);
  if (!pending.length) return null;
  return (
    <div role="region" aria-label={t('handOverLabel')} className="space-y-1 border-t border-line bg-user px-3 py-2 text-sm">
      {pending.map((handOver) => (
        <div key={handOver.id} data-testid="handover" className="flex flex-wrap items-center gap-2">
          <p data-testid="handover-need" className="min-w-0 flex-1 whitespace-pre-wrap break-words">{handOver.site ? t('handOverNeedsOn', [handOver.site, handOver.need]) : t('handOverNeeds', [handOver.need])}</p>
          {handOver.tabId !== undefined && (
            <button type="button" data-testid="handover-tab" className="rounded border border-line px-2 py-1 text-xs" onClick={() => void focusTab(handOver.tabId!)}>
              {t('planStepTab')}
            </button>
          )}
          <button type="button" data-testid="handover-continue" className="rounded bg-accent px-2 py-1 text-xs text-on-accent" onClick={() => void proceed(handOver.id)}>
            {t('handOverContinue')}
          </button>
        </div>
      ))}
      {failure && <p role="alert" className="text-xs text-error">{failure}</p>}
    </div>
  );
}
