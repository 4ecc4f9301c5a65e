/**
 * The permission gate in use: every call is decided by the policy engine from the tool, what it
 * touches, the site and the user's rules; what needs the user is asked in the chat; every call
 * is written to the audit log with its decision and outcome.
 */
import type { CallOutcome, GateCall, GateScope, PermissionGate, Verdict } from './gate';
import type { AuditEntry, AuditLog } from './audit-log';
import { evaluate, type CallFacts, type Evaluation } from './engine';
import type { PolicyStore } from './policies';
import type { PermissionPrompter } from './prompter';
import { originOfUrl } from '../../shared/permissions';
import { say, type Localized } from '../../shared/i18n';
import { english } from '../english';
import { restrictionSaid } from '../page/restricted';
import { redactArgs } from './redact';
import { clip, targetText } from './target-checks';
import type { TaskState } from '../tools/registry';
import type { TargetInfo } from './tiers';

export interface PolicyGateDeps {
  store: PolicyStore;
  prompter: PermissionPrompter;
  audit: AuditLog;
  /** A tab's page, title and window; undefined when there is no such tab. */
  tab(tabId: number): Promise<TabFacts | undefined>;
  /**
   * What the page element a call acts on is (by its id, or the focused element for a key press),
   * undefined for calls on no element. The page layer keeps this inspection for the call, and the
   * action runs only on exactly what it described.
   */
  inspect(tabId: number, call: { tool: string; args: Record<string, unknown> }): Promise<TargetInfo | undefined>;
  now?: () => number;
  newId?: () => string;
}

interface Decided {
  facts: CallFacts;
  evaluation: Evaluation;
}

/** What the gate needs to know of a tab. */
export interface TabFacts {
  url?: string;
  title?: string;
  windowId?: number;
}

const NAVIGATING = new Set(['navigate', 'open_tab']);
/** Tools that act on no tab of their own: the rest act on the task's tab (switch_tab on the tab it names). */
const TABLESS = new Set(['done', 'ask_user', 'list_tabs', 'open_tab', 'recall_page']);
/** A destination the gate cannot read is judged as another site (fail closed). */
const UNREADABLE = 'an address FoxAgent cannot read';

/** Where a call goes, or why it cannot run at all, worked out before any rule is consulted. */
interface Place {
  destinationOrigin?: string;
  /** What the call acts on when it is a tab or an address: an address as it is, a tab in words. */
  target?: string | Localized;
  otherWindow?: boolean;
  /** Why the call cannot run at all, for the user (its English goes to the model and the log). */
  refusal?: Localized;
}

/** The question's target: English for the log and older readers, and the same as keys where it has words of its own. */
function targetFields(target: string | Localized | undefined): { target?: string; targetText?: Localized } {
  if (target === undefined) return {};
  return typeof target === 'string' ? { target } : { target: english(target), targetText: target };
}

export class PolicyGate implements PermissionGate {
  /** "Allow <tool> on <site> for this task": per task, `origin|tool`. */
  private readonly allowedInTask = new WeakMap<object, Set<string>>();
  private readonly decided = new WeakMap<GateCall['call'], Decided>();
  private readonly startOrigins = new WeakMap<object, Promise<string | undefined>>();
  /** Calls the user refused in a task: asked for again, they are refused without asking. */
  private readonly deniedInTask = new WeakMap<object, Set<string>>();

  constructor(private readonly deps: PolicyGateDeps) {}

  async decide(gateCall: GateCall, scope: GateScope, onAsk: (masked?: string[]) => void, signal: AbortSignal): Promise<Verdict> {
    const { facts, place } = await this.factsOf(gateCall, scope);
    if (place.refusal) {
      const reason = english(place.refusal);
      this.decided.set(gateCall.call, { facts, evaluation: { tier: facts.risk, policy: 'deny', why: reason, canAllowAlways: false } });
      return { allowed: false, by: 'policy', reason, reasonText: place.refusal };
    }
    // "Allow once" is this one call and nothing else. "For this task" acts as an allow rule for
    // one tool on one site in one task, below the user's own rules: the engine's escalations
    // still apply to it.
    const grants = scope.task ? this.allowedInTask.get(scope.task) : undefined;
    const confirm = scope.task?.confirmActions;
    const planned = planAllows(scope.task?.planGrant, gateCall.tool, facts);
    const rules = {
      sensitiveSites: () => this.deps.store.sensitiveSites(),
      find: async (origin: string, tool: string, tier: Evaluation['tier']) => {
        const stored = await this.deps.store.find(origin, tool, tier);
        // A task the model chose to start does not run on the user's standing allow rules.
        const usable = stored && !(confirm && stored.policy === 'allow' && tier !== 'read') ? stored : undefined;
        const granted = tier === 'interact' && (grants?.has(`${origin}|${tool}`) || planned);
        return usable ?? (granted ? { origin, subject: tool, policy: 'allow' as const, createdAt: 0 } : undefined);
      },
    };
    const evaluation = await evaluate(facts, rules);
    // Offered only for an interaction by an interacting tool: never navigation, tabs or sensitive.
    const canAllowTask = Boolean(scope.task) && evaluation.tier === 'interact' && gateCall.tool.risk === 'interact';
    this.decided.set(gateCall.call, { facts, evaluation });
    // What the user may see of the arguments, and which of them are secret for this target.
    const shown = redactArgs(gateCall.args, facts.target);
    const secret = Object.keys(shown).filter((k) => shown[k] !== gateCall.args[k]);
    const masked = secret.length ? { masked: secret } : {};

    if (evaluation.policy === 'allow') return { allowed: true, by: 'policy', ...masked };
    if (evaluation.policy === 'deny') return { allowed: false, by: 'policy', reason: `blocked by ${evaluation.why}`, reasonText: say('gateBlockedByRule'), ...masked };
    const denied = scope.task ? this.deniedInTask.get(scope.task) : undefined;
    const signature = callSignature(facts);
    if (denied?.has(signature)) {
      return { allowed: false, by: 'user', reason: 'the user already refused this exact action in this task; do not ask for it again', reasonText: say('gateRefusedBefore'), ...masked };
    }

    onAsk(masked.masked);
    const answer = await this.deps.prompter.ask(
      {
        conversationId: scope.conversationId,
        tool: gateCall.tool.name,
        risk: evaluation.tier,
        args: shown,
        origin: facts.origin,
        ...targetFields(place.target ?? (facts.target && targetText(facts.target))),
        reason: typeof gateCall.args.reason === 'string' ? gateCall.args.reason : undefined,
        why: evaluation.why,
        ...(evaluation.whyText && { whyText: evaluation.whyText }),
        canAllowAlways: evaluation.canAllowAlways,
        canAllowTask,
      },
      signal,
    );
    if (answer === 'allow_always' && evaluation.canAllowAlways) await this.remember(facts.origin, gateCall.tool.name, 'allow');
    if (answer === 'reject_always') await this.remember(facts.origin, gateCall.tool.name, 'deny');
    if (answer === 'allow_task' && canAllowTask && scope.task) {
      this.allowedInTask.set(scope.task, (grants ?? new Set()).add(`${facts.origin}|${gateCall.tool.name}`));
    }
    if (answer === 'allow_once' || answer === 'allow_always' || answer === 'allow_task') return { allowed: true, by: 'user', ...masked };
    if ((answer === 'reject_once' || answer === 'reject_always') && scope.task) {
      this.deniedInTask.set(scope.task, (denied ?? new Set()).add(signature));
    }
    const reasonText = say(answer === 'timeout' ? 'gateNoAnswer' : answer === 'stopped' ? 'gateStopped' : 'gateDenied');
    const reason = answer === 'timeout' ? 'no answer in time' : answer === 'stopped' ? 'the task was stopped' : 'denied by the user';
    return { allowed: false, by: answer === 'timeout' ? 'timeout' : 'user', reason, reasonText, ...masked };
  }

  settled(gateCall: GateCall, scope: GateScope, verdict: Verdict, outcome: CallOutcome): void {
    const decided = this.decided.get(gateCall.call);
    const entry: AuditEntry = {
      id: this.deps.newId?.() ?? `audit-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      time: (this.deps.now ?? Date.now)(),
      conversationId: scope.conversationId,
      tool: gateCall.tool.name,
      args: redactArgs(gateCall.args, decided?.facts.target),
      origin: decided?.facts.origin ?? 'unknown',
      tier: decided?.evaluation.tier ?? gateCall.tool.risk,
      decision: verdict.allowed ? 'allowed' : 'denied',
      decidedBy: verdict.by,
      why: verdict.allowed ? decided?.evaluation.why : verdict.reason,
      durationMs: outcome.durationMs,
      outcome: outcome.status,
      summary: outcome.summary?.slice(0, 200),
      ...scope.task?.planStep,
    };
    void this.deps.audit.append(entry).catch(() => undefined);
  }

  /** Keeps an "always" answer as a rule; if it cannot be kept, the answer still holds this once. */
  private async remember(origin: string, tool: string, policy: 'allow' | 'deny'): Promise<void> {
    await this.deps.store.set({ origin, subject: tool, policy }).catch(() => undefined);
  }

  private async factsOf({ tool, args }: GateCall, scope: GateScope): Promise<{ facts: CallFacts; place: Place }> {
    const here = await this.tabFacts(scope.tabId);
    const origin = originOfUrl(here?.url) ?? 'unknown';
    const place = await this.placeOf(tool, args, here);
    place.refusal ??= outsideRun(tool.name, args, scope);
    // An element that cannot be inspected is not acted on (the page layer refuses it too), so the
    // user is not asked about it: the model hears why at once.
    let target: TargetInfo | undefined;
    if (!place.refusal && scope.tabId !== undefined && tool.risk !== 'read') {
      try {
        target = await this.deps.inspect(scope.tabId, { tool: tool.name, args });
      } catch (error) {
        place.refusal = say('gateCannotCheck', error instanceof Error ? error.message : String(error));
      }
    }
    // A link or form that leads to another site is a navigation there, whatever tool follows it.
    const leadsTo = originOfUrl(target?.leadsTo);
    if (!place.destinationOrigin && leadsTo && leadsTo !== origin) place.destinationOrigin = leadsTo;
    const context = scope.context?.() ?? { userText: '', pageText: '' };
    const facts: CallFacts = {
      tool: tool.name,
      risk: tool.risk,
      args,
      origin,
      startOrigin: await this.startOrigin(scope),
      destinationOrigin: place.destinationOrigin,
      otherWindow: place.otherWindow,
      target,
      userText: context.userText,
      pageText: context.pageText,
    };
    return { facts, place };
  }

  /**
   * Where the call goes and what it acts on: the address a navigation loads (already normalised
   * by the tool's schema), the tab a switch leads to. A page FoxAgent cannot act on is refused here,
   * before any question, as is a tab that does not exist.
   */
  private async placeOf(tool: GateCall['tool'], args: Record<string, unknown>, here: TabFacts | undefined): Promise<Place> {
    // Interacting and sensitive tools act on the page in the tab; navigation and tab tools do not.
    if (tool.risk === 'interact' || tool.risk === 'sensitive') {
      const restriction = here && restrictionSaid(here.url);
      if (restriction) return { refusal: restriction };
    }
    if (NAVIGATING.has(tool.name)) {
      const url = typeof args.url === 'string' ? args.url : '';
      return { destinationOrigin: originOfUrl(url) ?? UNREADABLE, target: url.length > 200 ? `${url.slice(0, 199)}…` : url };
    }
    if (tool.name === 'switch_tab') {
      const id = typeof args.tab_id === 'number' ? args.tab_id : undefined;
      const tab = await this.tabFacts(id);
      if (!tab) return { refusal: say('gateNoSuchTab', String(args.tab_id)) };
      const destinationOrigin = originOfUrl(tab.url) ?? UNREADABLE;
      return {
        destinationOrigin,
        target: say('targetTab', clip(tab.title ?? '', 80) || say('targetUntitled'), destinationOrigin),
        otherWindow: here?.windowId !== undefined && tab.windowId !== here.windowId,
      };
    }
    return {};
  }

  private async tabFacts(tabId: number | undefined): Promise<TabFacts | undefined> {
    return tabId === undefined ? undefined : this.deps.tab(tabId).catch(() => undefined);
  }

  /** The origin the task started on, read once per task. */
  private startOrigin(scope: GateScope): Promise<string | undefined> {
    const task = scope.task;
    if (!task) return Promise.resolve(undefined);
    let known = this.startOrigins.get(task);
    if (!known) {
      known = this.tabFacts(task.startTabId).then((tab) => originOfUrl(tab?.url));
      this.startOrigins.set(task, known);
    }
    return known;
  }
}

/**
 * A run given its tabs (a plan's step, an outside client's task) acts on those and on tabs it
 * opened, nowhere else: a call on another tab is refused before any rule or question.
 */
function outsideRun(tool: string, args: Record<string, unknown>, scope: GateScope): Localized | undefined {
  const task = scope.task;
  const allowed = task?.allowedTabs;
  if (!task || !allowed || TABLESS.has(tool)) return undefined;
  const tabId = tool === 'switch_tab' ? args.tab_id : scope.tabId;
  if (typeof tabId === 'number' && (allowed.has(tabId) || task.openedTabs.has(tabId))) return undefined;
  const may = [...allowed, ...task.openedTabs].map((id) => `tab_id=${id}`).join(', ');
  return say('gateOutsideRun', String(tabId), may || 'none');
}

/**
 * Page loads a plan's `navigate` covers: those whose destination the gate knows (an address, the
 * same page again). Back and forward may land anywhere, so they still ask.
 */
const PLANNED_LOADS: ReadonlySet<string> = new Set(['navigate', 'reload']);

/**
 * Whether the approved plan of the task's step covers this call, below the user's own rules and
 * above the default "ask": an interaction by a page tool on a site the plan listed, when the step
 * listed `interact`; a page load in the step's tab, from and to a listed site, when it listed
 * `navigate`. The caller applies it only in the `interact` tier, so sensitive calls and loads of
 * another site still ask, as does whatever the engine escalates (another site than the step
 * started on, values only the page supplied, a destructive or page-steered target).
 */
function planAllows(grant: TaskState['planGrant'], tool: GateCall['tool'], facts: CallFacts): boolean {
  if (!grant || !grant.sites.has(facts.origin)) return false;
  if (tool.risk === 'interact') return grant.may.has('interact');
  if (PLANNED_LOADS.has(tool.name)) return grant.may.has('navigate') && grant.sites.has(facts.destinationOrigin ?? facts.origin);
  return false;
}

/** The same action on the same site: the tool and its arguments, without the model's stated reason. */
function callSignature(facts: CallFacts): string {
  const { reason: _reason, ...args } = facts.args;
  return `${facts.origin}|${facts.tool}|${JSON.stringify(args, Object.keys(args).sort())}`;
}
