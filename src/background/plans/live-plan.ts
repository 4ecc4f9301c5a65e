/**
 * One plan while it runs: its record, what it has used, the abort controller of each running
 * step and the run that holds its conversation. After every step transition it asks the
 * scheduler what to do and does it: skip, stop for the budget, start steps (each through the step
 * runner), or end. Waiting for the user (a step handed over) stops the plan's clock.
 */
import { say, type Localized } from '../../shared/i18n';
import type { PlanRecord, StepStatus } from '../../shared/plan';
import { RunConflict, type Run, type RunRegistry } from '../runs/registry';
import { schedule, type PlanBudget, type PlanUsage } from './scheduler';
import type { StepJob, StepOutcome, StepProgress, StepRunner } from './step-job';
import { reasonOf, resetStep, statusOf } from './step-status';

export type PlanEnd = 'done' | 'failed' | 'stopped';

export interface LivePlanDeps {
  runStep: StepRunner;
  budget: PlanBudget;
  concurrency: number;
  /** The sites the approved plan lists: its steps' consent covers these. */
  sites: ReadonlySet<string>;
  /** Where the plan holds its conversation; without it, it holds nothing. */
  runs?: RunRegistry;
  holdWaitMs: number;
  now: () => number;
  /** Stores the record as it is now and tells the sidebars. */
  save(record: PlanRecord): Promise<void>;
  /** The plan ended: the service composes the answer and closes its tabs. */
  finished(status: PlanEnd): Promise<void>;
}

export class LivePlan {
  readonly ended: Promise<void>;
  private end!: () => void;
  private readonly usage: PlanUsage;
  private stopped = false;
  private over?: Localized;
  private done = false;
  private readonly running = new Map<string, AbortController>();
  private holder?: Run;
  /** Steps handed over to the user now, and since when one has been. */
  private readonly paused = new Set<string>();
  private pausedAt?: number;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    readonly record: PlanRecord,
    private readonly deps: LivePlanDeps,
  ) {
    this.usage = { stepsStarted: 0, modelCalls: 0, startedAt: deps.now() };
    this.ended = new Promise<void>((resolve) => (this.end = resolve));
  }

  async start(): Promise<void> {
    this.record.status = 'running';
    this.armTimer();
    await this.deps.save(this.record);
    void this.hold().then((held) => {
      // The chat stayed busy: nothing runs, and each step says why.
      if (!held) for (const status of this.record.steps) if (status.state === 'waiting') Object.assign(status, { state: 'failed', endedAt: this.deps.now() }, reasonOf(say('planChatBusy')));
      this.pump();
    });
  }

  /** Stop: every running step (its model call, its tool) is aborted at once; nothing more starts. */
  stop(): void {
    this.stopped = true;
    for (const controller of this.running.values()) controller.abort();
    this.pump();
  }

  /** Does what the scheduler says now: skips, stops for the budget, starts, or ends the plan. */
  pump(): void {
    if (this.done) return;
    const { record, deps } = this;
    const next = schedule({ plan: record.plan, steps: record.steps, concurrency: deps.concurrency, budget: deps.budget, usage: this.usageNow(), now: deps.now(), stopped: this.stopped });
    for (const { id, reason } of next.skip) Object.assign(statusOf(record, id), { state: 'skipped', endedAt: deps.now() }, reasonOf(reason));
    if (next.overBudget?.abort && !this.over) {
      this.over = next.overBudget.reason;
      for (const controller of this.running.values()) controller.abort();
    }
    for (const id of next.start) this.startStep(id);
    if (next.finished) void this.finish(next.finished);
    else void deps.save(record);
  }

  /** Opens the plan's own run in its conversation, waiting a little for a turn still there to end. */
  private async hold(): Promise<boolean> {
    const runs = this.deps.runs;
    if (!runs) return true;
    const deadline = this.deps.now() + this.deps.holdWaitMs;
    while (!this.stopped) {
      try {
        this.holder = runs.open({ origin: 'workflow_step', conversationId: this.record.conversationId, group: this.record.id });
        // Stop in the chat stops the conversation's runs, this one among them: the whole plan stops.
        this.holder.signal.addEventListener('abort', () => this.stop(), { once: true });
        return true;
      } catch (error) {
        if (!(error instanceof RunConflict) || this.deps.now() >= deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return true;
  }

  private startStep(id: string): void {
    const { record, deps } = this;
    const step = record.plan.steps.find((s) => s.id === id)!;
    const status = statusOf(record, id);
    const previousTabId = status.tabId;
    resetStep(record, id);
    Object.assign(status, { state: 'running', startedAt: deps.now(), attempts: status.attempts + 1 });
    this.usage.stepsStarted++;
    const controller = new AbortController();
    this.running.set(id, controller);
    const job: StepJob = {
      planId: record.id,
      planTitle: record.plan.title,
      conversationId: record.conversationId,
      step,
      inputs: Object.fromEntries(step.dependsOn.map((d) => [d, statusOf(record, d).fields ?? {}])),
      inputSites: Object.fromEntries(step.dependsOn.flatMap((d) => (statusOf(record, d).site ? [[d, statusOf(record, d).site!]] : []))),
      ...(previousTabId !== undefined ? { previousTabId } : {}),
      openedTabs: record.openedTabs,
      grant: { sites: deps.sites, may: new Set(step.may) },
      signal: controller.signal,
      progress: (patch: StepProgress) => {
        if (this.running.get(id) !== controller) return;
        Object.assign(status, patch);
        this.trackPause(id, status.state);
        void deps.save(record);
      },
      modelCall: () => {
        this.usage.modelCalls++;
        if (this.usage.modelCalls > deps.budget.modelCalls) this.pump();
      },
      opened: (tabId: number) => {
        if (!record.openedTabs.includes(tabId)) record.openedTabs.push(tabId);
      },
    };
    void deps
      .runStep(job)
      .catch((error: unknown): StepOutcome => ({ ok: false, reason: say('planStepError', error instanceof Error ? error.message : String(error)) }))
      .then((outcome) => this.settle(id, controller, outcome));
  }

  private settle(id: string, controller: AbortController, outcome: StepOutcome): void {
    if (this.running.get(id) !== controller) return;
    this.running.delete(id);
    this.trackPause(id, 'done');
    const status = statusOf(this.record, id);
    delete status.action;
    delete status.actionText;
    status.endedAt = this.deps.now();
    if (outcome.ok) {
      Object.assign(status, { state: 'done' }, outcome.fields ? { fields: outcome.fields } : {}, outcome.summary ? { summary: outcome.summary.slice(0, 1000) } : {});
      delete status.reason;
      delete status.reasonText;
    } else {
      // Stopped from outside the plan (Stop on the step's own run): the whole plan stops.
      const fromOutside = outcome.stopped && !controller.signal.aborted;
      const reason = this.over ?? (this.stopped || fromOutside ? say('planStepStoppedRunning') : outcome.reason);
      Object.assign(status, { state: 'failed' }, reasonOf(reason));
      if (fromOutside) return this.stop();
    }
    this.pump();
  }

  private async finish(status: PlanEnd): Promise<void> {
    this.done = true;
    clearTimeout(this.timer);
    if (this.holder) this.deps.runs?.close(this.holder.id);
    this.record.status = status;
    try {
      await this.deps.finished(status);
    } finally {
      this.end();
    }
  }

  /** What the plan used, its time without the time it has waited for the user (a login, a captcha). */
  private usageNow(): PlanUsage {
    const waiting = this.pausedAt !== undefined ? this.deps.now() - this.pausedAt : 0;
    return { ...this.usage, startedAt: this.usage.startedAt + waiting };
  }

  /** A step handed over to the user, or back: while any is, the plan's clock stands still. */
  private trackPause(id: string, state: StepStatus['state']): void {
    if (state === 'paused' && !this.paused.has(id)) {
      this.paused.add(id);
      this.pausedAt ??= this.deps.now();
    } else if (state !== 'paused' && this.paused.delete(id) && !this.paused.size && this.pausedAt !== undefined) {
      this.usage.startedAt += this.deps.now() - this.pausedAt;
      delete this.pausedAt;
      this.armTimer();
    }
  }

  /** Wakes the scheduler when the plan's time runs out (paused time moves it later). */
  private armTimer(): void {
    clearTimeout(this.timer);
    const left = this.usage.startedAt + this.deps.budget.wallClockMs - this.deps.now();
    this.timer = setTimeout(() => this.pump(), Math.max(0, left) + 1);
  }
}
