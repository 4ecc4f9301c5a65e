import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Decision, PermissionRequest } from '../../shared/protocol';
import { shown, t } from '../../ui/i18n';
import { summarizeArgs } from '../lib/describe';
import { useChat } from '../stores/chat';
import { useConversations } from '../stores/conversations';
import { usePermissions } from '../stores/permissions';

/**
 * How long a new question ignores its buttons: a user typing in the composer when it appears
 * must not answer it with the Space or Enter they meant for their message.
 */
export const ARM_DELAY_MS = 700;

/**
 * The question the agent waits on: what it wants to do, on what exactly, on which site, the
 * model's stated reason and why FoxAgent asks. A modal dialog: it takes the focus itself (Deny,
 * for sensitive actions), ignores its buttons for a moment after it appears, keeps focus inside,
 * and Escape denies once. Sensitive actions never offer "always allow"; "for this task" is
 * offered only where the background says it may be.
 */
export function PermissionDialog() {
  const pending = usePermissions((s) => s.pending);
  const failure = usePermissions((s) => s.failure);
  const answer = usePermissions((s) => s.answer);
  const conversationId = useChat((s) => s.conversation?.id);
  // A chat's question shows over that chat only; another chat's waits behind a notice.
  const here = pending.filter((p) => p.conversationId === conversationId);
  const request = here[0];
  if (!request) return pending[0] ? <WaitingElsewhere conversationId={pending[0].conversationId} count={pending.length} /> : null;
  return <Question key={request.id} request={request} queued={here.length - 1} failure={failure} onAnswer={(d) => void answer(request.id, d)} />;
}

/** Questions waiting in other chats: said, with the way to them, without covering this chat. */
function WaitingElsewhere({ conversationId, count }: { conversationId: string; count: number }) {
  const switchTo = useConversations((s) => s.switchTo);
  return (
    <div role="status" data-testid="permission-elsewhere" className="flex items-center gap-2 border-t border-line bg-surface px-3 py-2 text-xs">
      <span className="flex-1">{t('permissionElsewhere', String(count))}</span>
      <button type="button" data-testid="permission-elsewhere-show" className="rounded border border-line px-2 py-1" onClick={() => void switchTo(conversationId)}>
        {t('permissionElsewhereShow')}
      </button>
    </div>
  );
}

function Question({ request, queued, failure, onAnswer }: { request: PermissionRequest; queued: number; failure?: string; onAnswer(decision: Decision): void }) {
  const dialog = useRef<HTMLDivElement>(null);
  const sensitive = request.risk === 'sensitive';
  const [armed, setArmed] = useState(false);

  useEffect(() => {
    if (sensitive) dialog.current?.querySelector<HTMLButtonElement>('[data-testid="deny"]')?.focus();
    else dialog.current?.focus();
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [sensitive]);

  const choose = (decision: Decision) => {
    if (armed) onAnswer(decision);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onAnswer('reject_once');
      return;
    }
    if (event.key !== 'Tab') return;
    // Keep focus inside the dialog while it waits for an answer.
    const buttons = [...(dialog.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const first = buttons[0];
    const last = buttons.at(-1);
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  const target = summarizeArgs(request.args, 160);
  const button = 'rounded px-2 py-1 text-sm';
  const waiting = armed ? '' : 'opacity-60 cursor-wait';
  return (
    <div className="fixed inset-0 z-10 flex items-end bg-black/40 p-2 sm:items-center">
      <div
        ref={dialog}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="permission-title"
        aria-describedby="permission-why"
        data-testid="permission-dialog"
        data-tool={request.tool}
        data-armed={armed}
        tabIndex={-1}
        data-risk={request.risk}
        onKeyDown={onKeyDown}
        className="w-full space-y-2 rounded-lg border border-line bg-bg p-3 shadow-lg focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <h2 id="permission-title" className="text-sm font-semibold">
          {t('permissionTitle')}
          {queued > 0 && <span className="ml-2 font-normal text-muted">{t('permissionQueued', String(queued))}</span>}
        </h2>
        <p className="text-sm">
          <span className="font-mono font-medium">{request.tool}</span>
          {target && <span className="ml-1 break-all text-muted">{target}</span>}
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-1 text-xs">
          {request.target && (
            <>
              <dt className="text-muted">{t('permissionTarget')}</dt>
              <dd data-testid="permission-target" className="break-words font-medium">{request.targetText ? shown(request.targetText) : request.target}</dd>
            </>
          )}
          <dt className="text-muted">{t('permissionSite')}</dt>
          <dd data-testid="permission-origin" className="break-all">{request.origin ?? t('permissionUnknownSite')}</dd>
          <dt className="text-muted">{t('permissionRisk')}</dt>
          <dd data-testid="permission-risk" className={sensitive ? 'font-semibold text-error' : ''}>{t(`risk_${request.risk}`)}</dd>
          {request.reason && (
            <>
              <dt className="text-muted">{t('permissionReason')}</dt>
              <dd data-testid="permission-reason" className="break-words">“{request.reason}”</dd>
            </>
          )}
        </dl>
        <p id="permission-why" data-testid="permission-why" className="text-xs text-muted">
          {t('permissionOn', [request.origin ?? '?', request.whyText ? shown(request.whyText, '; ') : (request.why ?? '')])}
        </p>
        {failure && <p role="alert" className="text-xs text-error">{failure}</p>}
        <div className="flex flex-wrap gap-1" aria-busy={!armed}>
          <button type="button" data-testid="allow-once" aria-disabled={!armed} className={`${button} bg-accent text-on-accent ${waiting}`} onClick={() => choose('allow_once')}>{t('allowOnce')}</button>
          {request.canAllowTask && (
            <button type="button" data-testid="allow-task" aria-disabled={!armed} className={`${button} border border-line ${waiting}`} onClick={() => choose('allow_task')}>
              {t('allowTask', [request.tool, request.origin ?? '?'])}
            </button>
          )}
          {request.canAllowAlways && (
            <button type="button" data-testid="allow-always" aria-disabled={!armed} className={`${button} border border-line ${waiting}`} onClick={() => choose('allow_always')}>{t('allowAlways')}</button>
          )}
          <button type="button" data-testid="deny" aria-disabled={!armed} className={`${button} border border-line ${waiting}`} onClick={() => choose('reject_once')}>{t('deny')}</button>
          <button type="button" data-testid="deny-always" aria-disabled={!armed} className={`${button} border border-line ${waiting}`} onClick={() => choose('reject_always')}>{t('denyAlways')}</button>
        </div>
      </div>
    </div>
  );
}
