import { useEffect, useRef } from 'react';
import type { ChatMessage } from '../../shared/conversation';
import { t } from '../../ui/i18n';
import { useChat } from '../stores/chat';
import { Notice } from './Notice';

export function MessageList() {
  const conversation = useChat((s) => s.conversation);
  const retry = useChat((s) => s.retry);
  const end = useRef<HTMLDivElement>(null);
  const messages = conversation?.messages ?? [];
  const lastText = messages.at(-1)?.content.length ?? 0;

  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [messages.length, lastText]);

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
  const isUser = message.role === 'user';
  return (
    <article
      data-testid={isUser ? 'message-user' : 'message-assistant'}
      data-status={message.status}
      className={isUser ? 'ml-6 rounded-lg bg-user px-3 py-2' : 'mr-2'}
    >
      {/* React escapes text: nothing a model writes is ever parsed as HTML. */}
      {message.content && <div className="whitespace-pre-wrap break-words" data-testid="message-text">{message.content}</div>}
      {message.status === 'streaming' && !message.content && <p className="text-sm text-muted">{t('thinking')}</p>}
      {message.status === 'stopped' && <p className="text-xs text-muted">{t('stopped')}</p>}
      {message.status === 'incomplete' && <p className="text-xs text-muted">{t('incomplete')}</p>}
      {message.error && <Notice error={message.error} onRetry={onRetry} />}
    </article>
  );
}
