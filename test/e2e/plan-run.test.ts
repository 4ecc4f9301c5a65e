/**
 * The plans orchestrator in real Firefox against the scripted model, driven through the sidebar's
 * port (the plan card is tested on its own): a comparison over two open shop tabs and one address
 * the plan opens, planned by the model, approved with plan/run; two steps at once; each price read
 * from its page; the answer in the chat; the tab the plan opened closed at the end; the audit log
 * naming plan and step.
 */
import type { RecordedRequest } from '../support/llm-server';
import { elementId } from '../support/page-model';
import { agentHarness } from '../support/agent-harness';
import { waitFor } from '../support/firefox';
import { portRequest, SidebarDriver } from '../support/sidebar-driver';

const h = agentHarness({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }], provider: { kind: 'ollama', model: 'qwen2.5:3b' } });

const shop = (name: string, price: string) =>
  `<!doctype html><html lang="en"><head><title>Kettle at ${name}</title></head><body><main><h1>Steel kettle</h1><p>Sold by ${name}.</p><p>Price: ${price}</p></main></body></html>`;

/** One request on a port of its own from the sidebar page, as the sidebar sends it. */
async function ask<T>(body: Record<string, unknown>): Promise<T> {
  const reply = await portRequest(h.sidebar.page, body);
  if (reply.error) throw new Error(JSON.stringify(reply.error));
  return reply.value as T;
}

interface Step {
  id: string;
  state: string;
  fields?: Record<string, unknown>;
  startedAt?: number;
  endedAt?: number;
  tabId?: number;
}
interface Record_ {
  id: string;
  status: string;
  steps: Step[];
  answer?: string;
  openedTabs: number[];
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Shops A and B open in tabs; Shop C's address, for the plan to open. */
async function openShops(): Promise<string> {
  h.site.page('/plan-shop-a.html', shop('Shop A', '39.90 EUR'));
  h.site.page('/plan-shop-b.html', shop('Shop B', '34.50 EUR'));
  h.site.page('/plan-shop-c.html', shop('Shop C', '41.00 EUR'));
  await h.openPage('/plan-shop-a.html');
  await h.openPage('/plan-shop-b.html');
  return `${h.site.url}/plan-shop-c.html`;
}

/** The id the planner's tab list gives the shop's tab. */
const tabIdOf = (plannerPrompt: string, shopName: string) => Number(new RegExp(`tabId=(\\d+)[^\\n]*Kettle at ${shopName}`).exec(plannerPrompt)?.[1]);

/** The planner call proposes the three steps; each step reads its page, then returns the price it saw. */
function model(shopC: string) {
  return (request: RecordedRequest) => {
    const messages = request.body.messages as { role: string; content: string }[];
    if (JSON.stringify(request.body.tools ?? []).includes('propose_plan')) {
      const tabOf = (name: string) => tabIdOf(messages[0]!.content, name);
      const price = [{ name: 'price', type: 'number' }];
      const plan = {
        title: 'Compare the kettle',
        steps: [
          { id: 'a', goal: 'Find the kettle price', tab: { kind: 'tab', tabId: tabOf('Shop A') }, fields: price },
          { id: 'b', goal: 'Find the kettle price', tab: { kind: 'tab', tabId: tabOf('Shop B') }, fields: price },
          { id: 'c', goal: 'Find the kettle price', tab: { kind: 'url', url: shopC }, fields: price },
        ],
      };
      return { toolCalls: [{ name: 'propose_plan', arguments: plan }] };
    }
    const result = [...messages].reverse().find((m) => m.role === 'tool')?.content;
    if (!result) return { toolCalls: [{ name: 'read_page', arguments: {} }], delayMs: 400 };
    const price = /Price: ([\d.]+ EUR)/.exec(result)?.[1] ?? null;
    return { toolCalls: [{ name: 'return_fields', arguments: { fields: { price }, summary: `Found ${price}.` } }], delayMs: 400 };
  };
}

test('a comparison plan runs: two steps at once, each page’s price in the answer, the opened tab closed, the audit log naming plan and step', async () => {
  const shopC = await openShops();
  h.llm.setFallback(model(shopC));

  await h.sidebar.send('Compare the price of this kettle on these three shops');
  const conversation = await ask<{ id: string }>({ type: 'conversation/get' });
  const [proposed] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans.length === 1);
  expect(proposed!.status).toBe('proposed');

  await ask({ type: 'plan/run', planId: proposed!.id });
  const [done] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => !['proposed', 'running'].includes(plans[0]!.status));
  expect(done!.status).toBe('done');
  expect(done!.steps.map((s) => [s.id, s.state, s.fields])).toEqual([
    ['a', 'done', { price: 39.9 }],
    ['b', 'done', { price: 34.5 }],
    ['c', 'done', { price: 41 }],
  ]);
  const [a, b] = done!.steps;
  expect(b!.startedAt!).toBeLessThan(a!.endedAt!);
  expect(done!.answer).toMatch(/Kettle at Shop A\]\(foxagent:tab\/\d+\) \| 39\.9 \|/);
  expect(done!.answer).toMatch(/Kettle at Shop B\]\(foxagent:tab\/\d+\) \| 34\.5 \|/);
  // The tab the plan opened closes with it: its row links to the page instead.
  expect(done!.answer).toContain(`](${new URL(shopC).href}) | 41 |`);
  await h.sidebar.waitForAnswer('34.5');

  // The tab the plan opened for Shop C is closed; the user's two shop tabs are still open.
  const urls = (await h.ff.browser.pages()).map((p) => p.url());
  expect(urls.some((u) => u.endsWith('/plan-shop-c.html'))).toBe(false);
  expect(urls.filter((u) => /plan-shop-[ab]\.html$/.test(u))).toHaveLength(2);
  expect(done!.openedTabs).toEqual([]);

  const audit = await ask<{ tool: string; planId?: string; stepId?: string }[]>({ type: 'audit/list' });
  expect(audit.filter((e) => e.tool === 'read_page' && e.planId === proposed!.id).map((e) => e.stepId).sort()).toEqual(['a', 'b', 'c']);
});

test('Stop during a plan ends every step and model call at once, and closes the tab it opened', async () => {
  const shopC = await openShops();
  const script = model(shopC);
  // The steps' model calls never answer: only Stop ends them.
  h.llm.setFallback((request) => (JSON.stringify(request.body.tools ?? []).includes('propose_plan') ? script(request) : { fault: 'hang' as const }));

  await h.sidebar.send('Compare the price of this kettle on these three shops');
  const conversation = await ask<{ id: string }>({ type: 'conversation/get' });
  const [proposed] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans.length === 1);
  await ask({ type: 'plan/run', planId: proposed!.id });
  await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.steps.every((s) => s.state === 'running'));
  const calls = await until(() => Promise.resolve(h.llm.chatRequests().length), (n) => n >= 4);
  expect(calls).toBe(4);

  const started = Date.now();
  const stopped = await ask<Record_>({ type: 'plan/stop', planId: proposed!.id });
  expect(Date.now() - started).toBeLessThan(3000);
  expect(stopped.status).toBe('stopped');
  expect(stopped.steps.map((s) => s.state)).toEqual(['failed', 'failed', 'failed']);
  const runs = await ask<unknown[]>({ type: 'runs/list' });
  expect(runs).toEqual([]);
  const urls = (await h.ff.browser.pages()).map((p) => p.url());
  expect(urls.some((u) => u.endsWith('/plan-shop-c.html'))).toBe(false);
  // Nothing more is asked of the model after Stop.
  await new Promise((r) => setTimeout(r, 500));
  expect(h.llm.chatRequests()).toHaveLength(4);
});

const deliveryPage = (name: string, days: number) =>
  `<!doctype html><html lang="en"><head><title>Kettle at ${name}</title></head><body><main><h1>Steel kettle</h1><button id="show" onclick="document.getElementById('delivery').textContent='Delivery in ${days} days'">Show delivery</button><p id="delivery"></p></main></body></html>`;

/** A step's agent: read the page, press the button, read again, return what the page says (or null). */
function deliveryModel(request: RecordedRequest) {
  const messages = request.body.messages as { role: string; content: string }[];
  if (JSON.stringify(request.body.tools ?? []).includes('propose_plan')) {
    const tabOf = (name: string) => tabIdOf(messages[0]!.content, name);
    const step = (id: string, name: string, may: string[]) => ({ id, goal: 'Press "Show delivery" and read the delivery time', tab: { kind: 'tab', tabId: tabOf(name) }, fields: [{ name: 'delivery', type: 'string' }], may });
    return { toolCalls: [{ name: 'propose_plan', arguments: { title: 'Delivery times', steps: [step('a', 'Shop D', ['interact']), step('b', 'Shop E', [])] } }] };
  }
  const results = messages.filter((m) => m.role === 'tool');
  if (results.length === 0 || results.length === 2) return { toolCalls: [{ name: 'read_page', arguments: {} }] };
  if (results.length === 1) return { toolCalls: [{ name: 'click', arguments: { id: elementId(request, 'button', 'Show delivery') } }] };
  const delivery = /Delivery in \d+ days/.exec(results.at(-1)!.content)?.[0] ?? null;
  return { toolCalls: [{ name: 'return_fields', arguments: { fields: { delivery } } }] };
}

test("the approved plan's listed interaction runs without a question; a step that listed none asks, and a denial costs only its value", async () => {
  h.site.page('/plan-shop-d.html', deliveryPage('Shop D', 2));
  h.site.page('/plan-shop-e.html', deliveryPage('Shop E', 5));
  const pageD = await h.openPage('/plan-shop-d.html');
  const pageE = await h.openPage('/plan-shop-e.html');
  h.llm.setFallback(deliveryModel);
  await h.sidebar.send('Compare the delivery time of this kettle on these two shops');
  const conversation = await ask<{ id: string }>({ type: 'conversation/get' });
  const [proposed] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans.length === 1);
  await ask({ type: 'plan/run', planId: proposed!.id });

  // Step b waits for the user; step a went through on the plan's consent.
  await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.steps[1]!.state === 'asking');
  const questions = await ask<{ id: string; tool: string; origin: string }[]>({ type: 'permission/pending' });
  expect(questions.map((q) => [q.tool, q.origin])).toEqual([['click', h.site.url]]);
  await ask({ type: 'permission/answer', id: questions[0]!.id, decision: 'reject_once' });

  const [done] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.status !== 'running');
  expect(done!.steps.map((s) => [s.id, s.state, s.fields])).toEqual([
    ['a', 'done', { delivery: 'Delivery in 2 days' }],
    ['b', 'done', { delivery: null }],
  ]);
  expect(await pageD.$eval('#delivery', (el) => el.textContent)).toBe('Delivery in 2 days');
  expect(await pageE.$eval('#delivery', (el) => el.textContent)).toBe('');
  const audit = await ask<{ tool: string; stepId?: string; decision: string; decidedBy: string }[]>({ type: 'audit/list' });
  expect(audit.filter((e) => e.tool === 'click').map((e) => [e.stepId, e.decision, e.decidedBy]).sort()).toEqual([
    ['a', 'allowed', 'policy'],
    ['b', 'denied', 'user'],
  ]);
});

test('a step hands over to the user: its tab comes to the front, the step is paused with the need, and Continue lets it finish', async () => {
  await openShops();
  h.llm.setFallback((request) => {
    const messages = request.body.messages as { role: string; content: string }[];
    if (JSON.stringify(request.body.tools ?? []).includes('propose_plan')) {
      const step = { id: 'a', goal: 'Read the order page', tab: { kind: 'tab', tabId: tabIdOf(messages[0]!.content, 'Shop A') } };
      return { toolCalls: [{ name: 'propose_plan', arguments: { title: 'Order', steps: [step] } }] };
    }
    const results = messages.filter((m) => m.role === 'tool');
    if (!results.length) return { toolCalls: [{ name: 'hand_over', arguments: { need: 'Please log in to Shop A.' } }] };
    return { toolCalls: [{ name: 'done', arguments: { summary: /the user says it is done/i.test(results[0]!.content) ? 'Read after the login.' : 'No login.' } }] };
  });
  await h.sidebar.send('For each of these shops, read the order page');
  const conversation = await ask<{ id: string }>({ type: 'conversation/get' });
  const [proposed] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans.length === 1);
  await ask({ type: 'plan/run', planId: proposed!.id });

  const [paused] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.steps[0]!.state === 'paused');
  expect(paused!.steps[0]).toMatchObject({ reason: 'Please log in to Shop A.' });
  const [handOver] = await ask<{ id: string; planId?: string; stepId?: string; tabId?: number; need: string }[]>({ type: 'handover/pending' });
  expect(handOver).toMatchObject({ planId: proposed!.id, stepId: 'a', need: 'Please log in to Shop A.', tabId: paused!.steps[0]!.tabId });
  const active = await h.sidebar.page.evaluate(async () => {
    const api = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<{ url?: string }[]> } } }).browser;
    return (await api.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.url ?? '';
  });
  expect(active).toMatch(/plan-shop-a\.html$/);

  expect(await ask({ type: 'handover/continue', id: handOver!.id })).toEqual({ continued: true });
  const [done] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.status !== 'running');
  expect(done!.steps[0]).toMatchObject({ state: 'done', summary: 'Read after the login.' });
  expect(await ask({ type: 'handover/pending' })).toEqual([]);
});

// Last in the file: the reload closes the harness's sidebar page.
test('a plan cut off by an extension reload shows as interrupted; resume finishes it without running finished steps again', async () => {
  const shopC = await openShops();
  const script = model(shopC);
  // Shop A's step finishes; the others hang until the extension goes away.
  h.llm.setFallback((request) => {
    const planning = JSON.stringify(request.body.tools ?? []).includes('propose_plan');
    return planning || JSON.stringify(request.body.messages).includes('Kettle at Shop A') ? { ...script(request), delayMs: 0 } : { fault: 'hang' as const };
  });
  await h.sidebar.send('Compare the price of this kettle on these three shops');
  const conversation = await ask<{ id: string }>({ type: 'conversation/get' });
  const [proposed] = await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans.length === 1);
  await ask({ type: 'plan/run', planId: proposed!.id });
  await until(() => ask<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.steps[0]!.state === 'done' && plans[0]!.steps[2]!.tabId !== undefined);
  await new Promise((r) => setTimeout(r, 300));

  await h.sidebar.page.evaluate(() => void (globalThis as unknown as { browser: { runtime: { reload(): void } } }).browser.runtime.reload());
  await waitFor(async () => h.sidebar.page.isClosed() || !(await h.sidebar.page.evaluate(() => document.querySelector('[data-testid="composer"]') !== null).catch(() => false)), { what: 'the old sidebar page to go' });
  const sidebar = await SidebarDriver.open(h.ff);
  const askNow = async <T>(body: Record<string, unknown>) => (await portRequest(sidebar.page, body)).value as T;
  const [cut] = await until(() => askNow<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]?.status === 'interrupted', 15_000);
  expect(cut!.steps.map((s) => [s.id, s.state])).toEqual([
    ['a', 'done'],
    ['b', 'waiting'],
    ['c', 'waiting'],
  ]);
  expect(cut!.steps[0]!.fields).toEqual({ price: 39.9 });

  h.llm.reset();
  h.llm.setFallback(script);
  await askNow({ type: 'plan/resume', planId: proposed!.id });
  const [done] = await until(() => askNow<Record_[]>({ type: 'plan/list', conversationId: conversation.id }), (plans) => plans[0]!.status === 'done');
  expect(done!.steps.map((s) => [s.id, s.state, s.fields])).toEqual([
    ['a', 'done', { price: 39.9 }],
    ['b', 'done', { price: 34.5 }],
    ['c', 'done', { price: 41 }],
  ]);
  // Shop A was not asked about again; the tab opened before the reload is gone at the end.
  expect(h.llm.chatRequests().some((r) => JSON.stringify(r.body.messages).includes('Kettle at Shop A'))).toBe(false);
  const urls = (await h.ff.browser.pages()).map((p) => p.url());
  expect(urls.some((u) => u.endsWith('/plan-shop-c.html'))).toBe(false);
  await sidebar.page.close();
});
