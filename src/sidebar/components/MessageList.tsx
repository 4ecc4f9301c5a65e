import { useEffect, useRef, useState } from 'react';
import type { AssistantMessage, ChatMessage, ToolModeReason, UserMessage } from '../../shared/conversation';
import type { MessageKey } from '../../shared/i18n';
import { shown, t } from '../../ui/i18n';
import { focusTab } from '../lib/focus-tab';
import { sendOnEnter } from '../lib/keys';
import { useChat } from '../stores/chat';
import { Markdown } from './Markdown';
import { Notice } from './Notice';
import { PageCoverage } from './PageCoverage';
import { PlanCard } from './PlanCard';
import { TabChips } from './TabMenu';
import { TabFocusContext } from './TabLink';
import { ToolRow } from './ToolRow';

/** Why a turn called tools the way it did, when it was not simply the mode the user chose. */
const TOOL_MODE_WHY: Record<ToolModeReason, MessageKey | undefined> = {
  configured: undefined,
  remembered: 'toolModeWhy_remembered',
  model_has_no_tools: 'toolModeWhy_model_has_no_tools',
  rejected: 'toolModeWhy_rejected',
  schema_ignored: 'toolModeWhy_schema_ignored',
};

const showTab = (tabId: number) => void focusTab(tabId);

export function MessageList() {
  const conversation = useChat((s) => s.conversation);
  const retry = useChat((s) => s.retry);
  const end = useRef<HTMLDivElement>(null);
  const messages = conversation?.messages ?? [];
  const lastText = messages.at(-1)?.content.length ?? 0;

  useEffect(() => end.current?.scrollIntoView?.({ block: 'end' }), [messages.length, lastText]);

  return (
    <div role="log" aria-live="polite" aria-label={t('conversationLabel')} className="flex-1 space-y-3 overflow-y-auto p-3">
      {messages.length === 0 && <p className="text-sm text-muted">{t('emptyConversation')}</p>}
      {messages.map((m, i) => (
        <Message key={m.id} message={m} onRetry={i === messages.length - 1 ? () => void retry() : undefined} />
      ))}
      <div ref={end} />
    </div>
  );
}

function Message({ message, onRetry }: { message: ChatMessage; onRetry?: () => void }) {
  if (message.role === 'user') return <UserBubble message={message} />;
  if (message.role === 'tool') return <ToolRow message={message} />;
  return <AssistantBubble message={message} onRetry={onRetry} />;
}

function UserBubble({ message }: { message: UserMessage }) {
  const running = useChat((s) => s.running);
  const edit = useChat((s) => s.edit);
  const [draft, setDraft] = useState<string>();

  if (draft !== undefined) {
    const resend = async () => {
      const text = draft.trim();
      if (!text) return;
      if (await edit(message.id, text)) setDraft(undefined);
    };
    return (
      <form
        data-testid="message-user"
        className="ml-6 space-y-1 rounded-lg bg-user px-3 py-2"
        onSubmit={(e) => {
          e.preventDefault();
          void resend();
        }}
      >
        <textarea
          data-testid="edit-input"
          aria-label={t('editMessageLabel')}
          autoFocus
          rows={Math.min(8, draft.split('\n').length + 1)}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => (e.key === 'Escape' ? setDraft(undefined) : sendOnEnter(() => void resend())(e))}
          className="w-full resize-none rounded border border-line bg-surface p-1 text-sm"
        />
        <p className="text-xs text-muted">{t('editMessageHint')}</p>
        <div className="flex gap-1 text-xs">
          <button type="submit" data-testid="edit-send" disabled={running || !draft.trim()} className="rounded bg-accent px-2 py-1 text-on-accent disabled:opacity-50">{t('editResend')}</button>
          <button type="button" data-testid="edit-cancel" className="rounded border border-line px-2 py-1" onClick={() => setDraft(undefined)}>{t('cancel')}</button>
        </div>
      </form>
    );
  }
  return (
    <article data-testid="message-user" className="group ml-6 rounded-lg bg-user px-3 py-2">
      {message.tabs && <TabChips tabs={message.tabs} />}
      <div className="whitespace-pre-wrap break-words" data-testid="message-text">{message.content}</div>
      <div className="mt-1 flex items-center gap-2 text-xs text-muted">
        {message.intent && (
          <p data-testid="intent" className="flex-1" title={message.intent.reason}>
            {t(`intent_${message.intent.kind}`)}
          </p>
        )}
        {!running && (
          <button type="button" data-testid="edit-message" aria-label={t('editMessage')} title={t('editMessage')} className="ml-auto rounded px-1 hover:bg-surface" onClick={() => setDraft(message.content)}>
            {t('edit')}
          </button>
        )}
      </div>
    </article>
  );
}

function AssistantBubble({ message, onRetry }: { message: AssistantMessage; onRetry?: () => void }) {
  return (
    <article data-testid="message-assistant" data-status={message.status} className="mr-2">
      {/* Markdown becomes React elements; nothing a model writes is ever parsed as HTML. */}
      {/* FoxAgent's own words (not the model's) show in the user's language; the English stays in `content`. */}
      {/* A plan's answer names its sources as tab links that bring the tab to the front; in a model's answer (a page can steer it) they stay text. */}
      {message.content && (
        <TabFocusContext.Provider value={message.answerOf ? showTab : undefined}>
          <div data-testid="message-text"><Markdown source={message.said ? shown(message.said, '\n\n') : message.content} streaming={message.status === 'streaming'} /></div>
        </TabFocusContext.Provider>
      )}
      {message.status === 'streaming' && !message.content && <p className="text-sm text-muted">{t('thinking')}</p>}
      {message.page && message.status !== 'streaming' && <PageCoverage coverage={message.page} />}
      {message.toolMode === 'xml' && <p className="text-xs text-muted">{t('textToolMode')}</p>}
      {message.toolMode === 'constrained' && <p className="text-xs text-muted">{t('constrainedToolMode')}</p>}
      {message.toolMode && message.toolMode !== 'native' && message.toolModeReason && TOOL_MODE_WHY[message.toolModeReason] && (
        <p data-testid="tool-mode-why" className="text-xs text-muted">{t(TOOL_MODE_WHY[message.toolModeReason]!)}</p>
      )}
      {message.status === 'stopped' && <p className="text-xs text-muted">{t('stopped')}</p>}
      {message.status === 'incomplete' && <p className="text-xs text-muted">{t('incomplete')}</p>}
      {message.toolTier === 'compact' && <p data-testid="tool-tier" className="text-xs text-muted">{t('compactToolTier')}</p>}
      {message.repair && <p data-testid="repair-note" className="text-xs text-muted">{shown([message.repair])}</p>}
      {message.planId && <PlanCard planId={message.planId} />}
      {message.error && <Notice error={message.error} onRetry={onRetry} />}
    </article>
  );
}
