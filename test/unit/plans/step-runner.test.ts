/**
 * One plan step as a run, through the real agent loop and the real providers against the scripted
 * server: its tab opened in the background and grouped, the run scoped to that tab with the plan's
 * consent, the loop's events as the step's state; a closed tab, a page that never loads, a failing
 * model, Stop, and a hand-over to the user.
 */
import { HandOverRegistry } from '../../../src/background/handover';
import { AuditLog } from '../../../src/background/permissions/audit-log';
import { PolicyStore } from '../../../src/background/permissions/policies';
import { PolicyGate } from '../../../src/background/permissions/policy-gate';
import { PermissionPrompter } from '../../../src/background/permissions/prompter';
import type { GateScope, PermissionGate } from '../../../src/background/permissions/gate';
import type { StepJob, StepProgress } from '../../../src/background/plans/step-job';
import { createStepRunner, type StepCore } from '../../../src/background/plans/step-runner';
import { StepTabs, type StepTabsApi } from '../../../src/background/plans/step-tab';
import { RunRegistry } from '../../../src/background/runs/registry';
import { createHandOverTool } from '../../../src/background/tools/control';
import { ToolRegistry } from '../../../src/background/tools/registry';
import type { PlanStep } from '../../../src/shared/plan';
import type { BgToUiEvent, RunInfo } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';
import { MemoryStorage } from '../../support/memory-storage';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

interface FakeTab {
  title: string;
  url: string;
  status: string;
  windowId: number;
}

/** Tabs in memory: the user's two, and whatever the step opens. */
function browserTabs() {
  const tabs = new Map<number, FakeTab>([
    [1, { title: 'Kettle — Shop One', url: 'https://shop1.example/kettle', status: 'complete', windowId: 2 }],
    [2, { title: 'Slow', url: 'https://slow.example/', status: 'loading', windowId: 2 }],
  ]);
  const created: unknown[] = [];
  const grouped: unknown[] = [];
  const listeners = new Set<(id: number) => void>();
  let next = 100;
  const api: StepTabsApi = {
    get: async (id) => {
      const tab = tabs.get(id);
      if (!tab) throw new Error(`No tab with id: ${id}`);
      return { id, ...tab };
    },
    create: async (props) => {
      const id = next++;
      tabs.set(id, { title: 'Opened', url: props.url, status: 'complete', windowId: props.windowId ?? 0 });
      created.push(props);
      return { id };
    },
    group: async (options) => (grouped.push(options), 7),
    updateGroup: async (groupId, props) => void grouped.push({ groupId, ...props }),
  };
  const remove = (id: number) => {
    tabs.delete(id);
    listeners.forEach((l) => l(id));
  };
  return { api, tabs, created, grouped, remove, onTabRemoved: (l: (id: number) => void) => (listeners.add(l), () => void listeners.delete(l)) };
}

const core: StepCore = {
  stepTask: (step, ctx) => [
    { role: 'system', content: `You work in tab_id=${ctx.tab.id} (${ctx.tab.url}) only.` },
    { role: 'user', content: `${step.goal}\nEarlier steps found: ${JSON.stringify(ctx.inputs)}` },
  ],
  withStepTools: (base) => ({ tools: base, fields: () => undefined, summary: () => undefined }),
};

function setup(api: 'ollama' | 'openai', tools = pageWorld().tools, extra: { now?: () => number; budget?: { steps: number; wallClockMs: number } } = {}, refuse: ReadonlySet<string> = new Set()) {
  const browser = browserTabs();
  const runs = new RunRegistry();
  const seen: GateScope[] = [];
  const gate: PermissionGate = {
    decide: async (call, scope) => (seen.push(scope), refuse.has(call.tool.name) ? { allowed: false, by: 'user', reason: 'denied by the user' } : { allowed: true, by: 'policy' }),
  };
  const listed: RunInfo[][] = [];
  runs.subscribe((l) => listed.push(l));
  const runStep = createStepRunner({
    runs,
    session: async (conversationId) => ({ router: routerFor(server.url, api), settings: DEFAULT_SETTINGS, model: conversationId === 'conv-1' ? 'qwen3:4b' : 'unknown' }),
    tools,
    gate,
    tabs: new StepTabs(browser.api, async () => 2),
    waitForLoad: async () => undefined,
    onTabRemoved: browser.onTabRemoved,
    core,
    loadTimeoutMs: 50,
    ...extra,
  });
  return { browser, runs, seen, listed, runStep };
}

function job(step: Partial<PlanStep>, extra: Partial<StepJob> = {}) {
  const progress: StepProgress[] = [];
  const opened: number[] = [];
  let calls = 0;
  const controller = new AbortController();
  const value: StepJob = {
    planId: 'plan-1',
    planTitle: 'Compare the kettle',
    conversationId: 'conv-1',
    step: { id: 'a', goal: 'Find the price', tab: { kind: 'tab', tabId: 1 }, dependsOn: [], fields: [], may: ['interact'], ...step },
    inputs: {},
    inputSites: {},
    openedTabs: [],
    grant: { sites: new Set(['https://shop1.example']), may: new Set(['interact']) },
    signal: controller.signal,
    progress: (p) => void progress.push(p),
    modelCall: () => void calls++,
    opened: (id) => void opened.push(id),
    ...extra,
  };
  return { job: value, progress, opened, controller, calls: () => calls };
}

describe.each(['ollama', 'openai'] as const)('over the %s wire protocol', (api) => {
  test('a step on an address opens it in the background, in the plan group, and runs the loop scoped to that tab', async () => {
    const t = setup(api);
    server.script({ toolCalls: [{ name: 'read_page', arguments: {} }] }, { toolCalls: [{ name: 'done', arguments: { summary: 'The kettle costs 39 €.' } }] });
    // Approved by the user, the plan's consent covers the site of its own address.
    const j = job({ tab: { kind: 'url', url: 'https://shop2.example/kettle' } }, { grant: { sites: new Set(['https://shop2.example']), may: new Set(['interact']) } });
    const outcome = await t.runStep(j.job);

    expect(outcome).toEqual({ ok: true, summary: 'The kettle costs 39 €.' });
    expect(t.browser.created).toEqual([{ url: 'https://shop2.example/kettle', active: false, windowId: 2 }]);
    expect(j.opened).toEqual([100]);
    expect(t.browser.grouped).toEqual([{ tabIds: [100], createProperties: { windowId: 2 } }, { groupId: 7, title: 'Compare the kettle' }]);
    expect(j.progress[0]).toMatchObject({ tabId: 100, site: 'https://shop2.example' });
    expect(j.progress).toContainEqual(expect.objectContaining({ state: 'running', action: 'read_page' }));
    expect(j.calls()).toBe(2);
    // The run: a workflow step of the plan's group, scoped to its tab, carrying the plan's consent.
    expect(t.listed.some((l) => l.some((r) => r.origin === 'workflow_step'))).toBe(true);
    const scope = t.seen[0]!;
    expect(scope.tabId).toBe(100);
    expect(scope.task).toMatchObject({ tabId: 100, startTabId: 100, allowedTabs: new Set([100]), planStep: { planId: 'plan-1', stepId: 'a' }, planGrant: j.job.grant });
    expect(t.runs.list()).toEqual([]);
    const sent = server.chatRequests()[0]!.body.messages as { content: string }[];
    expect(sent[0]!.content).toContain('tab_id=100 (https://shop2.example/kettle)');
  });
});

test("a step on an earlier step's address opens only an http(s) one", async () => {
  const t = setup('ollama');
  const bad = await t.runStep(job({ tab: { kind: 'from_step', stepId: 'search', field: 'link' } }, { inputs: { search: { link: 'javascript:alert(1)' } } }).job);
  expect(bad).toMatchObject({ ok: false, reason: { key: 'planNoAddressFrom', args: ['search', 'link'] } });
  expect(t.browser.created).toEqual([]);
  server.script({ text: 'It says 12 €.' });
  const good = await t.runStep(job({ tab: { kind: 'from_step', stepId: 'search', field: 'link' } }, { inputs: { search: { link: 'https://shop3.example/p/1' } } }).job);
  expect(good).toEqual({ ok: true, summary: 'It says 12 €.' });
  expect(t.browser.created).toEqual([{ url: 'https://shop3.example/p/1', active: false, windowId: 2 }]);
});

test('a tab closed mid-step fails the step at once, ending its model call', async () => {
  const t = setup('ollama');
  server.script({ fault: 'hang' });
  const started = Date.now();
  const running = t.runStep(job({}).job);
  await new Promise((r) => setTimeout(r, 200));
  t.browser.remove(1);
  expect(await running).toMatchObject({ ok: false, reason: { key: 'planTabClosedMidStep' } });
  expect(Date.now() - started).toBeLessThan(1200);
  expect(t.runs.list()).toEqual([]);
});

test("a page that never loads fails the step before any model call; a gone tab fails it too", async () => {
  const t = setup('ollama');
  expect(await t.runStep(job({ tab: { kind: 'tab', tabId: 2 } }).job)).toMatchObject({ ok: false, reason: { key: 'planPageNeverLoaded' } });
  expect(await t.runStep(job({ tab: { kind: 'tab', tabId: 9 } }).job)).toMatchObject({ ok: false, reason: { key: 'planTabGone' } });
  expect(server.chatRequests()).toEqual([]);
});

test('a failing model fails the step with its reason; Stop ends the step as stopped', async () => {
  const t = setup('openai');
  server.setFallback({ fault: 'server_error' });
  expect(await t.runStep(job({}).job)).toMatchObject({ ok: false, reason: { key: 'planModelFailed' } });
  server.reset();
  server.script({ fault: 'hang' });
  const j = job({});
  const running = t.runStep(j.job);
  await new Promise((r) => setTimeout(r, 200));
  j.controller.abort();
  expect(await running).toMatchObject({ ok: false, stopped: true });
});

test('a hand-over pauses the step with the need, focuses its tab, and goes on when the user presses Continue', async () => {
  const events: BgToUiEvent[] = [];
  const focused: number[] = [];
  const handovers = new HandOverRegistry((e) => events.push(e), async (id) => void focused.push(id));
  const world = pageWorld();
  const t = setup('ollama', new ToolRegistry([...world.tools.all(), createHandOverTool(handovers)]));
  server.script({ toolCalls: [{ name: 'hand_over', arguments: { need: 'Please log in to see the price.' } }] }, { toolCalls: [{ name: 'done', arguments: { summary: 'Read it after the login.' } }] });
  const j = job({});
  const running = t.runStep(j.job);
  for (let i = 0; i < 100 && !handovers.pending().length; i++) await new Promise((r) => setTimeout(r, 20));
  const [pending] = handovers.pending();
  expect(pending).toMatchObject({ conversationId: 'conv-1', planId: 'plan-1', stepId: 'a', tabId: 1, need: 'Please log in to see the price.', runId: expect.stringMatching(/^run-/) });
  expect(j.progress.at(-1)).toMatchObject({ state: 'paused', reason: 'Please log in to see the price.' });
  expect(focused).toEqual([1]);
  expect(handovers.continue(pending!.id)).toBe(true);
  expect(await running).toEqual({ ok: true, summary: 'Read it after the login.' });
  expect(handovers.continue(pending!.id)).toBe(false);
  expect(events.map((e) => e.type)).toEqual(['handover/requested', 'handover/resolved']);
  const result = (server.chatRequests()[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
  expect(result?.content).toContain('The user says it is done');
});

test('a hand-over ends when its run is stopped', async () => {
  const events: BgToUiEvent[] = [];
  const handovers = new HandOverRegistry((e) => events.push(e));
  const controller = new AbortController();
  const waiting = handovers.wait({ runId: 'run-1', conversationId: 'c', need: 'Solve the captcha' }, controller.signal);
  expect(handovers.pending()).toHaveLength(1);
  controller.abort();
  expect(await waiting).toBe(false);
  expect(handovers.pending()).toEqual([]);
  expect(events.map((e) => e.type)).toEqual(['handover/requested', 'handover/resolved']);
});

test("time handed over to the user does not count against the step's time", async () => {
  let clock = 0;
  const handovers = new HandOverRegistry(() => undefined);
  const t = setup('ollama', new ToolRegistry([...pageWorld().tools.all(), createHandOverTool(handovers)]), { now: () => clock, budget: { steps: 5, wallClockMs: 60_000 } });
  server.script({ toolCalls: [{ name: 'hand_over', arguments: { need: 'Solve the captcha.' } }] }, { toolCalls: [{ name: 'read_page', arguments: {} }] }, { toolCalls: [{ name: 'done', arguments: { summary: 'Read after the captcha.' } }] });
  const running = t.runStep(job({}).job);
  for (let i = 0; i < 100 && !handovers.pending().length; i++) await new Promise((r) => setTimeout(r, 20));
  // Ten minutes pass while the user solves the captcha.
  clock += 10 * 60_000;
  handovers.continue(handovers.pending()[0]!.id);
  expect(await running).toEqual({ ok: true, summary: 'Read after the captcha.' });
});

test("a plan's tabs share one group; without tab groups they open ungrouped", async () => {
  const t = setup('ollama');
  server.setFallback({ text: 'Read it.' });
  await t.runStep(job({ id: 'a', tab: { kind: 'url', url: 'https://shop2.example/a' } }).job);
  await t.runStep(job({ id: 'b', tab: { kind: 'url', url: 'https://shop3.example/b' } }).job);
  expect(t.browser.grouped).toEqual([{ tabIds: [100], createProperties: { windowId: 2 } }, { groupId: 7, title: 'Compare the kettle' }, { tabIds: [101], groupId: 7 }]);

  const bare = browserTabs();
  const { group: _group, updateGroup: _update, ...withoutGroups } = bare.api;
  const tabs = new StepTabs(withoutGroups, async () => undefined);
  const j = job({ tab: { kind: 'url', url: 'https://shop2.example/a' } });
  expect(await tabs.resolve(j.job)).toMatchObject({ ok: true, tab: { id: 100 } });
  expect(bare.created).toEqual([{ url: 'https://shop2.example/a', active: false }]);
  expect(j.opened).toEqual([100]);
});

test('a denial that leaves the step to answer in words fails that step, naming the call', async () => {
  const world = pageWorld();
  const t = setup('ollama', world.tools, {}, new Set(['click']));
  server.script({ toolCalls: [{ name: 'click', arguments: { id: 3 } }] }, { text: 'I could not press Save, so I stopped.' });
  const outcome = await t.runStep(job({ fields: [] }).job);
  expect(outcome).toEqual({ ok: false, reason: { key: 'planStepDenied', args: ['click'] } });
  expect(world.log).toEqual([]);
});

test('a step that must return fields and answers in words instead fails, naming the fields; without fields an answer finishes it', async () => {
  const t = setup('openai');
  server.script({ text: 'The kettle costs 39 €.' });
  const price = [{ name: 'price', type: 'number' as const }, { name: 'currency', type: 'string' as const }];
  expect(await t.runStep(job({ fields: price }).job)).toEqual({ ok: false, reason: { key: 'planStepNoFields', args: ['price, currency'] } });
  server.script({ text: 'The kettle costs 39 €.' });
  expect(await t.runStep(job({ fields: [] }).job)).toEqual({ ok: true, summary: 'The kettle costs 39 €.' });
});

test("an earlier step's address outside the plan's sites opens only if the user allows it (a page wrote it); on a plan site it opens without a question", async () => {
  const storage = new MemoryStorage();
  const events: BgToUiEvent[] = [];
  const prompter = new PermissionPrompter((e) => events.push(e), 5000);
  const audit = new AuditLog(storage);
  const gate = new PolicyGate({ store: new PolicyStore(storage), prompter, audit, tab: async () => undefined, inspect: async () => undefined });
  const t = setup('ollama');
  const runStep = createStepRunner({ runs: new RunRegistry(), session: async () => ({ router: routerFor(server.url, 'ollama'), settings: DEFAULT_SETTINGS, model: 'qwen3:4b' }), tools: pageWorld().tools, gate, tabs: new StepTabs(t.browser.api, async () => 2), waitForLoad: async () => undefined, onTabRemoved: t.browser.onTabRemoved, core, loadTimeoutMs: 50 });
  const fromSearch = { tab: { kind: 'from_step' as const, stepId: 'search', field: 'link' } };
  const answer = (decision: 'reject_once' | 'allow_once') => {
    const timer = setInterval(() => prompter.list().forEach((r) => prompter.answer(r.id, decision)), 5);
    return () => clearInterval(timer);
  };

  // An intranet address a page put in the first step's result: asked, refused, nothing opened, the step fails.
  let stopAnswering = answer('reject_once');
  const refused = job(fromSearch, { inputs: { search: { link: 'http://192.168.1.1/admin/reset' } } });
  const outcome = await runStep(refused.job);
  stopAnswering();
  expect(outcome).toMatchObject({ ok: false, reason: { key: 'gateDenied' } });
  expect(t.browser.created).toEqual([]);
  const asked = events.filter((e) => e.type === 'permission/requested');
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ request: { tool: 'open_tab', args: { url: 'http://192.168.1.1/admin/reset' } } });
  expect(refused.progress).toContainEqual(expect.objectContaining({ state: 'asking', action: 'open_tab' }));
  await new Promise((r) => setTimeout(r, 20));
  expect((await audit.list({})).map((e) => [e.tool, e.decision, e.planId, e.stepId])).toEqual([['open_tab', 'denied', 'plan-1', 'a']]);

  // Allowed, it opens.
  stopAnswering = answer('allow_once');
  server.script({ text: 'Done.' });
  const allowed = await runStep(job(fromSearch, { inputs: { search: { link: 'https://elsewhere.example/p/2' } } }).job);
  stopAnswering();
  expect(allowed).toMatchObject({ ok: true });
  expect(t.browser.created).toEqual([{ url: 'https://elsewhere.example/p/2', active: false, windowId: 2 }]);

  // On a site the plan listed that is the site the earlier step read, no question.
  server.script({ text: 'Done.' });
  const before = events.length;
  expect(await runStep(job(fromSearch, { inputs: { search: { link: 'https://shop1.example/other' } }, inputSites: { search: 'https://shop1.example' } }).job)).toMatchObject({ ok: true });
  expect(events.slice(before).filter((e) => e.type === 'permission/requested')).toEqual([]);
});

test('a tab the step opened that a redirect took to a site nobody approved is read only if the user allows it; http to https on the same host, or an approved site, needs nothing', async () => {
  const storage = new MemoryStorage();
  const events: BgToUiEvent[] = [];
  const prompter = new PermissionPrompter((e) => events.push(e), 5000);
  const gate = new PolicyGate({ store: new PolicyStore(storage), prompter, audit: new AuditLog(storage), tab: async () => undefined, inspect: async () => undefined });
  const t = setup('ollama');
  // Where each address lands after its redirects.
  const lands: Record<string, string> = {
    'https://shop1.example/kettle?r=1': 'http://10.0.0.1/admin/reset',
    'http://shop1.example/kettle': 'https://shop1.example/kettle',
    'https://shop1.example/kettle?r=2': 'https://shop2.example/kettle',
  };
  const api: StepTabsApi = { ...t.browser.api, create: async (props) => t.browser.api.create({ ...props, url: lands[props.url] ?? props.url }) };
  const runStep = createStepRunner({ runs: new RunRegistry(), session: async () => ({ router: routerFor(server.url, 'ollama'), settings: DEFAULT_SETTINGS, model: 'qwen3:4b' }), tools: pageWorld().tools, gate, tabs: new StepTabs(api, async () => 2), waitForLoad: async () => undefined, onTabRemoved: t.browser.onTabRemoved, core, loadTimeoutMs: 50 });
  const grant = { sites: new Set(['https://shop1.example', 'http://shop1.example', 'https://shop2.example']), may: new Set<'interact'>(['interact']) };
  const asked = () => events.filter((e): e is Extract<BgToUiEvent, { type: 'permission/requested' }> => e.type === 'permission/requested');
  const refuse = setInterval(() => prompter.list().forEach((r) => prompter.answer(r.id, 'reject_once')), 5);
  try {
    const refused = await runStep(job({ tab: { kind: 'url', url: 'https://shop1.example/kettle?r=1' } }, { grant }).job);
    expect(refused).toMatchObject({ ok: false, reason: { key: 'gateDenied' } });
    expect(asked().map((e) => e.request.args)).toEqual([{ url: 'http://10.0.0.1/admin/reset' }]);
    expect(server.chatRequests()).toHaveLength(0);

    server.script({ text: 'It says 12 €.' }, { text: 'It says 13 €.' });
    expect(await runStep(job({ tab: { kind: 'url', url: 'http://shop1.example/kettle' } }, { grant }).job)).toMatchObject({ ok: true });
    expect(await runStep(job({ tab: { kind: 'url', url: 'https://shop1.example/kettle?r=2' } }, { grant }).job)).toMatchObject({ ok: true });
    expect(asked()).toHaveLength(1);
  } finally {
    clearInterval(refuse);
  }
});
