/**
 * The permission gate in use: every call is decided by the policy engine from the tool, what it
 * touches, the site and the user's rules; what needs the user is asked in the chat; every call
 * is written to the audit log with its decision and outcome.
 */
import type { CallOutcome, GateCall, GateScope, PermissionGate, Verdict } from '../agent/permission-gate';
import type { AuditEntry, AuditLog } from './audit-log';
import { evaluate, type CallFacts, type Evaluation } from './engine';
import type { PolicyStore } from './policies';
import type { PermissionPrompter } from './prompter';
import { originOfUrl } from '../../shared/permissions';
import { redactArgs } from './redact';
import { describeTarget } from './target-checks';
import type { TargetInfo } from './tiers';

export interface PolicyGateDeps {
  store: PolicyStore;
  prompter: PermissionPrompter;
  audit: AuditLog;
  /** The origin of the page in a tab (`https://example.org`), if it has one. */
  originOf(tabId: number | undefined): Promise<string | undefined>;
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

const NAVIGATING = new Set(['navigate', 'open_tab']);

export class PolicyGate implements PermissionGate {
  /** "Allow once" for an interaction holds for that site for the rest of the conversation. */
  private readonly allowedThisConversation = new Set<string>();
  private readonly decided = new WeakMap<GateCall['call'], Decided>();
  private readonly startOrigins = new WeakMap<object, Promise<string | undefined>>();
  /** Calls the user refused in a task: asked for again, they are refused without asking. */
  private readonly deniedInTask = new WeakMap<object, Set<string>>();

  constructor(private readonly deps: PolicyGateDeps) {}

  async decide(gateCall: GateCall, scope: GateScope, onAsk: (masked?: string[]) => void, signal: AbortSignal): Promise<Verdict> {
    const facts = await this.factsOf(gateCall, scope);
    const key = `${scope.conversationId}|${facts.origin}`;
    // An earlier "allow once" for an interaction on this site, in this conversation, acts as an
    // allow rule below the user's own rules: the engine's escalations still apply to it.
    const rules = {
      sensitiveSites: () => this.deps.store.sensitiveSites(),
      find: async (origin: string, tool: string, tier: Evaluation['tier']) =>
        (await this.deps.store.find(origin, tool, tier)) ??
        (tier === 'interact' && this.allowedThisConversation.has(key) ? { origin, subject: 'tier:interact', policy: 'allow' as const, createdAt: 0 } : undefined),
    };
    const evaluation = await evaluate(facts, rules);
    this.decided.set(gateCall.call, { facts, evaluation });
    // What the user may see of the arguments, and which of them are secret for this target.
    const shown = redactArgs(gateCall.args, facts.target);
    const secret = Object.keys(shown).filter((k) => shown[k] !== gateCall.args[k]);
    const masked = secret.length ? { masked: secret } : {};

    if (evaluation.policy === 'allow') return { allowed: true, by: 'policy', ...masked };
    if (evaluation.policy === 'deny') return { allowed: false, by: 'policy', reason: `blocked by ${evaluation.why}`, ...masked };
    const denied = scope.task ? this.deniedInTask.get(scope.task) : undefined;
    const signature = callSignature(facts);
    if (denied?.has(signature)) return { allowed: false, by: 'user', reason: 'the user already refused this exact action in this task; do not ask for it again', ...masked };

    onAsk(masked.masked);
    const answer = await this.deps.prompter.ask(
      {
        conversationId: scope.conversationId,
        tool: gateCall.tool.name,
        risk: evaluation.tier,
        args: shown,
        origin: facts.origin,
        target: facts.target ? describeTarget(facts.target) : undefined,
        reason: typeof gateCall.args.reason === 'string' ? gateCall.args.reason : undefined,
        why: evaluation.why,
        canAllowAlways: evaluation.canAllowAlways,
      },
      signal,
    );
    if (answer === 'allow_always' && evaluation.canAllowAlways) await this.remember(facts.origin, gateCall.tool.name, 'allow');
    if (answer === 'reject_always') await this.remember(facts.origin, gateCall.tool.name, 'deny');
    if (answer === 'allow_once' || answer === 'allow_always') {
      if (evaluation.tier === 'interact') this.allowedThisConversation.add(key);
      return { allowed: true, by: 'user', ...masked };
    }
    if ((answer === 'reject_once' || answer === 'reject_always') && scope.task) {
      this.deniedInTask.set(scope.task, (denied ?? new Set()).add(signature));
    }
    const reason = answer === 'timeout' ? 'no answer in time' : answer === 'stopped' ? 'the task was stopped' : 'denied by the user';
    return { allowed: false, by: answer === 'timeout' ? 'timeout' : 'user', reason, ...masked };
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
    };
    void this.deps.audit.append(entry).catch(() => undefined);
  }

  /** Keeps an "always" answer as a rule; if it cannot be kept, the answer still holds this once. */
  private async remember(origin: string, tool: string, policy: 'allow' | 'deny'): Promise<void> {
    await this.deps.store.set({ origin, subject: tool, policy }).catch(() => undefined);
  }

  private async factsOf({ tool, args }: GateCall, scope: GateScope): Promise<CallFacts> {
    const origin = (await this.deps.originOf(scope.tabId)) ?? 'unknown';
    // An element that cannot be inspected is not acted on either (the page layer refuses it).
    const target = scope.tabId !== undefined && tool.risk !== 'read' ? await this.deps.inspect(scope.tabId, { tool: tool.name, args }).catch(() => undefined) : undefined;
    const destinationOrigin = NAVIGATING.has(tool.name) && typeof args.url === 'string' ? originOfUrl(args.url) : undefined;
    const context = scope.context?.() ?? { userText: '', pageText: '' };
    return {
      tool: tool.name,
      risk: tool.risk,
      args,
      origin,
      startOrigin: await this.startOrigin(scope),
      destinationOrigin,
      target,
      userText: context.userText,
      pageText: context.pageText,
    };
  }

  /** The origin the task started on, read once per task. */
  private startOrigin(scope: GateScope): Promise<string | undefined> {
    const task = scope.task;
    if (!task) return Promise.resolve(undefined);
    let known = this.startOrigins.get(task);
    if (!known) {
      known = this.deps.originOf(task.startTabId);
      this.startOrigins.set(task, known);
    }
    return known;
  }
}

/** The same action on the same site: the tool and its arguments, without the model's stated reason. */
function callSignature(facts: CallFacts): string {
  const { reason: _reason, ...args } = facts.args;
  return `${facts.origin}|${facts.tool}|${JSON.stringify(args, Object.keys(args).sort())}`;
}
