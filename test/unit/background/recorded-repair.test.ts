/**
 * What the conversation keeps of a repair turn and of the tool tier: the step whose reply could
 * not run keeps the repair's words (as catalogue keys), even when it showed no text; the next
 * step gets its own message; each step says which tool set it offered. Stored and read back.
 */
import { ConversationStore } from '../../../src/background/conversations';
import { TurnRecorder } from '../../../src/background/turn-recorder';
import { ConversationSchema, type AssistantMessage } from '../../../src/shared/conversation';
import { MemoryStorage } from '../../support/memory-storage';

test('a repaired step keeps its row, the corrected step is a message of its own, and each says its tool set', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const conversation = await store.create();
  const recorder = new TurnRecorder(conversation, { store, emit: () => undefined, now: () => 1, saveIntervalMs: 0 }, 'qwen2.5:3b');

  // Step 1: a text call the parser could not read; the user saw no prose at all.
  await recorder.apply({ type: 'step', step: 1, limit: 6 });
  await recorder.apply({ type: 'tool_tier', tier: 'compact', reason: 'small_model' });
  await recorder.apply({ type: 'assistant', content: '', toolCalls: [] });
  await recorder.apply({ type: 'repair', problem: 'unparsable', name: 'fill', text: { key: 'repairUnparsable', args: ['fill'] } });
  // Step 2: the corrected answer, after the model asked for every tool.
  await recorder.apply({ type: 'step', step: 2, limit: 6 });
  await recorder.apply({ type: 'tool_tier', tier: 'full', reason: 'asked_for_more' });
  await recorder.apply({ type: 'text', delta: 'Filled in.' });
  await recorder.apply({ type: 'assistant', content: 'Filled in.', toolCalls: [] });
  await recorder.finish({});

  const stored = ConversationSchema.parse((await storage.get(`conversation:${conversation.id}`))[`conversation:${conversation.id}`]);
  const replies = stored.messages.filter((m): m is AssistantMessage => m.role === 'assistant');
  expect(replies.map(({ content, repair, toolTier }) => ({ content, repair, toolTier }))).toEqual([
    { content: '', repair: { key: 'repairUnparsable', args: ['fill'] }, toolTier: 'compact' },
    { content: 'Filled in.', repair: undefined, toolTier: 'full' },
  ]);
  expect(recorder.status.toolTier).toBe('full');
});
