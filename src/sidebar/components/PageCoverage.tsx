import type { PageCoverage as Coverage } from '../../shared/conversation';
import { t } from '../../ui/i18n';
import { useChat } from '../stores/chat';

/**
 * Under an answer that read only part of a long page: how much, and two ways to read more —
 * Read on (from the first section not sent) and Pick a section (from the page's headings). Each
 * sends a message the chat shows, so the user sees what was asked.
 */
export function PageCoverage({ coverage }: { coverage: Coverage }) {
  const send = useChat((s) => s.send);
  const running = useChat((s) => s.running);
  const percent = Math.max(1, Math.min(99, Math.round((100 * coverage.sentChars) / Math.max(1, coverage.totalChars))));
  return (
    <div data-testid="page-coverage" className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted">
      <span>{t('pageCoverage', String(percent))}</span>
      {coverage.nextSection !== undefined && (
        <button type="button" data-testid="read-on" disabled={running} className="underline disabled:opacity-50" onClick={() => void send(t('readOnMessage'), { focus: { from: coverage.nextSection } })}>
          {t('readOn')}
        </button>
      )}
      {coverage.outline.length > 0 && (
        <select
          data-testid="pick-section"
          aria-label={t('pickSection')}
          disabled={running}
          value=""
          className="max-w-[12rem] rounded border border-line bg-bg"
          onChange={(e) => e.target.value && void send(t('readSectionMessage', e.target.value), { focus: { heading: e.target.value } })}
        >
          <option value="">{t('pickSection')}</option>
          {coverage.outline.map((heading) => (
            <option key={heading} value={heading}>
              {heading}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
