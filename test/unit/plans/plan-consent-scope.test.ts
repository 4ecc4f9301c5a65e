/**
 * A plan's consent covers what the user approved, and nothing a page or time changes afterwards:
 * the sites its tabs had when the user pressed Run (a tab that moved to another site before a Retry
 * or a Resume does not take the consent along), and no address in a plan nobody approved (a
 * read-only plan run by the setting asks before opening one). The real plans service, step runner,
 * permission gate and audit log, with the scripted model over the Ollama wire protocol.
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
import type { BgToUiEvent, OpenTab, PermissionRequest } from '../../../src/shared/protocol';
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

interface Tab {
  title: string;
  url: string;
  status: string;
  windowId: number;
  clicks: number;
}

async function setup(settings: Partial<z.input<typeof PlanSettingsSchema>> = {}) {
  const storage = new MemoryStorage();
  const pages = new Map<number, Tab>([
    [1, { title: 'Kettle — Shop One', url: 'https://shop-one.example/kettle', status: 'complete', windowId: 1, clicks: 0 }],
    [2, { title: 'Newsletter', url: 'https://news.example/signup', status: 'complete', windowId: 1, clicks: 0 }],
  ]);
  const created: string[] = [];
  let next = 50;
  const api: StepTabsApi = {
    get: async (id) => {
      const page = pages.get(id);
      if (!page) throw new Error(`No tab ${id}`);
      return { id, ...page };
    },
    create: async ({ url }) => {
      created.push(url);
      pages.set(next, { title: 'Opened', url, status: 'complete', windowId: 1, clicks: 0 });
      return { id: next++ };
    },
  };
  const click = defineTool({
    name: 'click',
    description: 'Click an element',
    input: z.object({ id: z.number() }),
    risk: 'interact',
    timeoutMs: 1000,
    run: async (_args, ctx) => {
      pages.get(ctx.task.tabId ?? -1)!.clicks++;
      return { ok: true, content: 'Clicked.' };
    },
  });
  const asked: PermissionRequest[] = [];
  // Every question is refused at once, and remembered.
  const prompter: PermissionPrompter = new PermissionPrompter((event: BgToUiEvent) => {
    if (event.type !== 'permission/requested') return;
    asked.push(event.request);
    setTimeout(() => prompter.answer(event.request.id, 'reject_once'), 0);
  }, 2000);
  const audit = new AuditLog(storage);
  const gate = new PolicyGate({ store: new PolicyStore(storage), prompter, audit, tab: async (id) => pages.get(id), inspect: async () => undefined });
  const runs = new RunRegistry();
  const conversations = new ConversationStore(storage);
  const conversation = await conversations.create();
  const store = new PlanStore(storage);
  const runStep = createStepRunner({
    runs,
    session: async () => ({ router: routerFor(server.url, 'ollama'), settings: DEFAULT_SETTINGS, model: 'qwen3:4b' }),
    tools: new ToolRegistry([click, ...CONTROL_TOOLS]),
    gate,
    tabs: new StepTabs(api, async () => 1),
    waitForLoad: async () => undefined,
    onTabRemoved: () => () => undefined,
    core: { stepTask, withStepTools },
  });
  const openTabs = (): OpenTab[] => [...pages.entries()].map(([id, p]) => ({ id, title: p.title, url: p.url, active: id === 1 }));
  const service = new PlanService({
    store,
    conversations,
    emit: () => undefined,
    settings: async () => PlanSettingsSchema.parse(settings),
    runStep,
    core: { checkPlan, isReadOnly, composeAnswer },
    runs,
    tabs: { list: async () => openTabs(), close: async () => undefined },
  });
  const propose = (plan: Plan) => service.propose({ conversationId: conversation.id, messageId: 'm1', request: 'Sign me up', plan, tabs: openTabs() });
  const ended = (id: string) => until(() => store.get(id), (r) => !['running', 'proposed'].includes(r.status));
  return { pages, created, asked, audit, service, propose, ended };
}

/** The step's model: clicks the button once, then says it is done. */
function clicker(request: RecordedRequest) {
  const messages = request.body.messages as { role: string }[];
  if (!messages.some((m) => m.role === 'tool')) return { toolCalls: [{ name: 'click', arguments: { id: 4 } }] };
  return { toolCalls: [{ name: 'done', arguments: { summary: 'Clicked the button.' } }] };
}

const signUp: Plan = { title: 'Sign up', steps: [{ id: 'signup', goal: 'Press the sign-up button', tab: { kind: 'tab', tabId: 2 }, dependsOn: [], fields: [], may: ['interact'] }] };

/** The sign-up plan approved and run, its model failing the first call: the plan ends failed, then the model clicks. */
async function failedOnce(t: Awaited<ReturnType<typeof setup>>) {
  let calls = 0;
  server.setFallback((request) => (calls++ === 0 ? { fault: 'unauthorized' as const } : clicker(request)));
  const proposed = await t.propose(signUp);
  await t.service.run(proposed.id);
  const failed = await t.ended(proposed.id);
  expect(failed.status).toBe('failed');
  return { proposed, failed };
}

test('approved on one site, the step clicks there without a question', async () => {
  const t = await setup();
  server.setFallback(clicker);
  const proposed = await t.propose(signUp);
  await t.service.run(proposed.id);
  const done = await t.ended(proposed.id);
  expect(done.status).toBe('done');
  expect(done.sites).toEqual(['https://news.example']);
  expect(t.pages.get(2)!.clicks).toBe(1);
  expect(t.asked).toEqual([]);
});

test('retried after its tab moved to another site, the step asks before clicking there: the consent stays with the approved site', async () => {
  const t = await setup();
  const { proposed, failed } = await failedOnce(t);
  expect(failed.sites).toEqual(['https://news.example']);

  // The page (or the user) takes the tab to another site; the Retry is no approval of that site.
  Object.assign(t.pages.get(2)!, { url: 'https://bank.example/transfer', title: 'Your bank' });
  await t.service.retryStep(proposed.id, 'signup');
  const retried = await t.ended(proposed.id);
  expect(t.asked.map((q) => [q.tool, q.origin])).toEqual([['click', 'https://bank.example']]);
  expect(t.pages.get(2)!.clicks).toBe(0);
  expect(retried.sites).toEqual(['https://news.example']);
});

test('a read-only plan that runs without asking opens no address before the user allows it; approved by Run, the same address opens', async () => {
  const t = await setup({ runReadOnlyWithoutAsking: true });
  server.setFallback(() => ({ toolCalls: [{ name: 'done', arguments: { summary: 'Read it.' } }] }));
  // A page's title steered the planner to an address on the user's network.
  const steered: Plan = { title: 'Read the router page', steps: [{ id: 'r', goal: 'Read the page', tab: { kind: 'url', url: 'http://192.168.1.1/reset?confirm=1' }, dependsOn: [], fields: [], may: [] }] };
  const auto = await t.propose(steered);
  expect(auto.sites).toEqual([]);
  const ended = await t.ended(auto.id);
  expect(t.asked.map((q) => [q.tool, q.args.url])).toEqual([['open_tab', 'http://192.168.1.1/reset?confirm=1']]);
  expect(t.created).toEqual([]);
  expect(ended.steps[0]!.state).toBe('failed');
  await new Promise((r) => setTimeout(r, 20));
  expect((await t.audit.list({})).map((e) => [e.tool, e.decision, e.planId])).toEqual([['open_tab', 'denied', auto.id]]);

  // The user sees the same plan on the card (auto-run off) and presses Run: that is the approval.
  const manual = await setup();
  server.setFallback(() => ({ toolCalls: [{ name: 'done', arguments: { summary: 'Read it.' } }] }));
  const proposed = await manual.propose(steered);
  expect(proposed.status).toBe('proposed');
  await manual.service.run(proposed.id);
  expect((await manual.ended(proposed.id)).status).toBe('done');
  expect(manual.asked).toEqual([]);
  expect(manual.created).toEqual(['http://192.168.1.1/reset?confirm=1']);
});

test("an approved read-only plan opens an earlier step's address without a question only on the site that step read; a link it wrote to another listed site carries data away, so it is asked", async () => {
  const t = await setup();
  // Tab 1 is the shop the user reads; tab 2 a site the plan also lists. The page in tab 1 steers
  // the model into a "link" on tab 2's site that carries what it read.
  let link = 'https://news.example/collect?card=4111111111111111';
  server.setFallback((request) => {
    const system = (request.body.messages as { role: string; content: string }[])[0]!.content;
    if (system.includes('tab_id=1 ')) return { toolCalls: [{ name: 'return_fields', arguments: { fields: { link } } }] };
    return { toolCalls: [{ name: 'done', arguments: { summary: 'Read it.' } }] };
  });
  const plan: Plan = {
    title: 'Read the offer',
    steps: [
      { id: 'find', goal: 'Find the offer link', tab: { kind: 'tab', tabId: 1 }, dependsOn: [], fields: [{ name: 'link', type: 'url' }], may: [] },
      { id: 'news', goal: 'Read the news', tab: { kind: 'tab', tabId: 2 }, dependsOn: [], fields: [], may: [] },
      { id: 'open', goal: 'Read the offer', tab: { kind: 'from_step', stepId: 'find', field: 'link' }, dependsOn: ['find'], fields: [], may: [] },
    ],
  };
  const exfil = await t.propose(plan);
  await t.service.run(exfil.id);
  expect((await t.ended(exfil.id)).sites).toEqual(['https://shop-one.example', 'https://news.example']);
  expect(t.asked.map((q) => [q.tool, q.args.url])).toEqual([['open_tab', link]]);
  expect(t.created).toEqual([]);

  // A link on the site the step read (the shop's own offer page) opens without a question.
  t.asked.length = 0;
  link = 'https://shop-one.example/offer/7';
  const same = await t.propose(plan);
  await t.service.run(same.id);
  expect((await t.ended(same.id)).steps.map((s) => s.state)).toEqual(['done', 'done', 'done']);
  expect(t.asked).toEqual([]);
  expect(t.created).toEqual([link]);
});

test('a tab that moved to another site between the proposal and Run does not take the consent along: the click there is asked', async () => {
  const t = await setup();
  server.setFallback(clicker);
  const proposed = await t.propose(signUp);
  expect(proposed.sites).toEqual(['https://news.example']);
  // The page redirects its own tab while the card waits for the user.
  Object.assign(t.pages.get(2)!, { url: 'https://bank.example/transfer', title: 'Your bank' });
  await t.service.run(proposed.id);
  const ended = await t.ended(proposed.id);
  expect(ended.sites).toEqual([]);
  expect(t.asked.map((q) => [q.tool, q.origin])).toEqual([['click', 'https://bank.example']]);
  expect(t.pages.get(2)!.clicks).toBe(0);
});

test('a step the user moved to another tab in an edit is approved on that tab\'s site', async () => {
  const t = await setup();
  server.setFallback(clicker);
  const proposed = await t.propose(signUp);
  const edited: Plan = { ...signUp, steps: [{ ...signUp.steps[0]!, tab: { kind: 'tab', tabId: 1 } }] };
  await t.service.run(proposed.id, edited);
  const ended = await t.ended(proposed.id);
  expect(ended.sites).toEqual(['https://shop-one.example']);
  expect(t.asked).toEqual([]);
  expect(t.pages.get(1)!.clicks).toBe(1);
});

test('Retry pressed twice at once (two sidebars, a double click) runs the step once; Cancel and Run at once: one wins', async () => {
  const t = await setup();
  const { proposed } = await failedOnce(t);

  const both = await Promise.allSettled([t.service.retryStep(proposed.id, 'signup'), t.service.retryStep(proposed.id, 'signup')]);
  expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  expect((await t.ended(proposed.id)).status).toBe('done');
  expect(t.pages.get(2)!.clicks).toBe(1);

  // Cancel and Run at once on a new proposal: one of them wins, never both.
  const next = await t.propose(signUp);
  const raced = await Promise.allSettled([t.service.run(next.id), t.service.cancel(next.id)]);
  expect(raced.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
  expect((await t.ended(next.id)).status).toBe('done');
});

test('Stop pressed while Run is still starting the plan stops it: no step reaches the model, nothing is clicked', async () => {
  const t = await setup();
  server.setFallback(clicker);
  const proposed = await t.propose(signUp);
  await Promise.all([t.service.run(proposed.id), t.service.stop(proposed.id)]);
  const ended = await t.ended(proposed.id);
  expect(ended.status).toBe('stopped');
  expect(server.chatRequests()).toEqual([]);
  expect(t.pages.get(2)!.clicks).toBe(0);
});
