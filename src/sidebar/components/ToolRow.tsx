import { useState } from 'react';
import type { ToolMessage } from '../../shared/conversation';
import { t } from '../../ui/i18n';
import { useChat } from '../stores/chat';

const STATUS_ICON: Record<ToolMessage['status'], string> = {
  pending: '…',
  waiting_permission: '?',
  running: '⟳',
  done: '✓',
  failed: '✗',
  denied: '⊘',
  skipped: '↷',
};

/** One tool call in the action timeline: what, on what, how it went; expandable to the details. */
export function ToolRow({ message }: { message: ToolMessage }) {
  const [open, setOpen] = useState(false);
  const request = useChat((s) => s.permissions.find((p) => p.conversationId === s.conversation?.id && p.tool === message.name && message.status === 'waiting_permission'));
  const answer = useChat((s) => s.answerPermission);
  const target = summarizeArgs(message.arguments);
  return (
    <div data-testid="tool-row" data-tool={message.name} data-status={message.status} className="rounded border border-line bg-surface text-xs">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex w-full items-center gap-2 px-2 py-1 text-left">
        <span aria-hidden="true" className="w-3 text-center">{STATUS_ICON[message.status]}</span>
        <span className="font-mono font-medium">{message.name}</span>
        <span className="flex-1 truncate text-muted">{target}</span>
        <span className="text-muted">{t(`toolStatus_${message.status}`)}</span>
        {message.durationMs !== undefined && <span className="text-muted">{(message.durationMs / 1000).toFixed(1)} s</span>}
      </button>
      {request && (
        <div role="group" aria-label={t('permissionLabel')} className="flex flex-wrap gap-1 border-t border-line p-2">
          <p data-testid="permission-why" className="w-full text-muted">
            {t('permissionOn', [request.origin ?? '?', request.why ?? ''])}
            {request.reason && ` — “${request.reason}”`}
          </p>
          <button type="button" data-testid="allow-once" className="rounded bg-accent px-2 py-1 text-on-accent" onClick={() => void answer(request.id, 'allow_once')}>{t('allowOnce')}</button>
          {request.canAllowAlways && (
            <button type="button" data-testid="allow-always" className="rounded border border-line px-2 py-1" onClick={() => void answer(request.id, 'allow_always')}>{t('allowAlways')}</button>
          )}
          <button type="button" data-testid="deny" className="rounded border border-line px-2 py-1" onClick={() => void answer(request.id, 'reject_once')}>{t('deny')}</button>
          <button type="button" data-testid="deny-always" className="rounded border border-line px-2 py-1" onClick={() => void answer(request.id, 'reject_always')}>{t('denyAlways')}</button>
        </div>
      )}
      {open && (
        <div className="space-y-1 border-t border-line p-2">
          <pre className="whitespace-pre-wrap break-words font-mono">{JSON.stringify(message.arguments, null, 2)}</pre>
          {message.content && <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono text-muted">{message.content}</pre>}
        </div>
      )}
      {!open && message.preview && <p className="truncate px-2 pb-1 text-muted">{message.preview}</p>}
    </div>
  );
}

function summarizeArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .filter(([k]) => k !== 'reason')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ')
    .slice(0, 80);
}
