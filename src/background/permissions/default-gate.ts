import type { GateCall, GateScope, PermissionGate, Verdict } from '../agent/permission-gate';
import type { PermissionPrompter } from './prompter';

/**
 * The gate until the policy engine decides more finely: reading is allowed, everything else is
 * asked, and "always allow" holds for that tool on that site.
 */
export class AskingGate implements PermissionGate {
  private readonly always = new Map<string, boolean>();

  constructor(
    private readonly prompter: PermissionPrompter,
    private readonly originOf: (tabId?: number) => Promise<string | undefined> = async () => undefined,
  ) {}

  async decide({ tool, args }: GateCall, scope: GateScope, onAsk: () => void, signal: AbortSignal): Promise<Verdict> {
    if (tool.risk === 'read') return { allowed: true, by: 'policy' };
    const origin = (await this.originOf(scope.tabId)) ?? 'this page';
    const key = `${tool.name}|${origin}`;
    const remembered = this.always.get(key);
    if (remembered !== undefined) return remembered ? { allowed: true, by: 'user' } : { allowed: false, by: 'user', reason: 'always denied on this site' };
    onAsk();
    const answer = await this.prompter.ask(
      {
        conversationId: scope.conversationId,
        tool: tool.name,
        risk: tool.risk,
        args,
        origin,
        reason: typeof args.reason === 'string' ? args.reason : undefined,
        canAllowAlways: tool.risk !== 'sensitive',
      },
      signal,
    );
    if (answer === 'allow_always' && tool.risk !== 'sensitive') this.always.set(key, true);
    if (answer === 'reject_always') this.always.set(key, false);
    if (answer === 'allow_once' || answer === 'allow_always') return { allowed: true, by: 'user' };
    const reason = answer === 'timeout' ? 'no answer in time' : answer === 'stopped' ? 'the task was stopped' : 'denied by the user';
    return { allowed: false, by: answer === 'timeout' ? 'timeout' : 'user', reason };
  }
}
