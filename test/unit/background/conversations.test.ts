import { ConversationStore, MAX_CONVERSATIONS } from '../../../src/background/conversations';
import { KEYS } from '../../../src/shared/store';
import { MemoryStorage } from '../../support/memory-storage';

test('a conversation survives a restart: a new store on the same storage finds it active', async () => {
  const storage = new MemoryStorage();
  const first = new ConversationStore(storage);
  const conversation = await first.create();
  conversation.messages.push({ id: 'm1', role: 'user', content: 'hi', createdAt: 1 });
  await first.save(conversation);

  const afterRestart = new ConversationStore(storage);
  expect((await afterRestart.active()).messages[0]?.content).toBe('hi');
});

test('old conversations roll off past the bound', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const firstId = (await store.create()).id;
  for (let i = 0; i < MAX_CONVERSATIONS; i++) await store.create();
  expect(storage.data.has(KEYS.conversation(firstId))).toBe(false);
  expect((storage.data.get(KEYS.conversationIndex) as unknown[]).length).toBe(MAX_CONVERSATIONS);
});

test('rename, search and delete work on the index without loading every chat', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const pizza = await store.create();
  pizza.messages.push({ id: 'm', role: 'user', content: 'Order a margherita pizza', createdAt: 1 });
  await store.save(pizza);
  const other = await store.create();
  await store.rename(other.id, '  Trip planning  ');
  expect((await store.list()).map((s) => s.title)).toEqual(['Trip planning', '']);
  expect((await store.search('margherita')).map((s) => s.id)).toEqual([pizza.id]);
  expect((await store.search('trip')).map((s) => s.id)).toEqual([other.id]);
  await store.remove(pizza.id);
  expect((await store.list()).map((s) => s.id)).toEqual([other.id]);
  expect(storage.data.has(KEYS.conversation(pizza.id))).toBe(false);
});

describe('the index under concurrent writes', () => {
  test('saves that overlap lose neither a title nor a chat created meanwhile', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage);
    const streaming = await store.create();
    const renamed = await store.create();
    // A reply streams into one chat (a save per chunk) while the user renames another and starts a new one.
    const created: Promise<{ id: string }>[] = [];
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 5; i++) {
      streaming.messages.push({ id: `m${i}`, role: 'user', content: `chunk ${i}`, createdAt: i });
      writes.push(store.save(streaming));
      if (i === 1) writes.push(store.rename(renamed.id, 'Holiday plans'));
      if (i === 2) created.push(store.create());
    }
    await Promise.all([...writes, ...created]);
    const [fresh] = await Promise.all(created);

    // What storage holds, read by a new store as after a restart.
    const index = await new ConversationStore(storage).list();
    expect(index.map((s) => s.id).sort()).toEqual([streaming.id, renamed.id, fresh!.id].sort());
    expect(index.find((s) => s.id === renamed.id)?.title).toBe('Holiday plans');
    expect(index.find((s) => s.id === streaming.id)?.messageCount).toBe(5);
  });

  test('a chat deleted while its reply still streams stays deleted: its late saves do not bring it back', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage);
    const keep = await store.create();
    const doomed = await store.create();
    doomed.messages.push({ id: 'm', role: 'user', content: 'hello', createdAt: 1 });
    const inFlight = store.save(doomed);
    await store.remove(doomed.id);
    await inFlight;
    // The still-running turn saves again after the delete (a chunk, then its closing save).
    doomed.messages.push({ id: 'a', role: 'assistant', content: 'late', createdAt: 2, status: 'complete' });
    await store.save(doomed);

    const after = new ConversationStore(storage);
    expect((await after.list()).map((s) => s.id)).toEqual([keep.id]);
    expect(storage.data.has(KEYS.conversation(doomed.id))).toBe(false);
    expect(await after.get(doomed.id)).toBeUndefined();
    expect(await store.get(doomed.id)).toBeUndefined();
  });

  test('saving a chat that streams does not take the user away from the chat they opened', async () => {
    const storage = new MemoryStorage();
    const store = new ConversationStore(storage);
    const streaming = await store.create();
    const opened = await store.create();
    streaming.messages.push({ id: 'm', role: 'user', content: 'still going', createdAt: 1 });
    await store.save(streaming);
    expect((await new ConversationStore(storage).active()).id).toBe(opened.id);
  });
});
