/**
 * The plans service: keeps each plan's record (proposed, approved with the user's edits, running,
 * ended), runs its steps through the scheduler and the step runner, tells every sidebar about each
 * change, writes the answer into the conversation at the end and closes the tabs the plan opened.
 * It sits beside the agent: each step is a run of the ordinary agent loop, scoped to its tab.
 */
import { newId, type AssistantMessage, type Conversation } from '../../shared/conversation';
import { say, type Localized } from '../../shared/i18n';
import { PlanSchema, type Plan, type PlanRecord } from '../../shared/plan';
import type { PlanSettings } from '../../shared/plan-settings';
import type { BgToUiEvent, OpenTab } from '../../shared/protocol';
import { LlmError } from '../llm/errors';
import type { RunRegistry } from '../runs/registry';
import { sitesOf } from './check';
import type { PlanControl, PlanStarter } from './control';
import { LivePlan } from './live-plan';
import type { PlanStore } from './plan-store';
import { ACTIVE_STATES, DEFAULT_PLAN_BUDGET, retrying, type PlanBudget } from './scheduler';
import type { StepRunner } from './step-job';
import { freshSteps, reasonOf, resetStep } from './step-status';

/** The planner's checks and the answer's composer, passed in (they live beside the planner). */
export interface PlanCore {
  checkPlan(plan: Plan, tabs: readonly { id: number }[]): string[];
  isReadOnly(plan: Plan): boolean;
  composeAnswer(record: PlanRecord, tabs: ReadonlyMap<number, { title: string; url: string }>, closing?: ReadonlySet<number>): string;
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

/** How long Stop waits for the steps to wind down before answering with the record as it is. */
const STOP_WAIT_MS = 3000;

export class PlanService implements PlanControl, PlanStarter {
  private readonly live = new Map<string, LivePlan>();
  /**
   * Plans between a Run, Resume, Retry or Cancel and their effect (records read, the plan not yet
   * live): a second such request meanwhile (two sidebars, a double click) is refused, so a plan
   * never runs twice at once, and Stop always reaches the one that runs.
   */
  private readonly changing = new Set<string>();
  /** Stop pressed while a plan was being started: it stops as soon as it is live. */
  private readonly stopAsked = new Set<string>();
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
      // The sites as the plan was made and shown; Run approves no other site for an unchanged step.
      sites: [...planSites(input.plan, input.tabs)],
      openedTabs: [],
      createdAt: at,
      updatedAt: at,
    };
    await this.deps.store.save(record);
    this.publish(record);
    const settings = await this.deps.settings();
    if (!record.readOnly || !settings.runReadOnlyWithoutAsking) return record;
    // Nobody approved it: its consent covers no site, so each address it opens is asked first.
    record.sites = [];
    return this.begin(record);
  }

  list(conversationId: string): Promise<PlanRecord[]> {
    return this.deps.store.list(conversationId);
  }

  run(planId: string, edited?: Plan): Promise<PlanRecord> {
    return this.alone(planId, () => this.runNow(planId, edited));
  }

  private async runNow(planId: string, edited?: Plan): Promise<PlanRecord> {
    const record = await this.idle(planId);
    if (record.status === 'interrupted' && !edited) return this.resumeNow(planId);
    if (record.status !== 'proposed' && record.status !== 'interrupted') throw refusal(say('planCannotRun', record.status));
    const tabs = await this.deps.tabs.list();
    const shown = record.plan;
    if (edited) {
      const plan = PlanSchema.parse(edited);
      const problems = this.deps.core.checkPlan(plan, tabs);
      if (problems.length) throw refusal(say('planEditInvalid', problems.join(' ')));
      record.plan = plan;
      record.steps = freshSteps(plan);
      record.readOnly = this.deps.core.isReadOnly(plan);
    }
    record.sites = approvedSites(record.plan, shown, new Set(record.sites ?? []), tabs);
    return this.begin(record);
  }

  async cancel(planId: string): Promise<PlanRecord> {
    if (this.live.has(planId)) return this.stop(planId);
    return this.alone(planId, () => this.cancelNow(planId));
  }

  private async cancelNow(planId: string): Promise<PlanRecord> {
    const record = await this.found(planId);
    if (record.status !== 'proposed' && record.status !== 'interrupted') return record;
    record.status = 'cancelled';
    await this.closeOpened(record);
    await this.save(record);
    return record;
  }

  async stop(planId: string): Promise<PlanRecord> {
    const live = this.live.get(planId);
    if (!live && this.changing.has(planId)) this.stopAsked.add(planId);
    if (!live) return this.found(planId);
    live.stop();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([live.ended, new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    return live.record;
  }

  retryStep(planId: string, stepId: string): Promise<PlanRecord> {
    return this.alone(planId, () => this.retryNow(planId, stepId));
  }

  private async retryNow(planId: string, stepId: string): Promise<PlanRecord> {
    const live = this.live.get(planId);
    const record = live?.record ?? (await this.found(planId));
    const status = record.steps.find((s) => s.id === stepId);
    if (!status || (status.state !== 'failed' && status.state !== 'skipped')) throw refusal(say('planCannotRetry'));
    if (!live && !['done', 'failed', 'stopped'].includes(record.status)) throw refusal(say('planCannotRun', record.status));
    for (const id of retrying(record.plan, record.steps, stepId)) resetStep(record, id);
    if (live) {
      live.pump();
      return record;
    }
    return this.begin(record);
  }

  /**
   * Goes on with a plan a reload cut off: steps already done keep their fields and are not run
   * again; a step whose tab was closed meanwhile fails, saying so (a step on an address opens it again).
   */
  resume(planId: string): Promise<PlanRecord> {
    return this.alone(planId, () => this.resumeNow(planId));
  }

  private async resumeNow(planId: string): Promise<PlanRecord> {
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
    return this.begin(record);
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

  private async begin(record: PlanRecord): Promise<PlanRecord> {
    const settings = await this.deps.settings();
    const live: LivePlan = new LivePlan(record, {
      runStep: this.deps.runStep,
      budget: this.budget,
      concurrency: settings.concurrency,
      // What the user approved; a record stored without it gets its addresses' sites only.
      sites: new Set(record.sites ?? planSites(record.plan, [])),
      ...(this.deps.runs ? { runs: this.deps.runs } : {}),
      holdWaitMs: this.deps.holdWaitMs ?? 10_000,
      now: this.now,
      save: (r) => this.save(r),
      finished: () => this.finish(live),
    });
    this.live.set(record.id, live);
    await live.start();
    if (this.stopAsked.delete(record.id)) live.stop();
    return record;
  }

  /** The plan ended: its answer in the record and the chat, its tabs closed (unless kept), stored. */
  private async finish(live: LivePlan): Promise<void> {
    const { record } = live;
    this.live.delete(record.id);
    try {
      const tabs = await this.deps.tabs.list();
      const described = new Map(tabs.map((t) => [t.id, { title: t.title, url: t.url }]));
      // Tabs that close with the plan cannot be brought to the front later: their rows link to the page.
      const closing = new Set((await this.deps.settings()).keepOpenedTabs ? [] : record.openedTabs);
      record.answer = this.deps.core.composeAnswer(record, described, closing).slice(0, 200_000);
      await this.answerInChat(record);
      await this.closeOpened(record);
    } finally {
      await this.save(record);
    }
  }

  /** The plan's answer as a new assistant message in its conversation (if the chat still exists). */
  private async answerInChat(record: PlanRecord): Promise<void> {
    const conversation = await this.deps.conversations.get(record.conversationId);
    if (!conversation || !record.answer) return;
    const message: AssistantMessage = { id: newId('msg'), role: 'assistant', content: record.answer, createdAt: this.now(), status: 'complete', answerOf: record.id };
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

  /** Runs one change of a plan's course at a time; another one meanwhile is refused. */
  private async alone(planId: string, change: () => Promise<PlanRecord>): Promise<PlanRecord> {
    if (this.changing.has(planId)) throw refusal(say('planCannotRun', 'running'));
    this.changing.add(planId);
    try {
      return await change();
    } finally {
      this.changing.delete(planId);
      this.stopAsked.delete(planId);
    }
  }

  private async idle(planId: string): Promise<PlanRecord> {
    if (this.live.has(planId)) throw refusal(say('planCannotRun', 'running'));
    return this.found(planId);
  }
}

/**
 * The sites the plan lists: the open tabs its steps name and the addresses it gives. An address
 * an earlier step returns came from a page, so its site is not part of what the user approved.
 */
function planSites(plan: Plan, tabs: readonly OpenTab[]): Set<string> {
  return new Set(plan.steps.flatMap((step) => sitesOf(step, tabs)));
}

/**
 * The sites the user approves by pressing Run: each step's site now, where the user saw it. An
 * address is in the plan itself. An open tab's site counts only while it is the one it had when
 * the plan was shown (a page that took its tab to another site meanwhile does not get the consent),
 * unless the user chose that tab for the step in an edit.
 */
function approvedSites(plan: Plan, shown: Plan, shownSites: ReadonlySet<string>, tabs: readonly OpenTab[]): string[] {
  const sites = plan.steps.flatMap((step) => {
    const now = sitesOf(step, tabs);
    if (step.tab.kind !== 'tab') return now;
    const before = shown.steps.find((s) => s.id === step.id)?.tab;
    const chosen = before?.kind !== 'tab' || before.tabId !== step.tab.tabId;
    return chosen ? now : now.filter((site) => shownSites.has(site));
  });
  return [...new Set(sites)];
}

function refusal(text: Localized): LlmError {
  return new LlmError('bad_request', text, { retryable: false });
}
