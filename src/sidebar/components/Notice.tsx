import type { UserError } from '../../shared/conversation';
import { errorWords, t } from '../../ui/i18n';

/** An error shown where the user is looking, with what to do and a way to try again. */
export function Notice({ error, onRetry }: { error: UserError; onRetry?: () => void }) {
  const { message, hint } = errorWords(error);
  return (
    <div role="alert" data-testid="error" className="m-2 rounded border border-error/40 bg-error-bg p-2 text-sm text-error">
      <p className="font-medium">{message}</p>
      {hint && <p className="mt-1 text-fg">{hint}</p>}
      {/* Offered for every failure: after fixing a key or starting the server, Retry is what the user wants. */}
      {onRetry && (
        <button type="button" className="mt-2 rounded bg-accent px-2 py-1 text-xs text-on-accent" onClick={onRetry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}
