/**
 * The plan's scheduler: which steps start (dependencies done, plan order, never more than the
 * limit at once), skips with the failed dependency named, retry, Stop, and the plan's budgets.
 */
import { english } from '../../../src/background/english';
import { DEFAULT_PLAN_BUDGET, retrying, schedule, type ScheduleInput } from '../../../src/background/plans/scheduler';
import type { Plan, StepState } from '../../../src/shared/plan';

const step = (id: string, dependsOn: string[] = []) => ({ id, goal: `do ${id}`, tab: { kind: 'tab' as const, tabId: 1 }, dependsOn, fields: [], may: [] });
const plan = (...steps: ReturnType<typeof step>[]): Plan => ({ title: 'test', steps });
const states = (p: Plan, given: Record<string, StepState> = {}) => p.steps.map((s) => ({ id: s.id, state: given[s.id] ?? ('waiting' as StepState) }));
const input = (p: Plan, given: Record<string, StepState> = {}, extra: Partial<ScheduleInput> = {}): ScheduleInput => ({
  plan: p,
  steps: states(p, given),
  concurrency: 3,
  budget: DEFAULT_PLAN_BUDGET,
  usage: { stepsStarted: 0, modelCalls: 0, startedAt: 0 },
  now: 1000,
  ...extra,
});

/** Runs a plan to the end, each started step ending as `outcome(id)`, counting how many ran at once. */
function simulate(p: Plan, concurrency: number, outcome: (id: string) => StepState = () => 'done') {
  const state: Record<string, StepState> = {};
  const order: string[] = [];
  let most = 0;
  let started = 0;
  for (let round = 0; round < 50; round++) {
    const next = schedule(input(p, state, { concurrency, usage: { stepsStarted: started, modelCalls: 0, startedAt: 0 } }));
    for (const s of next.skip) state[s.id] = 'skipped';
    for (const id of next.start) state[id] = 'running';
    started += next.start.length;
    const running = Object.entries(state).filter(([, s]) => s === 'running').map(([id]) => id);
    most = Math.max(most, running.length);
    if (next.finished) return { state, order, most, finished: next.finished };
    // The oldest running step ends first.
    const first = running[0];
    if (first === undefined) throw new Error('nothing runs and the plan has not finished');
    state[first] = outcome(first);
    order.push(first);
  }
  throw new Error('the plan never finished');
}

test('independent steps start together in plan order, up to the limit; a dependent waits for its dependencies', () => {
  const p = plan(step('a'), step('b'), step('c'), step('d'), step('sum', ['a', 'b', 'c', 'd']));
  expect(schedule(input(p)).start).toEqual(['a', 'b', 'c']);
  expect(schedule(input(p, { a: 'running', b: 'done' })).start).toEqual(['c', 'd']);
  expect(schedule(input(p, { a: 'done', b: 'done', c: 'done', d: 'running' })).start).toEqual([]);
  expect(schedule(input(p, { a: 'done', b: 'done', c: 'done', d: 'done' })).start).toEqual(['sum']);
  // Asking and paused steps hold their slot.
  expect(schedule(input(p, { a: 'asking', b: 'paused' })).start).toEqual(['c']);
});

test('never more than N steps at once, whatever the plan; every step runs after its dependencies', () => {
  const p = plan(step('a'), step('b'), step('c'), step('d', ['a']), step('e', ['a', 'b']), step('f'), step('g', ['d', 'e']), step('h'));
  for (const limit of [1, 2, 3, 5]) {
    const run = simulate(p, limit);
    expect(run.most).toBeLessThanOrEqual(limit);
    expect(run.most).toBe(limit);
    expect(run.finished).toBe('done');
    expect(run.order.sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  }
  const one = simulate(p, 1);
  expect(one.order).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  const byOrder = simulate(p, 3).order;
  for (const s of p.steps) for (const d of s.dependsOn) expect(byOrder.indexOf(d)).toBeLessThan(byOrder.indexOf(s.id));
});

test("a failed step's dependents, and theirs, are skipped naming it; the others go on", () => {
  const p = plan(step('a'), step('b', ['a']), step('c', ['b']), step('d'));
  const run = simulate(p, 3, (id) => (id === 'a' ? 'failed' : 'done'));
  expect(run.state).toEqual({ a: 'failed', b: 'skipped', c: 'skipped', d: 'done' });
  expect(run.finished).toBe('done');
  const next = schedule(input(p, { a: 'failed', d: 'done' }));
  expect(next.skip.map((s) => [s.id, english(s.reason)])).toEqual([
    ['b', expect.stringContaining('“a”')],
    ['c', expect.stringContaining('“b”')],
  ]);
  // Dependents listed before their dependencies are reached too.
  const backwards = plan(step('c', ['b']), step('b', ['a']), step('a'));
  expect(schedule(input(backwards, { a: 'failed' })).skip.map((s) => s.id).sort()).toEqual(['b', 'c']);
  expect(simulate(plan(step('a'), step('b', ['a'])), 2, () => 'failed').finished).toBe('failed');
});

test('a retried step and the steps skipped because of it wait again; the plan goes on from there', () => {
  const p = plan(step('a'), step('b', ['a']), step('c', ['b']), step('d'), step('e', ['d']));
  const after = { a: 'failed', b: 'skipped', c: 'skipped', d: 'done', e: 'skipped' } as Record<string, StepState>;
  expect(retrying(p, states(p, after), 'a')).toEqual(['a', 'b', 'c']);
  const again = { ...after, a: 'waiting', b: 'waiting', c: 'waiting' } as Record<string, StepState>;
  const next = schedule(input(p, again));
  expect(next.start).toEqual(['a']);
  expect(next.skip).toEqual([]);
  expect(next.finished).toBeUndefined();
});

test('Stop starts nothing, skips what waits, and ends the plan as stopped once nothing runs', () => {
  const p = plan(step('a'), step('b'), step('c', ['a']));
  const stopping = schedule(input(p, { a: 'running' }, { stopped: true }));
  expect(stopping.start).toEqual([]);
  expect(stopping.skip.map((s) => s.id)).toEqual(['b', 'c']);
  expect(stopping.finished).toBeUndefined();
  const stopped = schedule(input(p, { a: 'failed', b: 'skipped', c: 'skipped' }, { stopped: true }));
  expect(stopped.finished).toBe('stopped');
});

test('the budgets: step runs, model calls and wall time each end the plan with a reason', () => {
  const p = plan(step('a'), step('b'), step('c'));
  const budget = { steps: 2, modelCalls: 10, wallClockMs: 60_000 };
  // Two step runs allowed: two start, the third is skipped when nothing else can start it.
  expect(schedule(input(p, {}, { budget })).start).toEqual(['a', 'b']);
  const stepsSpent = schedule(input(p, { a: 'done', b: 'done' }, { budget, usage: { stepsStarted: 2, modelCalls: 4, startedAt: 0 } }));
  expect(stepsSpent.start).toEqual([]);
  expect(stepsSpent.skip).toEqual([{ id: 'c', reason: expect.objectContaining({ key: 'planBudgetSteps' }) }]);
  expect(stepsSpent.overBudget?.abort).toBe(false);
  expect(stepsSpent.finished).toBe('done');

  const calls = schedule(input(p, { a: 'running' }, { budget, usage: { stepsStarted: 1, modelCalls: 11, startedAt: 0 } }));
  expect(calls.overBudget).toEqual({ reason: expect.objectContaining({ key: 'planBudgetCalls' }), abort: true });
  expect(calls.start).toEqual([]);
  expect(calls.skip.map((s) => s.id)).toEqual(['b', 'c']);
  expect(english(calls.overBudget!.reason)).toContain('10');
  expect(schedule(input(p, {}, { budget, usage: { stepsStarted: 0, modelCalls: 10, startedAt: 0 } })).start).toEqual(['a', 'b']);

  const late = schedule(input(p, { a: 'paused' }, { budget, now: 60_001 }));
  expect(late.overBudget?.reason.key).toBe('planBudgetTime');
  expect(late.start).toEqual([]);
  expect(schedule(input(p, { a: 'failed', b: 'skipped', c: 'skipped' }, { budget, now: 60_001 })).finished).toBe('failed');
});
