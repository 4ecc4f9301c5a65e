/**
 * The plans service: keeps each plan's record (proposed, approved with the user's edits, running,
 * ended), runs its steps through the scheduler and the step runner, tells every sidebar about each
 * change, writes the answer into the conversation at the end and closes the tabs the plan opened.
 * It sits beside the agent: each step is a run of the ordinary agent loop, scoped to its tab.
 */
import { newId, type AssistantMessage, type Conversation } from '../../shared/conversation';
import { say, type Localized } from '../../shared/i18n';
import { PlanSchema, type Plan, type PlanRecord, type StepStatus } from '../../shared/plan';
import type { PlanSettings } from '../../shared/plan-settings';
import type { BgToUiEvent, OpenTab } from '../../shared/protocol';
import { english } from '../english';
import { LlmError } from '../llm/errors';
import { sitesOf } from './check';
import type { PlanControl, PlanStarter } from './control';
import { RunConflict, type Run, type RunRegistry } from '../runs/registry';
import type { PlanStore } from './plan-store';
import { ACTIVE_STATES, DEFAULT_PLAN_BUDGET, retrying, schedule, type PlanBudget, type PlanUsage } from './scheduler';
import type { StepOutcome, StepProgress, StepRunner } from './step-job';

/** The planner's checks and the answer's composer, passed in (they live beside the planner). */
export interface PlanCore {
  checkPlan(plan: Plan, tabs: readonly { id: number }[]): string[];
  isReadOnly(plan: Plan): boolean;
  composeAnswer(record: PlanRecord, tabs: ReadonlyMap<number, { title: string; url: string }>): string;
}

/** The browser's tabs, as the service needs them. */
export interface PlanTabs {
  list(): Promise<OpenTab[]>;
  /** Closes tabs the plan opened; a tab already gone is no error. */
  close(tabIds: readonly number[]): Promise<void>;
}

export interface PlanServiceDeps {
  store: PlanStore;
  conversations: { get(id: string): Promise<Conversation | undefined>; save(conversation: Conversation): Promise<void> };
  emit(event: BgToUiEvent): void;
  settings(): Promise<PlanSettings>;
  runStep: StepRunner;
  core: PlanCore;
  tabs: PlanTabs;
  budget?: PlanBudget;
  /**
   * Where the plan holds its conversation while it runs, beside its steps' runs (one group): a
   * normal turn there conflicts with it, and Stop in the chat stops it, even between steps.
   */
  runs?: RunRegistry;
  /** How long a starting plan waits for its conversation to be free (the turn that proposed it ending). */
  holdWaitMs?: number;
  now?: () => number;
  newId?: () => string;
}

/** A plan being run: its record, what it used, and how to stop each running step. */
interface Live {
  record: PlanRecord;
  usage: PlanUsage;
  concurrency: number;
  stopped: boolean;
  /** Set when the budget ended the plan: the reason running steps were stopped for. */
  overBudget?: Localized;
  sites: Set<string>;
  running: Map<string, AbortController>;
  /** The plan's own run, holding its conversation. */
  holder?: Run;
  /** Steps handed over to the user now, and since when one has been: waiting for the user is not counted as the plan's time. */
  paused: Set<string>;
  pausedAt?: number;
  timer?: ReturnType<typeof setTimeout>;
  ended: Promise<void>;
  end(): void;
}

/** How long Stop waits for the steps to wind down before answering with the record as it is. */
const STOP_WAIT_MS = 3000;

export class PlanService implements PlanControl, PlanStarter {
  private readonly live = new Map<string, Live>();
  private readonly now: () => number;
  private readonly budget: PlanBudget;

  constructor(private readonly deps: PlanServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.budget = deps.budget ?? DEFAULT_PLAN_BUDGET;
  }

  async propose(input: Parameters<PlanStarter['propose']>[0]): Promise<PlanRecord> {
    const at = this.now();
    const record: PlanRecord = {
      id: this.deps.newId?.() ?? newId('plan'),
      conversationId: input.conversationId,
      messageId: input.messageId,
      request: input.request,
      plan: input.plan,
      status: 'proposed',
      steps: freshSteps(input.plan),
      readOnly: this.deps.core.isReadOnly(input.plan),
      openedTabs: [],
      createdAt: at,
      updatedAt: at,
    };
    await this.deps.store.save(record);
    this.publish(record);
    const settings = await this.deps.settings();
    return record.readOnly && settings.runReadOnlyWithoutAsking ? this.run(record.id) : record;
  }

  list(conversationId: string): Promise<PlanRecord[]> {
    return this.deps.store.list(conversationId);
  }

  async run(planId: string, edited?: Plan): Promise<PlanRecord> {
    const record = await this.idle(planId);
    if (record.status === 'interrupted' && !edited) return this.resume(planId);
    if (record.status !== 'proposed' && record.status !== 'interrupted') throw refusal(say('planCannotRun', record.status));
    const tabs = await this.deps.tabs.list();
    if (edited) {
      const plan = PlanSchema.parse(edited);
      const problems = this.deps.core.checkPlan(plan, tabs);
      if (problems.length) throw refusal(say('planEditInvalid', problems.join(' ')));
      record.plan = plan;
      record.steps = freshSteps(plan);
      record.readOnly = this.deps.core.isReadOnly(plan);
    }
    return this.begin(record, tabs);
  }

  async cancel(planId: string): Promise<PlanRecord> {
    if (this.live.has(planId)) return this.stop(planId);
    const record = await this.found(planId);
    if (record.status !== 'proposed' && record.status !== 'interrupted') return record;
    record.status = 'cancelled';
    await this.closeOpened(record);
    await this.save(record);
    return record;
  }

  async stop(planId: string): Promise<PlanRecord> {
    const live = this.live.get(planId);
    if (!live) return this.found(planId);
    live.stopped = true;
    for (const controller of live.running.values()) controller.abort();
    this.pump(live);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([live.ended, new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    return live.record;
  }

  async retryStep(planId: string, stepId: string): Promise<PlanRecord> {
    const live = this.live.get(planId);
    const record = live?.record ?? (await this.found(planId));
    const status = record.steps.find((s) => s.id === stepId);
    if (!status || (status.state !== 'failed' && status.state !== 'skipped')) throw refusal(say('planCannotRetry'));
    if (!live && !['done', 'failed', 'stopped'].includes(record.status)) throw refusal(say('planCannotRun', record.status));
    for (const id of retrying(record.plan, record.steps, stepId)) resetStep(record, id);
    if (live) {
      this.pump(live);
      return record;
    }
    return this.begin(record, await this.deps.tabs.list());
  }

  /**
   * Goes on with a plan a reload cut off: steps already done keep their fields and are not run
   * again; a step whose tab was closed meanwhile fails, saying so (a step on an address opens it again).
   */
  async resume(planId: string): Promise<PlanRecord> {
    const record = await this.idle(planId);
    if (record.status !== 'interrupted') throw refusal(say('planCannotRun', record.status));
    const tabs = await this.deps.tabs.list();
    const open = new Set(tabs.map((t) => t.id));
    record.openedTabs = record.openedTabs.filter((id) => open.has(id));
    for (const step of record.plan.steps) {
      const status = record.steps.find((s) => s.id === step.id);
      if (status?.state === 'waiting' && step.tab.kind === 'tab' && !open.has(step.tab.tabId)) {
        Object.assign(status, { state: 'failed', endedAt: this.now() }, reasonOf(say('planTabGone')));
      }
    }
    return this.begin(record, tabs);
  }

  /**
   * Run once at start-up, before any plan can run: a plan stored as running was cut off by the
   * reload, so it becomes interrupted (with Resume) and its steps in flight wait again.
   */
  async recoverInterrupted(): Promise<PlanRecord[]> {
    const cut = await this.deps.store.running();
    for (const record of cut) {
      record.status = 'interrupted';
      for (const status of record.steps) {
        if (!ACTIVE_STATES.has(status.state)) continue;
        status.state = 'waiting';
        delete status.action;
        delete status.actionText;
        delete status.reason;
        delete status.reasonText;
      }
      await this.save(record);
    }
    return cut;
  }

  private async begin(record: PlanRecord, tabs: readonly OpenTab[]): Promise<PlanRecord> {
    const settings = await this.deps.settings();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const live: Live = { record, usage: { stepsStarted: 0, modelCalls: 0, startedAt: this.now() }, concurrency: settings.concurrency, stopped: false, sites: planSites(record.plan, tabs), running: new Map(), paused: new Set(), ended, end };
    this.live.set(record.id, live);
    record.status = 'running';
    this.armTimer(live);
    await this.save(record);
    void this.hold(live).then((held) => {
      // The chat stayed busy: nothing runs, and each step says why.
      if (!held) for (const status of record.steps) if (status.state === 'waiting') Object.assign(status, { state: 'failed', endedAt: this.now() }, reasonOf(say('planChatBusy')));
      this.pump(live);
    });
    return record;
  }

  /** Opens the plan's own run in its conversation, waiting a little for a turn still there to end. */
  private async hold(live: Live): Promise<boolean> {
    const runs = this.deps.runs;
    if (!runs) return true;
    const { record } = live;
    const deadline = this.now() + (this.deps.holdWaitMs ?? 10_000);
    while (!live.stopped) {
      try {
        live.holder = runs.open({ origin: 'workflow_step', conversationId: record.conversationId, group: record.id });
        live.holder.signal.addEventListener('abort', () => void this.stop(record.id), { once: true });
        return true;
      } catch (error) {
        if (!(error instanceof RunConflict) || this.now() >= deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return true;
  }

  /** What the plan used, its time without the time it has waited for the user (a login, a captcha). */
  private usageNow(live: Live): PlanUsage {
    const waiting = live.pausedAt !== undefined ? this.now() - live.pausedAt : 0;
    return { ...live.usage, startedAt: live.usage.startedAt + waiting };
  }

  /** A step handed over to the user, or back: while any is, the plan's clock stands still. */
  private trackPause(live: Live, id: string, state: StepStatus['state']): void {
    if (state === 'paused' && !live.paused.has(id)) {
      live.paused.add(id);
      live.pausedAt ??= this.now();
    } else if (state !== 'paused' && live.paused.delete(id) && !live.paused.size && live.pausedAt !== undefined) {
      live.usage.startedAt += this.now() - live.pausedAt;
      delete live.pausedAt;
      this.armTimer(live);
    }
  }

  /** Wakes the scheduler when the plan's time runs out (paused time moves it later). */
  private armTimer(live: Live): void {
    clearTimeout(live.timer);
    const left = live.usage.startedAt + this.budget.wallClockMs - this.now();
    live.timer = setTimeout(() => this.pump(live), Math.max(0, left) + 1);
  }

  /** Does what the scheduler says now: skips, stops for the budget, starts, or ends the plan. */
  private pump(live: Live): void {
    const { record } = live;
    if (this.live.get(record.id) !== live) return;
    const next = schedule({ plan: record.plan, steps: record.steps, concurrency: live.concurrency, budget: this.budget, usage: this.usageNow(live), now: this.now(), stopped: live.stopped });
    for (const { id, reason } of next.skip) Object.assign(statusOf(record, id), { state: 'skipped', endedAt: this.now() }, reasonOf(reason));
    if (next.overBudget?.abort && !live.overBudget) {
      live.overBudget = next.overBudget.reason;
      for (const controller of live.running.values()) controller.abort();
    }
    for (const id of next.start) this.startStep(live, id);
    if (next.finished) void this.finish(live, next.finished);
    else void this.save(record);
  }

  private startStep(live: Live, id: string): void {
    const { record } = live;
    const step = record.plan.steps.find((s) => s.id === id)!;
    const status = statusOf(record, id);
    const previousTabId = status.tabId;
    resetStep(record, id);
    Object.assign(status, { state: 'running', startedAt: this.now(), attempts: status.attempts + 1 });
    live.usage.stepsStarted++;
    const controller = new AbortController();
    live.running.set(id, controller);
    const inputs = Object.fromEntries(step.dependsOn.map((d) => [d, statusOf(record, d).fields ?? {}]));
    const job = {
      planId: record.id,
      planTitle: record.plan.title,
      conversationId: record.conversationId,
      step,
      inputs,
      ...(previousTabId !== undefined ? { previousTabId } : {}),
      openedTabs: record.openedTabs,
      grant: { sites: live.sites, may: new Set(step.may) },
      signal: controller.signal,
      progress: (patch: StepProgress) => {
        if (live.running.get(id) !== controller) return;
        Object.assign(status, patch);
        this.trackPause(live, id, status.state);
        void this.save(record);
      },
      modelCall: () => {
        live.usage.modelCalls++;
        if (live.usage.modelCalls > this.budget.modelCalls) this.pump(live);
      },
      opened: (tabId: number) => {
        if (!record.openedTabs.includes(tabId)) record.openedTabs.push(tabId);
      },
    };
    void this.deps
      .runStep(job)
      .catch((error: unknown): StepOutcome => ({ ok: false, reason: say('planStepError', error instanceof Error ? error.message : String(error)) }))
      .then((outcome) => this.settle(live, id, controller, outcome));
  }

  private settle(live: Live, id: string, controller: AbortController, outcome: StepOutcome): void {
    if (live.running.get(id) !== controller) return;
    live.running.delete(id);
    this.trackPause(live, id, 'done');
    const status = statusOf(live.record, id);
    delete status.action;
    delete status.actionText;
    status.endedAt = this.now();
    if (outcome.ok) {
      Object.assign(status, { state: 'done' }, outcome.fields ? { fields: outcome.fields } : {}, outcome.summary ? { summary: outcome.summary.slice(0, 1000) } : {});
      delete status.reason;
      delete status.reasonText;
    } else {
      // Stopped from outside the plan (Stop in the chat stops the step's run): the whole plan stops.
      const fromOutside = outcome.stopped && !controller.signal.aborted;
      const reason = live.overBudget ?? (live.stopped || fromOutside ? say('planStepStoppedRunning') : outcome.reason);
      Object.assign(status, { state: 'failed' }, reasonOf(reason));
      if (fromOutside) void this.stop(live.record.id);
    }
    this.pump(live);
  }

  private async finish(live: Live, status: 'done' | 'failed' | 'stopped'): Promise<void> {
    const { record } = live;
    this.live.delete(record.id);
    clearTimeout(live.timer);
    if (live.holder) this.deps.runs?.close(live.holder.id);
    record.status = status;
    try {
      const tabs = await this.deps.tabs.list();
      const described = new Map(tabs.map((t) => [t.id, { title: t.title, url: t.url }]));
      record.answer = this.deps.core.composeAnswer(record, described).slice(0, 200_000);
      await this.answerInChat(record);
      await this.closeOpened(record);
    } finally {
      await this.save(record);
      live.end();
    }
  }

  /** The plan's answer as a new assistant message in its conversation (if the chat still exists). */
  private async answerInChat(record: PlanRecord): Promise<void> {
    const conversation = await this.deps.conversations.get(record.conversationId);
    if (!conversation || !record.answer) return;
    const message: AssistantMessage = { id: newId('msg'), role: 'assistant', content: record.answer, createdAt: this.now(), status: 'complete' };
    conversation.messages.push(message);
    await this.deps.conversations.save(conversation);
    this.deps.emit({ type: 'conversation/updated', conversation });
  }

  private async closeOpened(record: PlanRecord): Promise<void> {
    if (!record.openedTabs.length || (await this.deps.settings()).keepOpenedTabs) return;
    await this.deps.tabs.close(record.openedTabs).catch(() => undefined);
    record.openedTabs = [];
  }

  /** Stores the record as it is now and tells every sidebar; a storage failure does not stop the plan. */
  private save(record: PlanRecord): Promise<void> {
    record.updatedAt = this.now();
    this.publish(record);
    return this.deps.store.save(record).catch(() => undefined);
  }

  private publish(record: PlanRecord): void {
    this.deps.emit({ type: 'plan/updated', plan: structuredClone(record) });
  }

  private async found(planId: string): Promise<PlanRecord> {
    const record = this.live.get(planId)?.record ?? (await this.deps.store.get(planId));
    if (!record) throw refusal(say('planNotFound'));
    return record;
  }

  private async idle(planId: string): Promise<PlanRecord> {
    if (this.live.has(planId)) throw refusal(say('planCannotRun', 'running'));
    return this.found(planId);
  }
}

function freshSteps(plan: Plan): StepStatus[] {
  return plan.steps.map((s) => ({ id: s.id, state: 'waiting', attempts: 0 }));
}

function statusOf(record: PlanRecord, id: string): StepStatus {
  let status = record.steps.find((s) => s.id === id);
  if (!status) {
    status = { id, state: 'waiting', attempts: 0 };
    record.steps.push(status);
  }
  return status;
}

/** A step waits again: what its last attempt left is cleared (its tab is kept, to be reused). */
function resetStep(record: PlanRecord, id: string): void {
  const status = statusOf(record, id);
  for (const key of ['action', 'actionText', 'fields', 'summary', 'reason', 'reasonText', 'startedAt', 'endedAt'] as const) delete status[key];
  status.state = 'waiting';
}

function reasonOf(text: Localized): Pick<StepStatus, 'reason' | 'reasonText'> {
  return { reason: english(text).slice(0, 500), reasonText: text };
}

/**
 * The sites the plan lists: the open tabs its steps name and the addresses it gives. An address
 * an earlier step returns came from a page, so its site is not part of what the user approved.
 */
function planSites(plan: Plan, tabs: readonly OpenTab[]): Set<string> {
  return new Set(plan.steps.flatMap((step) => sitesOf(step, tabs)));
}

function refusal(text: Localized): LlmError {
  return new LlmError('bad_request', text, { retryable: false });
}
