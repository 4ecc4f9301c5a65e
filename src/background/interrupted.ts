import { newId, type AssistantMessage, type Conversation, type UserError } from '../shared/conversation';
import { say } from '../shared/i18n';
import { english } from './english';

const INTERRUPTED_TEXT = { message: say('errorInterrupted'), hint: say('hintInterrupted') };

export const INTERRUPTED: UserError = {
  code: 'interrupted',
  message: english(INTERRUPTED_TEXT.message),
  hint: english(INTERRUPTED_TEXT.hint),
  text: INTERRUPTED_TEXT,
  retryable: true,
};

/** What the model reads back for a call the restart cut off. */
const CALL_INTERRUPTED = 'Not finished: FoxAgent was restarted while this call was pending or running. Its effect on the page is unknown.';

/**
 * Marks a turn the background did not live to finish: the streaming answer keeps its text and
 * becomes interrupted, unsettled calls become interrupted, and the chat ends with an answer that
 * carries the error, so the sidebar offers Retry there.
 */
export function interruptTurn(conversation: Conversation, now: number): void {
  for (const message of conversation.messages) {
    if (message.role === 'assistant' && message.status === 'streaming') message.status = 'interrupted';
    if (message.role === 'tool' && (message.status === 'pending' || message.status === 'waiting_permission' || message.status === 'running')) {
      message.status = 'interrupted';
      if (!message.content) message.content = CALL_INTERRUPTED;
    }
  }
  const last = conversation.messages.at(-1);
  if (last?.role === 'assistant' && last.status === 'interrupted' && !last.toolCalls?.length) {
    last.error = INTERRUPTED;
    return;
  }
  const closing: AssistantMessage = { id: newId('msg'), role: 'assistant', content: '', createdAt: now, status: 'interrupted', error: INTERRUPTED };
  conversation.messages.push(closing);
}
