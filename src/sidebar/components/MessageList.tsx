import { useEffect, useRef } from 'react';
import type { AssistantMessage, ChatMessage, UserMessage } from '../../shared/conversation';
import { t } from '../../ui/i18n';
import { useChat } from '../stores/chat';
import { Markdown } from './Markdown';
import { Notice } from './Notice';
import { ToolRow } from './ToolRow';

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
  return (
    <article data-testid="message-user" className="ml-6 rounded-lg bg-user px-3 py-2">
      <div className="whitespace-pre-wrap break-words" data-testid="message-text">{message.content}</div>
      {message.intent && (
        <p data-testid="intent" className="mt-1 text-xs text-muted" title={message.intent.reason}>
          {t(`intent_${message.intent.kind}`)}
        </p>
      )}
    </article>
  );
}

function AssistantBubble({ message, onRetry }: { message: AssistantMessage; onRetry?: () => void }) {
  return (
    <article data-testid="message-assistant" data-status={message.status} className="mr-2">
      {/* Markdown becomes React elements; nothing a model writes is ever parsed as HTML. */}
      {message.content && <div data-testid="message-text"><Markdown source={message.content} /></div>}
      {message.status === 'streaming' && !message.content && <p className="text-sm text-muted">{t('thinking')}</p>}
      {message.toolMode === 'xml' && <p className="text-xs text-muted">{t('textToolMode')}</p>}
      {message.status === 'stopped' && <p className="text-xs text-muted">{t('stopped')}</p>}
      {message.status === 'incomplete' && <p className="text-xs text-muted">{t('incomplete')}</p>}
      {message.error && <Notice error={message.error} onRetry={onRetry} />}
    </article>
  );
}
