/**
 * The chat pointed at tabs, in real Firefox against the scripted model: two tabs attached with @
 * in the composer, and "these two tabs" resolved from the window, both reach the model, each page
 * fenced under its own tab label, and the answer (which names each tab) is shown under the
 * message's tab chips. Checked in the request the model server received.
 */
import { agentHarness } from '../support/agent-harness';

const h = agentHarness({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }], provider: { kind: 'ollama', model: 'qwen2.5:3b' } });

const shop = (name: string, price: string, days: number) =>
  `<!doctype html><html lang="en"><head><title>Kettle at ${name}</title></head><body><main><h1>Steel kettle</h1><p>Sold by ${name}.</p><p>Price: ${price}</p><p>Delivery in ${days} days.</p></main></body></html>`;

async function openShops() {
  h.site.page('/shop-a.html', shop('Shop A', '39.90 EUR', 2));
  h.site.page('/shop-b.html', shop('Shop B', '34.50 EUR', 5));
  await h.openPage('/shop-a.html');
  await h.openPage('/shop-b.html');
}

const systemOf = (request: { body: { messages: { content: unknown }[] } }) => String(request.body.messages[0]!.content);

test('two tabs attached with @ both reach the model, each under its tab label; the message shows them as chips', async () => {
  await openShops();
  h.llm.script({ text: 'Tab 1 (Shop A): 39.90 EUR, 2 days. Tab 2 (Shop B): 34.50 EUR, 5 days.' });
  await h.sidebar.attachTab('shop', 'Kettle at Shop A');
  await h.sidebar.attachTab('', 'Kettle at Shop B');
  expect(await h.sidebar.page.$$eval('[data-testid="composer-tabs"] [data-testid="tab-chip"]', (els) => els.length)).toBe(2);
  await h.sidebar.send('Compare price and delivery');
  await h.sidebar.waitForAnswer('Tab 2 (Shop B)');
  const [request] = h.llm.chatRequests();
  expect(h.llm.chatRequests()).toHaveLength(1);
  expect(systemOf(request!)).toMatch(/Tab 1\nTitle: Kettle at Shop A[\s\S]*39\.90 EUR[\s\S]*Tab 2\nTitle: Kettle at Shop B[\s\S]*34\.50 EUR/);
  expect(await h.sidebar.page.$$eval('[data-testid="message-user"] [data-testid="tab-chip"]', (els) => els.map((el) => el.textContent))).toEqual(['Kettle at Shop A', 'Kettle at Shop B']);
  // Sent: the composer's own chips are gone, ready for the next message.
  expect(await h.sidebar.page.$('[data-testid="composer-tabs"]')).toBeNull();
});

test('"these two tabs" is resolved to the window’s two pages: both reach the model and the message names them', async () => {
  await openShops();
  h.llm.script({ text: 'Shop B (Tab 2) is cheaper than Shop A (Tab 1).' });
  await h.sidebar.send('Which of these two tabs is cheaper?');
  await h.sidebar.waitForAnswer('Shop B (Tab 2) is cheaper');
  const system = systemOf(h.llm.chatRequests()[0]!);
  expect(system).toContain('39.90 EUR');
  expect(system).toContain('34.50 EUR');
  expect(await h.sidebar.page.$$eval('[data-testid="message-user"] [data-testid="tab-chip"]', (els) => els.map((el) => el.textContent).sort())).toEqual(['Kettle at Shop A', 'Kettle at Shop B']);
});

test('"these two tabs" among three asks which, without calling the model', async () => {
  await openShops();
  h.site.page('/news.html', '<!doctype html><title>News</title><p>Headlines.</p>');
  await h.openPage('/news.html');
  await h.sidebar.send('Which of these two tabs is cheaper?');
  await h.sidebar.waitForAnswer('Which 2 tabs do you mean?');
  expect(h.llm.chatRequests()).toHaveLength(0);
});
