import { useState } from 'react';
import type { ConversationSummary } from '../../shared/protocol';
import { t } from '../../ui/i18n';
import { download } from '../../ui/download';
import { conversationToJson, conversationToMarkdown, fileNameFor } from '../lib/export';
import { useChat } from '../stores/chat';
import { useConversations } from '../stores/conversations';
import { useRuns } from '../stores/runs';

/** The chats drawer: search, switch, rename, delete, and export of the open chat. */
export function ConversationList() {
  const { open, query, items, search, switchTo } = useConversations();
  const conversation = useChat((s) => s.conversation);
  const runs = useRuns((s) => s.runs);
  if (!open) return null;
  return (
    <section aria-label={t('conversationsLabel')} data-testid="conversation-list" className="max-h-[60%] overflow-y-auto border-b border-line bg-surface p-2 text-sm">
      <input
        type="search"
        aria-label={t('searchConversations')}
        placeholder={t('searchConversations')}
        value={query}
        onChange={(e) => void search(e.target.value)}
        className="mb-2 w-full rounded border border-line bg-bg p-1"
      />
      {conversation && (
        <div className="mb-2 flex gap-2 text-xs">
          <button type="button" data-testid="export-md" className="underline" onClick={() => download(fileNameFor(conversation, 'md'), conversationToMarkdown(conversation), 'text/markdown')}>
            {t('exportMarkdown')}
          </button>
          <button type="button" data-testid="export-json" className="underline" onClick={() => download(fileNameFor(conversation, 'json'), conversationToJson(conversation), 'application/json')}>
            {t('exportJson')}
          </button>
        </div>
      )}
      <ul className="space-y-1">
        {items.map((item) => (
          <Item key={item.id} item={item} current={item.id === conversation?.id} working={runs.some((run) => run.conversationId === item.id)} onOpen={() => void switchTo(item.id)} />
        ))}
        {!items.length && <li className="text-muted">{t('noConversations')}</li>}
      </ul>
    </section>
  );
}

function Item({ item, current, working, onOpen }: { item: ConversationSummary; current: boolean; working: boolean; onOpen: () => void }) {
  const { rename, remove } = useConversations();
  const stopConversation = useRuns((s) => s.stopConversation);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(item.title);
  const label = item.title || t('untitled');
  if (editing) {
    return (
      <li>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setEditing(false);
            void rename(item.id, title);
          }}
        >
          <input autoFocus aria-label={t('renameConversation')} value={title} onChange={(e) => setTitle(e.target.value)} onBlur={() => setEditing(false)} className="w-full rounded border border-line bg-bg p-1" />
        </form>
      </li>
    );
  }
  return (
    <li data-testid="conversation-item" className={`flex items-center gap-1 rounded px-1 ${current ? 'bg-user' : ''}`}>
      <button type="button" className="flex-1 truncate py-1 text-left" aria-current={current} onClick={onOpen}>
        {label}
      </button>
      {working && (
        <>
          <span data-testid="conversation-working" className="text-xs text-accent">{t('chatWorking')}</span>
          <button type="button" data-testid="conversation-stop" aria-label={t('stopChat', label)} title={t('stopChat', label)} className="px-1 text-muted" onClick={() => void stopConversation(item.id)}>■</button>
        </>
      )}
      <button type="button" aria-label={t('renameConversation')} title={t('renameConversation')} className="px-1 text-muted" onClick={() => setEditing(true)}>✎</button>
      <button type="button" aria-label={t('deleteConversation')} title={t('deleteConversation')} className="px-1 text-muted" onClick={() => void remove(item.id)}>🗑</button>
    </li>
  );
}
