/**
 * Spoken replies: when a turn ends with an answer, and "read answers aloud" is on, the answer is
 * read. Sending a message stops what is being read.
 */
import type { Conversation } from '../../shared/conversation';
import type { VoiceSettings } from '../../shared/voice';
import { useChat } from '../stores/chat';
import type { Speaker } from './speaker';

/** The finished answer a turn ended with, if it ended with one (not an error, not still streaming). */
export function finalAnswer(conversation: Conversation | undefined): { id: string; text: string } | undefined {
  const last = conversation?.messages.at(-1);
  if (last?.role !== 'assistant' || last.status !== 'complete' || last.error || !last.content.trim()) return undefined;
  return { id: last.id, text: last.content };
}

export function watchAnswers({ speaker, settings, lang }: { speaker: Pick<Speaker, 'speak' | 'stop'>; settings(): Promise<VoiceSettings>; lang(): string }): () => void {
  // Answers already there when the sidebar opens are not read.
  let spoken = finalAnswer(useChat.getState().conversation)?.id;
  return useChat.subscribe((now, before) => {
    if (now.running && !before.running) speaker.stop();
    if (now.running || now.conversation?.id !== before.conversation?.id) {
      spoken = finalAnswer(now.conversation)?.id ?? spoken;
      return;
    }
    const answer = finalAnswer(now.conversation);
    if (!answer || answer.id === spoken) return;
    spoken = answer.id;
    void settings().then((voice) => (voice.spokenReplies ? speaker.speak(answer.text, lang()) : undefined), () => undefined);
  });
}
