import { shownArguments, type Conversation } from '../../shared/conversation';

/** A conversation as Markdown: the user's and FoxAgent's words, and each action taken. */
export function conversationToMarkdown(conversation: Conversation): string {
  const lines = [`# ${conversation.title || 'FoxAgent conversation'}`, '', `_Exported ${new Date().toISOString()}_`, ''];
  for (const m of conversation.messages) {
    if (m.role === 'user') lines.push('## You', '', m.content, '');
    else if (m.role === 'assistant') {
      if (m.content) lines.push('## FoxAgent', '', m.content, '');
      if (m.error) lines.push(`> Error: ${m.error.message}${m.error.hint ? ` — ${m.error.hint}` : ''}`, '');
    } else {
      lines.push(`- \`${m.name}\` ${JSON.stringify(shownArguments(m))} — ${m.status}${m.preview ? `: ${m.preview}` : ''}`, '');
    }
  }
  return lines.join('\n');
}

/** The whole conversation as JSON, with secret tool arguments (typed passwords) redacted. */
export function conversationToJson(conversation: Conversation): string {
  const messages = conversation.messages.map((m) => (m.role === 'tool' ? { ...m, arguments: shownArguments(m) } : m));
  return JSON.stringify({ ...conversation, messages }, null, 2);
}

export function fileNameFor(conversation: Conversation, extension: string): string {
  const base = (conversation.title || 'conversation').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 50).toLowerCase();
  return `foxagent-${base || 'conversation'}.${extension}`;
}
