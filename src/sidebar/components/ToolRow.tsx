import { useState } from 'react';
import { shownArguments, type ToolMessage } from '../../shared/conversation';
import { shown, t } from '../../ui/i18n';
import { summarizeArgs } from '../lib/describe';
import { ToolParts } from './ToolParts';

const STATUS_ICON: Record<ToolMessage['status'], string> = {
  pending: '…',
  waiting_permission: '?',
  running: '⟳',
  done: '✓',
  failed: '✗',
  denied: '⊘',
  skipped: '↷',
  interrupted: '⏸',
};

/** One tool call in the action timeline: what, on what, how it went; expandable to the details. */
export function ToolRow({ message }: { message: ToolMessage }) {
  const [open, setOpen] = useState(false);
  const args = shownArguments(message);
  const target = summarizeArgs(args);
  return (
    <div data-testid="tool-row" data-tool={message.name} data-status={message.status} className="rounded border border-line bg-surface text-xs">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex w-full items-center gap-2 px-2 py-1 text-left">
        <span aria-hidden="true" className="w-3 text-center">{STATUS_ICON[message.status]}</span>
        <span className="font-mono font-medium">{message.name}</span>
        <span className="flex-1 truncate text-muted">{target}</span>
        <span className="text-muted">{t(`toolStatus_${message.status}`)}</span>
        {message.durationMs !== undefined && <span className="text-muted">{(message.durationMs / 1000).toFixed(1)} s</span>}
      </button>
      {open && (
        <div className="space-y-1 border-t border-line p-2">
          <pre className="whitespace-pre-wrap break-words font-mono">{JSON.stringify(args, null, 2)}</pre>
          {message.raw && message.masked?.length ? <p data-testid="tool-raw" className="text-muted">{t('toolRawHidden')}</p> : null}
          {message.raw && !message.masked?.length && (
            <div data-testid="tool-raw">
              <p className="text-muted">{t('toolRawMarkup')}</p>
              {/* The model's markup as the characters it wrote: text, never HTML. */}
              <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono">{message.raw}</pre>
            </div>
          )}
          {message.content && <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words font-mono text-muted">{message.content}</pre>}
        </div>
      )}
      {!open && message.preview && <p className="truncate px-2 pb-1 text-muted">{message.previewText ? shown(message.previewText) : message.preview}</p>}
      {message.parts && <ToolParts parts={message.parts} />}
    </div>
  );
}
