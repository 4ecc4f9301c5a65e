/**
 * One plan step as a run: its tab resolved (opened in the background when it is an address), the
 * page loaded, a run in the run registry scoped to that tab with the approved plan's consent, and
 * the ordinary agent loop with the step's task and tools. The loop's events become the step's
 * state on the card (its action, asking, handed over); a tab closed mid-step, a page that never
 * loads, a failing model or a step over its budget fail the step with a reason.
 */
import { say, type Localized } from '../../shared/i18n';
import { originOfUrl } from '../../shared/permissions';
import type { FieldRecord, PlanStep } from '../../shared/plan';
import type { AgentEvent, AgentOutcome } from '../agent/events';
import { runAgentLoop } from '../agent/loop';
import { LlmError } from '../llm/errors';
import type { LlmMessage } from '../llm/types';
import type { GateScope, PermissionGate } from '../permissions/gate';
import { RunConflict, type RunRegistry } from '../runs/registry';
import type { Session } from '../runs/turn';
import type { ToolRegistry } from '../tools/registry';
import type { PageLooker } from '../vision/fallback';
import { HAND_OVER } from '../tools/control';
import type { StepJob, StepOutcome, StepProgress, StepRunner } from './step-job';
import type { StepTab, StepTabs } from './step-tab';
import { webAddress, webURL } from './web-address';

/** The step task and tools the planner's side builds (passed in, so each side is tested on its own). */
export interface StepCore {
  stepTask(step: PlanStep, ctx: { tab: StepTab; inputs: Record<string, FieldRecord> }): LlmMessage[];
  withStepTools(base: ToolRegistry, step: PlanStep): { tools: ToolRegistry; fields(): FieldRecord | undefined; summary(): string | undefined };
}

export interface StepRunnerDeps {
  runs: RunRegistry;
  /** The provider, settings and model of the plan's conversation. */
  session(conversationId: string): Promise<Session>;
  tools: ToolRegistry;
  gate: PermissionGate;
  vision?: PageLooker;
  tabs: StepTabs;
  /** Resolves when the tab reports loaded, or at the timeout. */
  waitForLoad(tabId: number, timeoutMs: number): Promise<void>;
  /** Calls back when a tab is closed; returns the unsubscribe. */
  onTabRemoved(listener: (tabId: number) => void): () => void;
  core: StepCore;
  /** Each step's own budget: agent steps (model calls) and time. */
  budget?: { steps: number; wallClockMs: number };
  loadTimeoutMs?: number;
  now?: () => number;
}

export const DEFAULT_STEP_BUDGET = { steps: 8, wallClockMs: 3 * 60_000 };

export function createStepRunner(deps: StepRunnerDeps): StepRunner {
  return (job) => runStep(job, deps);
}

async function runStep(job: StepJob, deps: StepRunnerDeps): Promise<StepOutcome> {
  const fail = (reason: Localized): StepOutcome => ({ ok: false, reason });
  const stopped = (): StepOutcome => ({ ok: false, reason: say('planStepStoppedRunning'), stopped: true });
  const refused = await consentToOpen(job, deps);
  if (job.signal.aborted) return stopped();
  if (refused) return fail(refused);
  const resolved = await deps.tabs.resolve(job);
  if (job.signal.aborted) return stopped();
  if (!resolved.ok) return fail(resolved.reason);
  const tabId = resolved.tab.id;

  // The tab's close is watched from the start: while it loads, and while the step works in it.
  const closed = new AbortController();
  const unwatch = deps.onTabRemoved((removed) => removed === tabId && closed.abort());
  try {
    job.progress({ tabId, site: originOfUrl(resolved.tab.url) ?? '', action: 'Loading the page', actionText: say('planStepLoading') });
    await deps.waitForLoad(tabId, deps.loadTimeoutMs ?? 30_000);
    if (closed.signal.aborted) return fail(say('planTabClosedMidStep'));
    if (job.signal.aborted) return stopped();
    if (!(await deps.tabs.loaded(tabId))) return fail(say('planPageNeverLoaded', Math.round((deps.loadTimeoutMs ?? 30_000) / 1000)));
    const tab = (await deps.tabs.read(tabId)) ?? resolved.tab;
    const redirected = await consentToRedirect(job, deps, resolved.tab, tab);
    if (job.signal.aborted) return stopped();
    if (redirected) return fail(redirected);
    job.progress({ site: originOfUrl(tab.url) ?? '' });
    return await work(job, deps, tab, closed.signal);
  } finally {
    unwatch();
  }
}

/**
 * An address outside the sites the user approved: the plan's own in a plan that ran without asking
 * (the planner may have been steered by a page's title), or one an earlier step read from a page.
 * A page could have written that one (an intranet address, another site), or steered the model
 * into a link that carries what it read elsewhere (`https://listed.example/?card=…`), so it opens
 * without a question only on an approved site that is the site the earlier step read. Otherwise it
 * is opened only if the permission gate allows it, as an `open_tab` whose address the page
 * supplied (so it asks, and the audit log keeps it). Undefined: it may open; else why not.
 */
async function consentToOpen(job: StepJob, deps: StepRunnerDeps): Promise<Localized | undefined> {
  const where = job.step.tab;
  if (where.kind === 'tab') return undefined;
  if (job.previousTabId !== undefined && job.openedTabs.includes(job.previousTabId)) return undefined;
  const url = webAddress(where.kind === 'url' ? where.url : job.inputs[where.stepId]?.[where.field]);
  const origin = originOfUrl(url);
  const readOn = where.kind === 'from_step' ? job.inputSites?.[where.stepId] : origin;
  if (!url || (origin && origin === readOn && job.grant.sites.has(origin))) return undefined;
  return askToOpen(job, deps, url, 'open');
}

/** Asks the permission gate about a page address nobody approved, as an `open_tab` the page supplied. */
async function askToOpen(job: StepJob, deps: StepRunnerDeps, url: string, why: 'open' | 'redirect'): Promise<Localized | undefined> {
  const call = { id: `${job.planId}:${job.step.id}:${why}`, name: 'open_tab', arguments: { url } };
  const gateCall = { tool: { name: 'open_tab', risk: 'navigate' as const }, args: call.arguments, call };
  const scope: GateScope = {
    conversationId: job.conversationId,
    task: { openedTabs: new Set(), planStep: { planId: job.planId, stepId: job.step.id } },
    context: () => ({ userText: '', pageText: url }),
  };
  const verdict = await deps.gate.decide(gateCall, scope, () => job.progress({ state: 'asking', action: 'open_tab', actionText: say('planStepAsking', 'open_tab') }), job.signal);
  deps.gate.settled?.(gateCall, scope, verdict, { status: verdict.allowed ? 'done' : 'denied' });
  if (verdict.allowed) return undefined;
  return verdict.reasonText ?? say('planStepDenied', 'open_tab');
}

/**
 * A tab the step opened may have been redirected while it loaded: to another site than the
 * address it opened (an intranet page, a site nobody approved). Staying on that site, moving from
 * http to https on the same host, or landing on an approved site needs nothing; anywhere else the
 * step reads nothing until the gate allows it, as an address the page supplied.
 */
async function consentToRedirect(job: StepJob, deps: StepRunnerDeps, opened: StepTab, landed: StepTab): Promise<Localized | undefined> {
  if (job.step.tab.kind === 'tab' || opened.id === job.previousTabId) return undefined;
  const from = webURL(opened.url);
  const to = webURL(landed.url);
  if (!from || !to || from.origin === to.origin || job.grant.sites.has(to.origin)) return undefined;
  if (from.protocol === 'http:' && to.protocol === 'https:' && from.host === to.host) return undefined;
  return askToOpen(job, deps, to.href, 'redirect');
}

async function work(job: StepJob, deps: StepRunnerDeps, tab: StepTab, closed: AbortSignal): Promise<StepOutcome> {
  const budget = deps.budget ?? DEFAULT_STEP_BUDGET;
  let run;
  try {
    run = deps.runs.open({ origin: 'workflow_step', conversationId: job.conversationId, tabs: [tab.id], budget: { steps: budget.steps, wallClockMs: budget.wallClockMs }, group: job.planId });
  } catch (error) {
    if (error instanceof RunConflict) return { ok: false, reason: say('planChatBusy') };
    throw error;
  }
  const scope = run.scope;
  scope.tabId = tab.id;
  scope.startTabId = tab.id;
  scope.planStep = { planId: job.planId, stepId: job.step.id };
  scope.planGrant = job.grant;
  const signal = AbortSignal.any([run.signal, job.signal, closed]);
  const stepTools = deps.core.withStepTools(deps.tools, job.step);
  // The first call the user (or a rule) did not allow: a step that then ends without its result failed because of it.
  let denied: string | undefined;
  // Time handed over to the user (a login, a captcha) does not count against the step's time.
  const clock = deps.now ?? Date.now;
  const paused = { total: 0, since: undefined as number | undefined };
  const onPause = (pausing: boolean) => {
    if (pausing) paused.since ??= clock();
    else if (paused.since !== undefined) {
      paused.total += clock() - paused.since;
      paused.since = undefined;
    }
  };
  try {
    const session = await deps.session(job.conversationId);
    const outcome = await runAgentLoop(
      {
        conversationId: job.conversationId,
        model: session.model,
        mode: session.settings.toolCallMode,
        messages: deps.core.stepTask(job.step, { tab, inputs: job.inputs }),
        tabId: tab.id,
        scope,
        toolTier: session.settings.modelToolTier[session.model],
        limits: { stepLimit: budget.steps, wallClockMs: budget.wallClockMs },
      },
      {
        router: session.router,
        tools: stepTools.tools,
        gate: deps.gate,
        vision: deps.vision,
        emit: (event) => {
          if (event.type === 'tool' && event.status === 'denied') denied ??= event.call.name;
          follow(event, job, onPause);
        },
        now: () => clock() - paused.total,
      },
      signal,
    );
    if (closed.aborted) return { ok: false, reason: say('planTabClosedMidStep') };
    return outcomeOf(outcome, stepTools, job.step, denied);
  } catch (error) {
    if (closed.aborted) return { ok: false, reason: say('planTabClosedMidStep') };
    if (signal.aborted) return { ok: false, reason: say('planStepStoppedRunning'), stopped: true };
    const message = error instanceof LlmError ? error.message : error instanceof Error ? error.message : String(error);
    return { ok: false, reason: say('planModelFailed', message.slice(0, 300)) };
  } finally {
    deps.runs.close(run.id);
  }
}

/** The loop's events as the step's state on the card; each model call counts against the plan's budget. */
function follow(event: AgentEvent, job: StepJob, onPause: (pausing: boolean) => void): void {
  if (event.type === 'step') return job.modelCall();
  if (event.type !== 'tool') return;
  const { call, status } = event;
  if (call.name === HAND_OVER && status !== 'pending') onPause(status === 'running');
  const progress = progressOf(event);
  if (progress) job.progress(progress);
}

/** A tool row as the step's state: asking, paused (handed over), or running with what it does or did. */
function progressOf(event: Extract<AgentEvent, { type: 'tool' }>): StepProgress | undefined {
  const { call } = event;
  const running = { state: 'running' as const, reason: undefined, reasonText: undefined };
  switch (event.status) {
    case 'waiting_permission':
      return { state: 'asking', action: call.name, actionText: say('planStepAsking', call.name) };
    case 'running':
      return call.name === HAND_OVER ? handedOver(call.arguments.need) : { ...running, action: call.name, actionText: say('planStepUsing', call.name) };
    case 'done':
    case 'failed':
    case 'denied':
      return { ...running, action: (event.preview ?? call.name).slice(0, 300), actionText: event.previewText };
    default:
      return undefined;
  }
}

/** Handed over: the step is paused, its reason what the user must do (the model's words, as text). */
function handedOver(need: unknown): StepProgress {
  const text = typeof need === 'string' ? need.slice(0, 500) : '';
  return { state: 'paused', reason: text, reasonText: say('planStepPaused', text) };
}

/**
 * How the loop's end reads as the step's outcome. A step finishes by returning its fields
 * (`return_fields`) or, without fields, by `done` or an answer. An answer where fields were asked
 * for did not finish the step: it fails, naming the denial that stopped it if there was one,
 * otherwise the fields it did not return; so does an answer after a denial in a step without fields.
 */
function outcomeOf(outcome: AgentOutcome, tools: ReturnType<StepCore['withStepTools']>, step: PlanStep, denied: string | undefined): StepOutcome {
  const fields = tools.fields();
  const withFields = fields ? { fields } : {};
  switch (outcome.kind) {
    case 'done':
      return { ok: true, ...withFields, summary: tools.summary() ?? outcome.summary };
    case 'answered':
      if (denied !== undefined) return { ok: false, reason: say('planStepDenied', denied) };
      if (step.fields.length && !fields) return { ok: false, reason: say('planStepNoFields', step.fields.map((f) => f.name).join(', ')) };
      return { ok: true, ...withFields, summary: outcome.text.slice(0, 1000) };
    case 'asked_user':
      return { ok: false, reason: say('planStepAsked', outcome.question.slice(0, 300)) };
    case 'stopped':
      return { ok: false, reason: say('planStepStoppedRunning'), stopped: true };
    default:
      return { ok: false, reason: outcome.text };
  }
}
