import { ConversationStore, MAX_CONVERSATIONS } from '../../../src/background/conversations';
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
  expect(storage.data.has(`conversation:${firstId}`)).toBe(false);
  expect((storage.data.get('conversationIndex') as unknown[]).length).toBe(MAX_CONVERSATIONS);
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
  expect(storage.data.has(`conversation:${pizza.id}`)).toBe(false);
});
