/**
 * A background restart in the middle of a turn: what was unfinished is marked interrupted, the
 * chat is no longer "running", and Retry answers it again.
 */
import { ChatService } from '../../../src/background/chat-service';
import { ConversationStore } from '../../../src/background/conversations';
import type { Conversation } from '../../../src/shared/conversation';
import type { BgToUiEvent } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';
import { settled } from '../../support/chat-over-pages';
import { MemoryStorage } from '../../support/memory-storage';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** Storage that a crash cuts off: after `crash()` nothing more reaches it, as when the process dies. */
class CrashableStorage {
  private dead = false;
  constructor(private readonly inner: MemoryStorage) {}
  crash() {
    this.dead = true;
  }
  get(key: string) {
    return this.inner.get(key);
  }
  async set(items: Record<string, unknown>) {
    if (!this.dead) await this.inner.set(items);
  }
  async remove(key: string) {
    if (!this.dead) await this.inner.remove(key);
  }
}

function chatOn(store: ConversationStore, events: BgToUiEvent[] = []) {
  return new ChatService({
    store,
    emit: (e) => events.push(e),
    session: async () => ({ router: routerFor(server.url, 'ollama'), settings: { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, baseUrl: server.url, model: 'qwen3:4b' } }, model: 'qwen3:4b' }),
    tools: pageWorld().tools,
    gate: allowAll,
    saveIntervalMs: 0,
  });
}


const unfinished = (c: Conversation | undefined) =>
  c?.messages.filter((m) => (m.role === 'assistant' && m.status === 'streaming') || (m.role === 'tool' && ['pending', 'waiting_permission', 'running'].includes(m.status))) ?? [];

test('a reply cut off by a restart is marked interrupted with Retry, and Retry answers it', async () => {
  const disk = new MemoryStorage();
  const before = new CrashableStorage(disk);
  const store = new ConversationStore(before);
  const chat = chatOn(store);
  server.script({ text: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 10 });
  const conversation = await store.create();
  await chat.send(conversation.id, 'Tell me a long story');
  // The reply is streaming and has been saved part way…
  const streamed = async () => ((await new ConversationStore(disk).get(conversation.id))?.messages.at(-1)?.content ?? '').startsWith('word word');
  for (let i = 0; i < 400 && !(await streamed()); i++) await new Promise((r) => setTimeout(r, 5));
  expect(await streamed()).toBe(true);
  // …when the background dies.
  before.crash();
  expect(unfinished((await new ConversationStore(disk).get(conversation.id)))).toHaveLength(1);

  // The background starts again on the same storage.
  const store2 = new ConversationStore(disk);
  const recovered = await store2.recoverInterrupted();
  expect(recovered.map((c) => c.id)).toEqual([conversation.id]);
  const saved = await new ConversationStore(disk).get(conversation.id);
  expect(unfinished(saved)).toEqual([]);
  const last = saved!.messages.at(-1)!;
  expect(last).toMatchObject({ role: 'assistant', status: 'interrupted', error: { code: 'interrupted', retryable: true } });
  // What had arrived is kept.
  expect(last.content).toMatch(/^word/);

  // Send is accepted again, and Retry answers the same question.
  const events: BgToUiEvent[] = [];
  const chat2 = chatOn(store2, events);
  server.reset();
  server.script({ text: 'Once upon a time.' });
  await chat2.retry(conversation.id);
  await settled(chat2, conversation.id);
  const answered = await new ConversationStore(disk).get(conversation.id);
  expect(answered?.messages.map((m) => [m.role, m.content, m.role === 'assistant' ? m.status : ''])).toEqual([
    ['user', 'Tell me a long story', ''],
    ['assistant', 'Once upon a time.', 'complete'],
  ]);
  chat.stop(conversation.id);
  await settled(chat, conversation.id);
});

test('tool calls left running or waiting for permission are marked interrupted, and the chat ends with Retry', async () => {
  const disk = new MemoryStorage();
  const store = new ConversationStore(disk);
  const conversation = await store.create();
  conversation.messages.push(
    { id: 'u', role: 'user', content: 'Fill in the form', createdAt: 1 },
    { id: 'a', role: 'assistant', content: '', createdAt: 2, status: 'complete', toolCalls: [{ id: 'c1', name: 'fill', arguments: { id: 1, text: 'x' } }, { id: 'c2', name: 'click', arguments: { id: 3 } }] },
    { id: 't1', role: 'tool', toolCallId: 'c1', name: 'fill', arguments: { id: 1, text: 'x' }, status: 'running', content: '', createdAt: 3 },
    { id: 't2', role: 'tool', toolCallId: 'c2', name: 'click', arguments: { id: 3 }, status: 'waiting_permission', content: '', createdAt: 4 },
  );
  await store.save(conversation);
  // Another chat, finished, is left alone.
  const other = await store.create();
  other.messages.push({ id: 'u2', role: 'user', content: 'hi', createdAt: 5 }, { id: 'a2', role: 'assistant', content: 'Hello.', createdAt: 6, status: 'complete' });
  await store.save(other);

  const recovered = await new ConversationStore(disk).recoverInterrupted();
  expect(recovered.map((c) => c.id)).toEqual([conversation.id]);
  const saved = await new ConversationStore(disk).get(conversation.id);
  expect(saved!.messages.filter((m) => m.role === 'tool').map((m) => m.role === 'tool' && m.status)).toEqual(['interrupted', 'interrupted']);
  // The model reads back that the call did not finish, not an empty result.
  expect(saved!.messages.find((m) => m.id === 't1')?.content).toMatch(/restart/i);
  expect(saved!.messages.at(-1)).toMatchObject({ role: 'assistant', status: 'interrupted', error: { code: 'interrupted' } });
  expect((await new ConversationStore(disk).get(other.id))?.messages).toEqual(other.messages);
  // Recovering again finds nothing left to do.
  expect(await new ConversationStore(disk).recoverInterrupted()).toEqual([]);
});
