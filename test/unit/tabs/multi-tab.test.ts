/**
 * Questions over several tabs, through the real chat service, page access, router and provider
 * against the scripted model server: tabs attached to a message, and tabs named in words, are each
 * read and fenced under their own label in one request; words that fit several sets of tabs get
 * a question back and no model call; a task about chosen tabs may act only in them.
 */
import type { UserMessage } from '../../../src/shared/conversation';
import { chatOverPages, settled } from '../../support/chat-over-pages';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const TABS = [
  { id: 11, url: 'https://shop-a.example/kettle', title: 'Kettle at Shop A', text: 'Steel kettle. Price: 39.90 EUR. Delivery in 2 days.' },
  { id: 12, url: 'https://shop-b.example/kettle', title: 'Kettle at Shop B', text: 'Steel kettle. Price: 34.50 EUR. Delivery in 5 days.' },
  { id: 13, url: 'https://news.example/', title: 'News', text: 'Headlines of the day.' },
];

const setup = (tabs = TABS.slice(0, 2), selected: number[] = []) => chatOverPages({ serverUrl: server.url, model: 'qwen3:4b', tabs, selected });
const tabsRead = (reads: { tabId: number }[]) => reads.map((r) => r.tabId).sort();
const ref = ({ id, title, url }: (typeof TABS)[number]) => ({ id, title, url });

test('two attached tabs are both read and each fenced under its own label in the one request', async () => {
  const { store, chat, reads } = setup(TABS);
  server.script({ text: 'Tab 1 (Shop A): 39.90 EUR, 2 days. Tab 2 (Shop B): 34.50 EUR, 5 days.' });
  const conversation = await store.create();
  await chat.send(conversation.id, 'Compare the price and delivery time', 'sidebar', { tabs: [ref(TABS[0]!), ref(TABS[1]!)] });
  await settled(chat, conversation.id);
  expect(tabsRead(reads)).toEqual([11, 12]);
  expect(server.chatRequests()).toHaveLength(1);
  const system = server.chatRequests()[0]!.body.messages[0].content as string;
  expect(system).toMatch(/Tab 1\nTitle: Kettle at Shop A[\s\S]*39\.90 EUR[\s\S]*Tab 2\nTitle: Kettle at Shop B[\s\S]*34\.50 EUR/);
  expect(system).toContain('say which tab each fact comes from');
  expect(system).not.toContain('Headlines');
  const saved = await store.get(conversation.id);
  expect((saved!.messages[0] as UserMessage).tabs?.map((t) => t.id)).toEqual([11, 12]);
});

test('"these two tabs" is resolved to the window’s two tabs and recorded on the message', async () => {
  const { store, chat } = setup();
  server.script({ text: 'Shop B is cheaper.' });
  const conversation = await store.create();
  await chat.send(conversation.id, 'Which of these two tabs is cheaper?');
  await settled(chat, conversation.id);
  const system = server.chatRequests()[0]!.body.messages[0].content as string;
  expect(system).toContain('39.90 EUR');
  expect(system).toContain('34.50 EUR');
  const saved = await store.get(conversation.id);
  expect((saved!.messages[0] as UserMessage).tabs?.map((t) => t.title)).toEqual(['Kettle at Shop A', 'Kettle at Shop B']);
});

test('words that fit several sets of tabs get a question back, with no model call; selected tabs settle it', async () => {
  const { store, chat } = setup(TABS);
  const conversation = await store.create();
  await chat.send(conversation.id, 'Which of these two tabs is cheaper?');
  await settled(chat, conversation.id);
  expect(server.chatRequests()).toHaveLength(0);
  const saved = await store.get(conversation.id);
  expect(saved!.messages.at(-1)).toMatchObject({ role: 'assistant', status: 'complete', content: expect.stringContaining('Which 2 tabs do you mean?') });

  const chosen = setup(TABS, [11, 12]);
  server.script({ text: 'Shop B.' });
  const again = await chosen.store.create();
  await chosen.chat.send(again.id, 'Which of these two tabs is cheaper?');
  await settled(chosen.chat, again.id);
  expect(tabsRead(chosen.reads)).toEqual([11, 12]);
});

test('a task about chosen tabs starts in the current tab and may work there and in the chosen tabs only', async () => {
  const { store, chat } = setup(TABS);
  server.script({ toolCalls: [{ name: 'read_page', arguments: {} }] }, { toolCalls: [{ name: 'done', arguments: { summary: 'Read.' } }] });
  const conversation = await store.create();
  // The run as the registry opened it: given the chosen tab; then the turn adds the tab it starts in.
  let scope: { allowedTabs?: ReadonlySet<number> } | undefined;
  let given: number[] | undefined;
  chat.runs.subscribe((runs) => {
    const run = runs[0] && chat.runs.get(runs[0].id);
    if (run && !scope) {
      scope = run.scope;
      given = [...(run.scope.allowedTabs ?? [])];
    }
  });
  await chat.send(conversation.id, 'Click the cheapest kettle', 'sidebar', { tabs: [ref(TABS[1]!)] });
  await settled(chat, conversation.id);
  expect(given).toEqual([12]);
  expect([...(scope?.allowedTabs ?? [])].sort()).toEqual([11, 12]);
  const system = server.chatRequests()[0]!.body.messages[0].content as string;
  expect(system).toContain('work only in the current tab, these tabs');
  expect(system).toContain('tab_id=12');
  // It starts where the user is: the active tab's page is the one in view.
  expect(system).toContain('39.90 EUR');
});
