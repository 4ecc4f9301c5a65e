import { ConversationStore, MAX_CONVERSATIONS } from '../../../src/background/conversations';
import { MemoryStorage } from '../../support/memory-storage';

test('a conversation survives a restart: a new store on the same storage finds it active', async () => {
  const storage = new MemoryStorage();
  const first = new ConversationStore(storage);
  const conversation = await first.create();
  conversation.messages.push({ id: 'm1', role: 'user', content: 'hi', createdAt: 1, status: 'complete' });
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
  expect((storage.data.get('conversations') as string[]).length).toBe(MAX_CONVERSATIONS);
});
