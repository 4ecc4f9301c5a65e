/**
 * A whole plan in Node: the plans service, the real step runner, the planner side's step task,
 * return_fields and composed answer, the real permission gate and audit log, and the real
 * providers against the scripted server over both wire protocols. Three shops, each price read
 * from its page by the model and returned as a field; two steps at once; the answer table holds
 * each page's price; a tab closed mid-step leaves a partial answer and no tab behind.
 */
import { z } from 'zod';
import { ConversationStore } from '../../../src/background/conversations';
import { AuditLog } from '../../../src/background/permissions/audit-log';
import { PolicyStore } from '../../../src/background/permissions/policies';
import { PolicyGate } from '../../../src/background/permissions/policy-gate';
import { PermissionPrompter } from '../../../src/background/permissions/prompter';
import { checkPlan, isReadOnly } from '../../../src/background/plans/check';
import { composeAnswer } from '../../../src/background/plans/compose';
import { PlanService } from '../../../src/background/plans/plan-service';
import { PlanStore } from '../../../src/background/plans/plan-store';
import { createStepRunner } from '../../../src/background/plans/step-runner';
import { StepTabs, type StepTabsApi } from '../../../src/background/plans/step-tab';
import { stepTask } from '../../../src/background/plans/step-task';
import { withStepTools } from '../../../src/background/plans/step-tools';
import { RunRegistry } from '../../../src/background/runs/registry';
import { CONTROL_TOOLS } from '../../../src/background/tools/control';
import { defineTool, ToolRegistry } from '../../../src/background/tools/registry';
import type { Plan } from '../../../src/shared/plan';
import { PlanSettingsSchema } from '../../../src/shared/plan-settings';
import type { OpenTab } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer, type RecordedRequest } from '../../support/llm-server';
import { MemoryStorage } from '../../support/memory-storage';
import { until } from '../../support/plan-until';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

interface Page {
  title: string;
  url: string;
  text: string;
}

const SHOPS: Record<number, Page> = {
  1: { title: 'Kettle — Shop One', url: 'https://shop-one.example/kettle', text: 'Steel kettle 1.7 l. Price: 39,90 €. Delivery in 2 days.' },
  2: { title: 'Kettle | Shop Two', url: 'https://shop-two.example/p/17', text: 'Steel Kettle. Our price: €42.50 — ships tomorrow.' },
  3: { title: 'Wasserkocher', url: 'https://shop-three.example/wk', text: 'Wasserkocher Edelstahl. Preis: 41,00 EUR inkl. MwSt.' },
};

/** The model: reads the page, then returns the price it saw there (raw, as a small model would copy it). */
function shopper(request: RecordedRequest) {
  const messages = request.body.messages as { role: string; content: string }[];
  const result = [...messages].reverse().find((m) => m.role === 'tool')?.content;
  if (!result) return { toolCalls: [{ name: 'read_page', arguments: {} }], delayMs: 150 };
  const price = /(?:Price|price|Preis):\s*([^\s.]*\d[\d.,]*\d\s*(?:€|EUR)?|€[\d.,]+)/.exec(result)?.[1] ?? null;
  return { toolCalls: [{ name: 'return_fields', arguments: { fields: { price }, summary: `Found ${price}.` } }], delayMs: 150 };
}

function world() {
  const pages = new Map(Object.entries(SHOPS).map(([id, page]) => [Number(id), { ...page, status: 'complete', windowId: 1 }]));
  const removedListeners = new Set<(id: number) => void>();
  let next = 50;
  const closed: number[] = [];
  const api: StepTabsApi = {
    get: async (id) => {
      const page = pages.get(id);
      if (!page) throw new Error(`No tab ${id}`);
      return { id, ...page };
    },
    create: async ({ url }) => {
      const id = next++;
      pages.set(id, { title: 'Opened', url, text: 'Kettle. Price: 40,00 €.', status: 'complete', windowId: 1 });
      return { id };
    },
  };
  const remove = (id: number) => {
    pages.delete(id);
    removedListeners.forEach((l) => l(id));
  };
  const readPage = defineTool({
    name: 'read_page',
    description: 'Read the page in the current tab',
    input: z.object({}),
    risk: 'read',
    timeoutMs: 1000,
    run: async (_args, ctx) => {
      const page = pages.get(ctx.task.tabId ?? -1);
      return page ? { ok: true, content: page.text } : { ok: false, content: 'The tab is gone.' };
    },
  });
  const openTabs = (): OpenTab[] => [...pages.entries()].map(([id, p]) => ({ id, title: p.title, url: p.url, active: id === 1 }));
  return { pages, api, remove, closed, readPage, openTabs, onTabRemoved: (l: (id: number) => void) => (removedListeners.add(l), () => void removedListeners.delete(l)) };
}

async function setup(api: 'ollama' | 'openai') {
  const storage = new MemoryStorage();
  const w = world();
  const conversations = new ConversationStore(storage);
  const conversation = await conversations.create();
  const audit = new AuditLog(storage);
  const gate = new PolicyGate({ store: new PolicyStore(storage), prompter: new PermissionPrompter(() => undefined, 2000), audit, tab: async (id) => w.pages.get(id), inspect: async () => undefined });
  const runs = new RunRegistry();
  const runStep = createStepRunner({
    runs,
    session: async () => ({ router: routerFor(server.url, api), settings: DEFAULT_SETTINGS, model: 'qwen3:4b' }),
    tools: new ToolRegistry([w.readPage, ...CONTROL_TOOLS]),
    gate,
    tabs: new StepTabs(w.api, async () => 1),
    waitForLoad: async () => undefined,
    onTabRemoved: w.onTabRemoved,
    core: { stepTask, withStepTools },
  });
  const service = new PlanService({
    store: new PlanStore(storage),
    conversations,
    emit: () => undefined,
    settings: async () => PlanSettingsSchema.parse({ concurrency: 2 }),
    runStep,
    core: { checkPlan, isReadOnly, composeAnswer },
    runs,
    tabs: { list: async () => w.openTabs(), close: async (ids) => void (w.closed.push(...ids), ids.forEach((id) => w.remove(id))) },
  });
  return { w, service, conversations, conversation, audit, runs, store: new PlanStore(storage) };
}

const priceStep = (id: string, tab: Plan['steps'][number]['tab']): Plan['steps'][number] => ({ id, goal: 'Find the kettle price', tab, dependsOn: [], fields: [{ name: 'price', type: 'number' }], may: [] });
const comparison: Plan = { title: 'Compare the kettle', steps: [priceStep('one', { kind: 'tab', tabId: 1 }), priceStep('two', { kind: 'tab', tabId: 2 }), priceStep('three', { kind: 'tab', tabId: 3 })] };

describe.each(['ollama', 'openai'] as const)('over the %s wire protocol', (api) => {
  test("a comparison plan: two steps at once, the answer table holds each page's price, the audit log names plan and step", async () => {
    const t = await setup(api);
    server.setFallback(shopper);
    const proposed = await t.service.propose({ conversationId: t.conversation.id, messageId: 'm1', request: 'Compare the kettle on these three shops', plan: comparison, tabs: t.w.openTabs() });
    await t.service.run(proposed.id);
    const done = await until(() => t.store.get(proposed.id), (r) => r.status !== 'running');

    expect(done.status).toBe('done');
    expect(done.steps.map((s) => [s.id, s.state, s.fields])).toEqual([
      ['one', 'done', { price: 39.9 }],
      ['two', 'done', { price: 42.5 }],
      ['three', 'done', { price: 41 }],
    ]);
    const [one, two] = done.steps;
    expect(two!.startedAt!).toBeLessThan(one!.endedAt!);
    expect(done.answer).toMatch(/\| \[Kettle — Shop One\]\(foxagent:tab\/1\) \| 39\.9 \|/);
    expect(done.answer).toMatch(/foxagent:tab\/2\) \| 42\.5 \|/);
    expect(done.answer).toMatch(/foxagent:tab\/3\) \| 41 \|/);
    const chat = await t.conversations.get(t.conversation.id);
    expect(chat?.messages.at(-1)).toMatchObject({ content: done.answer, answerOf: proposed.id });
    await new Promise((r) => setTimeout(r, 50));
    const entries = await t.audit.list({});
    expect(entries.filter((e) => e.tool === 'read_page').map((e) => `${e.planId}/${e.stepId}`).sort()).toEqual([`${proposed.id}/one`, `${proposed.id}/three`, `${proposed.id}/two`]);
    expect(t.runs.list()).toEqual([]);
  });
});

test('a tab closed mid-step: a partial answer that says what is missing, and no tab the plan opened is left', async () => {
  const t = await setup('ollama');
  server.setFallback((request) => {
    const reply = shopper(request);
    // Shop three never answers, and its tab is closed meanwhile.
    const tabThree = JSON.stringify(request.body.messages).includes('tab_id=3');
    return tabThree ? { fault: 'hang' as const } : reply;
  });
  const plan: Plan = { title: 'Compare', steps: [priceStep('one', { kind: 'tab', tabId: 1 }), priceStep('three', { kind: 'tab', tabId: 3 }), priceStep('new', { kind: 'url', url: 'https://shop-four.example/kettle' })] };
  const proposed = await t.service.propose({ conversationId: t.conversation.id, messageId: 'm1', request: 'Compare', plan, tabs: t.w.openTabs() });
  await t.service.run(proposed.id);
  await until(() => t.store.get(proposed.id), (r) => r.steps.find((s) => s.id === 'three')?.state === 'running');
  await new Promise((r) => setTimeout(r, 100));
  t.w.remove(3);
  const done = await until(() => t.store.get(proposed.id), (r) => r.status !== 'running');
  expect(done.steps.map((s) => [s.id, s.state])).toEqual([
    ['one', 'done'],
    ['three', 'failed'],
    ['new', 'done'],
  ]);
  expect(done.steps[1]!.reason).toBe('Its tab was closed while it ran.');
  expect(done.steps[2]!.fields).toEqual({ price: 40 });
  expect(done.answer).toContain('39.9');
  expect(done.answer).toMatch(/Missing: shop-three\.example — price: the step failed: Its tab was closed while it ran\./);
  // The tab the plan opened for the address is closed at the end; the user's tabs are not.
  expect(t.w.closed).toEqual([50]);
  expect([...t.w.pages.keys()].sort()).toEqual([1, 2]);
  expect(done.openedTabs).toEqual([]);
});
