import { ChatService } from '../../../src/background/chat-service';
import { ConversationStore } from '../../../src/background/conversations';
import { LlmError } from '../../../src/background/llm/errors';
import type { ChatEvent, ChatRequest, LlmProvider } from '../../../src/background/llm/types';
import type { BgToUiEvent } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { MemoryStorage } from '../../support/memory-storage';

/** A provider that plays back a list of events, then optionally fails. */
function providerOf(events: ChatEvent[], failWith?: LlmError, requests: ChatRequest[] = []): LlmProvider {
  return {
    id: 'ollama',
    listModels: async () => [{ id: 'm' }],
    async *chat(request, signal) {
      requests.push(request);
      for (const event of events) {
        await new Promise((r) => setTimeout(r, 1));
        if (signal.aborted) throw new LlmError('aborted', 'Stopped.');
        yield event;
      }
      if (failWith) throw failWith;
    },
  };
}

function setup(provider: LlmProvider) {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const events: BgToUiEvent[] = [];
  const chat = new ChatService({
    store,
    resolveProvider: async () => ({ provider, settings: { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, model: 'm' } } }),
    emit: (e) => events.push(e),
  });
  return { storage, store, events, chat };
}

async function settled(chat: ChatService, id: string) {
  for (let i = 0; i < 200 && chat.isRunning(id); i++) await new Promise((r) => setTimeout(r, 5));
}

test('an answer streams as deltas and is stored complete, with the conversation titled', async () => {
  const requests: ChatRequest[] = [];
  const { storage, store, events, chat } = setup(providerOf([{ type: 'text', delta: 'Hel' }, { type: 'text', delta: 'lo!' }, { type: 'done', finishReason: 'stop' }], undefined, requests));
  const conversation = await store.create();
  await chat.send(conversation.id, 'Say hello');
  await settled(chat, conversation.id);

  const deltas = events.filter((e) => e.type === 'chat/delta').map((e) => (e as { delta: string }).delta);
  expect(deltas.join('')).toBe('Hello!');
  const stored = await new ConversationStore(storage).get(conversation.id);
  expect(stored?.title).toBe('Say hello');
  expect(stored?.messages.map((m) => [m.role, m.content, m.status])).toEqual([
    ['user', 'Say hello', 'complete'],
    ['assistant', 'Hello!', 'complete'],
  ]);
  expect(requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'Say hello' });
});

test('a dead server leaves the user message in place and an actionable error on the answer', async () => {
  const down = new LlmError('server_unreachable', 'Cannot reach the Ollama server at http://127.0.0.1:11434.', { hint: 'Start it with `ollama serve`' });
  const { store, events, chat } = setup(providerOf([], down));
  const conversation = await store.create();
  await chat.send(conversation.id, 'Summarise this page');
  await settled(chat, conversation.id);

  const saved = await store.get(conversation.id);
  expect(saved?.messages[0]).toMatchObject({ role: 'user', content: 'Summarise this page' });
  expect(saved?.messages[1]).toMatchObject({ status: 'error', error: { code: 'server_unreachable' } });
  expect(events).toContainEqual(expect.objectContaining({ type: 'chat/error', unsentText: 'Summarise this page' }));
});

test('retry replaces the failed answer and answers the same question again', async () => {
  let fail = true;
  const provider: LlmProvider = {
    id: 'ollama',
    listModels: async () => [],
    async *chat() {
      if (fail) throw new LlmError('server_error', 'boom');
      yield { type: 'text', delta: 'Recovered' };
      yield { type: 'done', finishReason: 'stop' };
    },
  };
  const { store, chat } = setup(provider);
  const conversation = await store.create();
  await chat.send(conversation.id, 'Question');
  await settled(chat, conversation.id);
  fail = false;
  await chat.retry(conversation.id);
  await settled(chat, conversation.id);
  const saved = await store.get(conversation.id);
  expect(saved?.messages.map((m) => m.content)).toEqual(['Question', 'Recovered']);
});

test('a cut stream keeps the partial text and marks it incomplete', async () => {
  const { store, chat } = setup(providerOf([{ type: 'text', delta: 'Half an ans' }], new LlmError('stream_cut', 'cut')));
  const conversation = await store.create();
  await chat.send(conversation.id, 'Q');
  await settled(chat, conversation.id);
  expect((await store.get(conversation.id))?.messages[1]).toMatchObject({ content: 'Half an ans', status: 'incomplete' });
});

test('stop ends the answer at once and keeps what was written', async () => {
  const many: ChatEvent[] = Array.from({ length: 200 }, () => ({ type: 'text', delta: 'x' }));
  const { store, chat } = setup(providerOf(many));
  const conversation = await store.create();
  await chat.send(conversation.id, 'Long answer please');
  await new Promise((r) => setTimeout(r, 30));
  expect(chat.stop(conversation.id)).toBe(true);
  await settled(chat, conversation.id);
  const answer = (await store.get(conversation.id))?.messages[1];
  expect(answer?.status).toBe('stopped');
  expect(answer?.content.length).toBeGreaterThan(0);
  expect(answer?.content.length).toBeLessThan(200);
});
