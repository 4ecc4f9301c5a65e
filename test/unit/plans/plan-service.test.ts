/**
 * The plans service with real storage (in memory) and a scripted step runner: approval, edits,
 * cancel, the concurrency limit, data between steps, the answer in the chat, tabs closed, Stop,
 * Stop from the chat, retry, the budget, and recovery and resume after a reload.
 */
import { ConversationStore } from '../../../src/background/conversations';
import { PlanService, type PlanCore } from '../../../src/background/plans/plan-service';
import { PlanStore } from '../../../src/background/plans/plan-store';
import { RunConflict, RunRegistry } from '../../../src/background/runs/registry';
import type { StepJob, StepOutcome } from '../../../src/background/plans/step-job';
import { say } from '../../../src/shared/i18n';
import type { Plan, PlanRecord } from '../../../src/shared/plan';
import { PlanSettingsSchema, type PlanSettings } from '../../../src/shared/plan-settings';
import type { BgToUiEvent, OpenTab } from '../../../src/shared/protocol';
import { MemoryStorage } from '../../support/memory-storage';

const tick = () => new Promise((r) => setTimeout(r, 0));
const settle = async () => {
  for (let i = 0; i < 10; i++) await tick();
};

/** Steps that end when the test says, recording what each got and how many ran at once. */
class ScriptedSteps {
  readonly jobs: StepJob[] = [];
  private readonly waiting = new Map<string, (o: StepOutcome) => void>();
  most = 0;
  get running(): string[] {
    return [...this.waiting.keys()];
  }
  readonly run = (job: StepJob) =>
    new Promise<StepOutcome>((resolve) => {
      this.jobs.push(job);
      this.waiting.set(job.step.id, resolve);
      this.most = Math.max(this.most, this.waiting.size);
      job.signal.addEventListener('abort', () => {
        if (this.waiting.get(job.step.id) === resolve) this.waiting.delete(job.step.id);
        resolve({ ok: false, reason: say('planStepStoppedRunning'), stopped: true });
      });
    });
  end(id: string, outcome: StepOutcome): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(outcome);
  }
}

const core: PlanCore = {
  checkPlan: (plan, tabs) => plan.steps.flatMap((s) => (s.tab.kind === 'tab' && !tabs.some((t) => t.id === (s.tab as { tabId: number }).tabId) ? [`Step ${s.id}: tab ${s.tab.tabId} is not open.`] : [])),
  isReadOnly: (plan) => plan.steps.every((s) => s.may.length === 0),
  composeAnswer: (record) => record.steps.map((s) => `${s.id}: ${s.state} ${JSON.stringify(s.fields ?? null)}`).join('\n'),
};

const step = (id: string, tabId: number, extra: Partial<Plan['steps'][number]> = {}): Plan['steps'][number] => ({ id, goal: `read ${id}`, tab: { kind: 'tab', tabId }, dependsOn: [], fields: [{ name: 'price', type: 'number' }], may: [], ...extra });
const shops: Plan = { title: 'Compare', steps: [step('a', 1), step('b', 2), step('c', 3), step('sum', 1, { dependsOn: ['a', 'b', 'c'], fields: [] })] };
const tabs: OpenTab[] = [1, 2, 3].map((id) => ({ id, title: `Shop ${id}`, url: `https://shop${id}.example/item`, active: id === 1 }) as OpenTab);

async function setup(settings: Partial<PlanSettings> = {}, options: Pick<ConstructorParameters<typeof PlanService>[0], 'budget' | 'runs' | 'holdWaitMs' | 'now'> = {}) {
  const storage = new MemoryStorage();
  const store = new PlanStore(storage);
  const conversations = new ConversationStore(storage);
  const conversation = await conversations.create();
  const events: BgToUiEvent[] = [];
  const steps = new ScriptedSteps();
  const closed: number[][] = [];
  let open = [...tabs];
  const make = () =>
    new PlanService({
      store: new PlanStore(storage),
      conversations,
      emit: (e) => events.push(e),
      settings: async () => PlanSettingsSchema.parse({ concurrency: 2, ...settings }),
      runStep: steps.run,
      core,
      tabs: { list: async () => open, close: async (ids) => void closed.push([...ids]) },
      ...options,
    });
  const service = make();
  const propose = (plan: Plan = shops) => service.propose({ conversationId: conversation.id, messageId: 'msg-1', request: 'compare the kettle', plan, tabs: open });
  return { storage, store, conversations, conversation, events, steps, closed, service, make, propose, setOpen: (t: OpenTab[]) => (open = t) };
}

const updates = (events: BgToUiEvent[]) => events.filter((e): e is Extract<BgToUiEvent, { type: 'plan/updated' }> => e.type === 'plan/updated').map((e) => e.plan);
const states = (record: PlanRecord) => Object.fromEntries(record.steps.map((s) => [s.id, s.state]));

test('a proposed plan is stored and shown; it runs only when approved, at most N steps at once, dependents getting the fields', async () => {
  const t = await setup();
  const proposed = await t.propose();
  expect(proposed.status).toBe('proposed');
  expect((await t.store.get(proposed.id))?.status).toBe('proposed');
  expect(updates(t.events).at(-1)).toMatchObject({ id: proposed.id, status: 'proposed', readOnly: true });
  await settle();
  expect(t.steps.jobs).toEqual([]);

  await t.service.run(proposed.id);
  await settle();
  expect(t.steps.running).toEqual(['a', 'b']);
  // Each transition is stored and sent.
  expect(states((await t.store.get(proposed.id))!)).toEqual({ a: 'running', b: 'running', c: 'waiting', sum: 'waiting' });
  t.steps.jobs[0]!.opened(77);
  t.steps.end('a', { ok: true, fields: { price: 10 } });
  await settle();
  expect(t.steps.running).toEqual(['b', 'c']);
  t.steps.end('b', { ok: true, summary: 'no price shown' });
  t.steps.end('c', { ok: true, fields: { price: 12.5 } });
  await settle();
  expect(t.steps.running).toEqual(['sum']);
  expect(t.steps.most).toBe(2);
  const sum = t.steps.jobs.find((j) => j.step.id === 'sum')!;
  expect(sum.inputs).toEqual({ a: { price: 10 }, b: {}, c: { price: 12.5 } });
  expect(sum.grant.sites).toEqual(new Set(['https://shop1.example', 'https://shop2.example', 'https://shop3.example']));
  expect(sum.grant.may.size).toBe(0);
  t.steps.end('sum', { ok: true, summary: 'compared' });
  await settle();

  const done = (await t.store.get(proposed.id))!;
  expect(done.status).toBe('done');
  expect(states(done)).toEqual({ a: 'done', b: 'done', c: 'done', sum: 'done' });
  expect(done.steps.find((s) => s.id === 'b')?.summary).toBe('no price shown');
  expect(done.answer).toContain('c: done {"price":12.5}');
  const chat = await t.conversations.get(t.conversation.id);
  expect(chat?.messages.at(-1)).toMatchObject({ role: 'assistant', content: done.answer });
  expect(t.events.some((e) => e.type === 'conversation/updated')).toBe(true);
  expect(t.closed).toEqual([[77]]);
  expect(done.openedTabs).toEqual([]);
  await expect(t.service.run(proposed.id)).rejects.toThrow(/cannot run/);
});

test('a read-only plan runs without the card when the settings say so; a plan that acts still waits', async () => {
  const t = await setup({ runReadOnlyWithoutAsking: true });
  const read = await t.propose();
  expect(read.status).toBe('running');
  await settle();
  expect(t.steps.running).toEqual(['a', 'b']);
  const acting = await t.propose({ title: 'Fill', steps: [step('fill', 1, { may: ['interact'] })] });
  expect(acting.status).toBe('proposed');
  expect(acting.readOnly).toBe(false);
  await t.service.stop(read.id);
});

test('edits are checked and run as edited; cancel runs nothing', async () => {
  const t = await setup();
  const proposed = await t.propose();
  await expect(t.service.run(proposed.id, { title: 'x', steps: [step('a', 9)] })).rejects.toThrow('tab 9 is not open');
  await settle();
  expect(t.steps.jobs).toEqual([]);
  await t.service.run(proposed.id, { title: 'Only one', steps: [step('b', 2, { goal: 'read the delivery time', may: ['interact'] })] });
  await settle();
  expect(t.steps.jobs.map((j) => [j.step.id, j.step.goal])).toEqual([['b', 'read the delivery time']]);
  expect(t.steps.jobs[0]!.grant.may).toEqual(new Set(['interact']));

  const other = await t.propose();
  const cancelled = await t.service.cancel(other.id);
  expect(cancelled.status).toBe('cancelled');
  await expect(t.service.run(other.id)).rejects.toThrow(/cannot run/);
  await settle();
  expect(t.steps.jobs.filter((j) => j.planId === other.id)).toEqual([]);
  expect((await t.service.stop(proposed.id)).status).toBe('stopped');
});

test('Stop aborts every running step at once and skips the rest; Stop of one step run from the chat stops the plan', async () => {
  const t = await setup();
  const proposed = await t.propose();
  await t.service.run(proposed.id);
  await settle();
  const signals = t.steps.jobs.map((j) => j.signal);
  const stopped = await t.service.stop(proposed.id);
  expect(signals.every((s) => s.aborted)).toBe(true);
  expect(stopped.status).toBe('stopped');
  expect(states(stopped)).toEqual({ a: 'failed', b: 'failed', c: 'skipped', sum: 'skipped' });

  const again = await t.propose();
  await t.service.run(again.id);
  await settle();
  const [first, second] = t.steps.jobs.filter((j) => j.planId === again.id);
  // The step's own run was stopped (not by the plan): its outcome says stopped, its signal is not aborted.
  t.steps.end(first!.step.id, { ok: false, reason: say('planStepStoppedRunning'), stopped: true });
  await settle();
  expect(second!.signal.aborted).toBe(true);
  expect((await t.store.get(again.id))?.status).toBe('stopped');
});

test('a failed step is retried with the steps skipped because of it; finished steps are not run again', async () => {
  const t = await setup({ concurrency: 3 });
  const plan: Plan = { title: 'Chain', steps: [step('a', 1), step('b', 2, { dependsOn: ['a'] }), step('c', 3)] };
  const proposed = await t.propose(plan);
  await t.service.run(proposed.id);
  await settle();
  t.steps.end('a', { ok: false, reason: say('planTabGone') });
  t.steps.end('c', { ok: true, fields: { price: 3 } });
  await settle();
  const failed = (await t.store.get(proposed.id))!;
  expect(failed.status).toBe('done');
  expect(states(failed)).toEqual({ a: 'failed', b: 'skipped', c: 'done' });
  expect(failed.steps.find((s) => s.id === 'b')?.reason).toContain('“a”');
  await expect(t.service.retryStep(proposed.id, 'c')).rejects.toThrow(/failed or was skipped/);

  await t.service.retryStep(proposed.id, 'a');
  await settle();
  expect(t.steps.running).toEqual(['a']);
  t.steps.end('a', { ok: true, fields: { price: 1 } });
  await settle();
  t.steps.end('b', { ok: true, fields: { price: 2 } });
  await settle();
  const retried = (await t.store.get(proposed.id))!;
  expect(states(retried)).toEqual({ a: 'done', b: 'done', c: 'done' });
  expect(retried.steps.find((s) => s.id === 'a')?.attempts).toBe(2);
  expect(t.steps.jobs.map((j) => j.step.id)).toEqual(['a', 'c', 'a', 'b']);
});

test('the model-call budget stops the running steps and ends the plan with the reason', async () => {
  const t = await setup({}, { budget: { steps: 10, modelCalls: 3, wallClockMs: 60_000 } });
  const proposed = await t.propose();
  await t.service.run(proposed.id);
  await settle();
  const job = t.steps.jobs[0]!;
  for (let i = 0; i < 4; i++) job.modelCall();
  await settle();
  const ended = (await t.store.get(proposed.id))!;
  expect(ended.status).toBe('failed');
  expect(states(ended)).toEqual({ a: 'failed', b: 'failed', c: 'skipped', sum: 'skipped' });
  expect(ended.steps.every((s) => s.reasonText?.key === 'planBudgetCalls')).toBe(true);
});

test('a reload mid-plan: recovery marks it interrupted; resume keeps finished steps and fails a step whose tab is gone', async () => {
  const t = await setup({ concurrency: 1 });
  const proposed = await t.propose();
  await t.service.run(proposed.id);
  await settle();
  t.steps.end('a', { ok: true, fields: { price: 10 } });
  await settle();
  expect(t.steps.running).toEqual(['b']);
  t.steps.jobs.at(-1)!.progress({ action: 'Reading the page' });
  await settle();

  // The extension reloads: a new service over the same storage, the old one's work gone.
  const after = t.make();
  const [cut] = await after.recoverInterrupted();
  expect(cut?.id).toBe(proposed.id);
  const stored = (await t.store.get(proposed.id))!;
  expect(stored.status).toBe('interrupted');
  expect(states(stored)).toEqual({ a: 'done', b: 'waiting', c: 'waiting', sum: 'waiting' });
  expect(stored.steps.find((s) => s.id === 'b')?.action).toBeUndefined();
  expect(stored.steps.find((s) => s.id === 'a')?.fields).toEqual({ price: 10 });

  t.setOpen(tabs.filter((tab) => tab.id !== 3));
  const before = t.steps.jobs.length;
  const resumed = await after.resume(proposed.id);
  expect(resumed.status).toBe('running');
  await settle();
  expect(states((await t.store.get(proposed.id))!)).toMatchObject({ a: 'done', b: 'running', c: 'failed' });
  t.steps.end('b', { ok: true, fields: { price: 11 } });
  await settle();
  // c failed, so sum is skipped: nothing else runs, and a is not replayed.
  expect(t.steps.jobs.slice(before).map((j) => j.step.id)).toEqual(['b']);
  const ended = (await t.store.get(proposed.id))!;
  expect(states(ended)).toEqual({ a: 'done', b: 'done', c: 'failed', sum: 'skipped' });
  expect(ended.steps.find((s) => s.id === 'c')?.reason).toBe('Its tab was closed.');
  await expect(after.resume(proposed.id)).rejects.toThrow(/cannot run/);
  // The service from before the reload is let go.
  await t.service.stop(proposed.id);
});

test('tabs the plan opened stay open when the settings keep them', async () => {
  const t = await setup({ keepOpenedTabs: true });
  const proposed = await t.propose({ title: 'One', steps: [step('a', 1)] });
  await t.service.run(proposed.id);
  await settle();
  t.steps.jobs[0]!.opened(50);
  t.steps.end('a', { ok: true, fields: { price: 1 } });
  await settle();
  expect(t.closed).toEqual([]);
  expect((await t.store.get(proposed.id))?.openedTabs).toEqual([50]);
});

test('a running plan holds its chat: it waits for the turn that proposed it, a new turn conflicts, and Stop in the chat stops it', async () => {
  const runs = new RunRegistry();
  const t = await setup({ runReadOnlyWithoutAsking: true }, { runs });
  // The turn that proposes the plan still holds the conversation.
  const turn = runs.open({ origin: 'sidebar', conversationId: t.conversation.id });
  const proposed = await t.propose();
  expect(proposed.status).toBe('running');
  await settle();
  expect(t.steps.jobs).toEqual([]);
  runs.close(turn.id);
  await new Promise((r) => setTimeout(r, 150));
  expect(t.steps.running).toEqual(['a', 'b']);
  expect(() => runs.open({ origin: 'sidebar', conversationId: t.conversation.id })).toThrow(RunConflict);
  t.steps.end('a', { ok: true, fields: { price: 1 } });
  t.steps.end('b', { ok: true, fields: { price: 2 } });
  await settle();
  expect(t.steps.running).toEqual(['c']);

  // Stop in the chat stops the conversation's runs: the plan's own run among them.
  runs.stopConversation(t.conversation.id);
  await settle();
  const stopped = (await t.store.get(proposed.id))!;
  expect(stopped.status).toBe('stopped');
  expect(states(stopped)).toEqual({ a: 'done', b: 'done', c: 'failed', sum: 'skipped' });
  expect(runs.busy(t.conversation.id)).toBe(false);
});

test('a chat that stays busy fails the plan with the reason, running nothing', async () => {
  const runs = new RunRegistry();
  const t = await setup({}, { runs, holdWaitMs: 200 });
  runs.open({ origin: 'sidebar', conversationId: t.conversation.id });
  const proposed = await t.propose();
  await t.service.run(proposed.id);
  await new Promise((r) => setTimeout(r, 400));
  const failed = (await t.store.get(proposed.id))!;
  expect(failed.status).toBe('failed');
  expect(failed.steps.every((s) => s.reasonText?.key === 'planChatBusy')).toBe(true);
  expect(t.steps.jobs).toEqual([]);
});

test("time a step waits for the user (handed over) does not count against the plan's time; time after it does", async () => {
  let clock = 0;
  const t = await setup({}, { budget: { steps: 10, modelCalls: 10, wallClockMs: 1000 }, now: () => clock });
  const proposed = await t.propose();
  await t.service.run(proposed.id);
  await settle();
  const a = t.steps.jobs.find((j) => j.step.id === 'a')!;
  clock = 100;
  a.progress({ state: 'paused', reason: 'Log in, please.' });
  clock = 5000;
  t.steps.end('b', { ok: true, fields: { price: 2 } });
  await settle();
  expect(t.steps.running).toEqual(['a', 'c']);
  a.progress({ state: 'running' });
  clock = 5200;
  t.steps.end('c', { ok: true, fields: { price: 3 } });
  await settle();
  expect(states((await t.store.get(proposed.id))!)).toMatchObject({ a: 'running', c: 'done', sum: 'waiting' });
  clock = 6000;
  t.steps.end('a', { ok: true, fields: { price: 1 } });
  await settle();
  const ended = (await t.store.get(proposed.id))!;
  expect(ended.steps.find((s) => s.id === 'sum')).toMatchObject({ state: 'skipped', reasonText: { key: 'planBudgetTime' } });
});
