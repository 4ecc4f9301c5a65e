/**
 * The plan's scheduler, pure: from the plan, its steps' states, the concurrency limit and what the
 * plan has used so far, which steps start now, which can no longer run (a dependency failed or was
 * skipped, the plan was stopped or spent its budget), and whether the plan has ended. The plans
 * service calls it after every step transition and does what it says.
 */
import { say, type Localized } from '../../shared/i18n';
import type { Plan, PlanStatus, StepState, StepStatus } from '../../shared/plan';

/** What a whole plan may use. */
export interface PlanBudget {
  /** Step runs, retries included. */
  steps: number;
  /** Model calls of all its steps together. */
  modelCalls: number;
  /** From the start (or the last resume or retry) to the end, in milliseconds. */
  wallClockMs: number;
}

export const DEFAULT_PLAN_BUDGET: PlanBudget = { steps: 16, modelCalls: 60, wallClockMs: 10 * 60_000 };

/** What the plan has used since it (re)started. */
export interface PlanUsage {
  stepsStarted: number;
  modelCalls: number;
  startedAt: number;
}

export interface ScheduleInput {
  plan: Plan;
  steps: readonly Pick<StepStatus, 'id' | 'state'>[];
  concurrency: number;
  budget: PlanBudget;
  usage: PlanUsage;
  now: number;
  /** The user stopped the plan: nothing more starts. */
  stopped?: boolean;
}

export interface Schedule {
  /** Steps to start now, in plan order. */
  start: string[];
  /** Waiting steps that will not run, each with why. */
  skip: { id: string; reason: Localized }[];
  /** The budget is spent: with `abort`, what still runs is stopped too (model calls, time). */
  overBudget?: { reason: Localized; abort: boolean };
  /** Every step has settled: how the plan ended. */
  finished?: Extract<PlanStatus, 'done' | 'failed' | 'stopped'>;
}

/** A step is in flight while it runs, waits for a permission answer or is handed over to the user. */
export const ACTIVE_STATES: ReadonlySet<StepState> = new Set(['running', 'asking', 'paused']);
const ENDED_BADLY: ReadonlySet<StepState> = new Set(['failed', 'skipped']);

export function schedule(input: ScheduleInput): Schedule {
  const { plan, budget, usage } = input;
  const state = new Map(input.steps.map((s) => [s.id, s.state]));
  const skip: Schedule['skip'] = [];
  const skipAll = (reason: Localized) => {
    for (const step of plan.steps) {
      if (state.get(step.id) !== 'waiting') continue;
      state.set(step.id, 'skipped');
      skip.push({ id: step.id, reason });
    }
  };
  const active = () => plan.steps.filter((s) => ACTIVE_STATES.has(state.get(s.id) ?? 'waiting')).length;

  let overBudget = input.stopped ? undefined : spent(budget, usage, input.now);
  if (input.stopped) skipAll(say('planStepStopped'));
  else if (overBudget) skipAll(overBudget.reason);
  else skipBlocked(plan, state, skip);

  const start: string[] = [];
  if (!input.stopped && !overBudget) {
    const slots = Math.max(0, input.concurrency - active());
    const left = Math.max(0, budget.steps - usage.stepsStarted);
    const ready = plan.steps.filter((s) => state.get(s.id) === 'waiting' && s.dependsOn.every((d) => state.get(d) === 'done'));
    start.push(...ready.slice(0, Math.min(slots, left)).map((s) => s.id));
    // No step can start ever again: what waits is skipped, naming the budget.
    if (left === 0 && ready.length) {
      overBudget = { reason: say('planBudgetSteps', budget.steps), abort: false };
      skipAll(overBudget.reason);
    }
  }
  for (const id of start) state.set(id, 'running');

  const settled = plan.steps.every((s) => !ACTIVE_STATES.has(state.get(s.id) ?? 'waiting') && state.get(s.id) !== 'waiting');
  const finished = settled ? (input.stopped ? 'stopped' : plan.steps.some((s) => state.get(s.id) === 'done') ? 'done' : 'failed') : undefined;
  return { start, skip, ...(overBudget ? { overBudget } : {}), ...(finished ? { finished } : {}) };
}

/** The model calls or the time are spent: the plan ends, stopping what runs. */
function spent(budget: PlanBudget, usage: PlanUsage, now: number): Schedule['overBudget'] {
  if (usage.modelCalls > budget.modelCalls) return { reason: say('planBudgetCalls', budget.modelCalls), abort: true };
  if (now - usage.startedAt > budget.wallClockMs) return { reason: say('planBudgetTime', Math.round(budget.wallClockMs / 60_000)), abort: true };
  return undefined;
}

/**
 * Waiting steps with a dependency that failed or was skipped (or that the plan does not have) are
 * skipped, naming it; repeated until nothing changes, so a skip reaches the dependents' dependents
 * whatever order the plan lists them in.
 */
function skipBlocked(plan: Plan, state: Map<string, StepState>, skip: Schedule['skip']): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const step of plan.steps) {
      if (state.get(step.id) !== 'waiting') continue;
      const blocker = step.dependsOn.find((d) => !state.has(d) || ENDED_BADLY.has(state.get(d)!));
      if (blocker === undefined) continue;
      state.set(step.id, 'skipped');
      skip.push({ id: step.id, reason: say('planSkippedAfter', blocker) });
      changed = true;
    }
  }
}

/**
 * The steps to set waiting again when `stepId` is retried: the step itself and every skipped step
 * that depends on it, directly or through other skipped steps.
 */
export function retrying(plan: Plan, steps: readonly Pick<StepStatus, 'id' | 'state'>[], stepId: string): string[] {
  const state = new Map(steps.map((s) => [s.id, s.state]));
  const again = new Set([stepId]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const step of plan.steps) {
      if (again.has(step.id) || state.get(step.id) !== 'skipped') continue;
      if (step.dependsOn.some((d) => again.has(d))) {
        again.add(step.id);
        changed = true;
      }
    }
  }
  return plan.steps.filter((s) => again.has(s.id)).map((s) => s.id);
}
