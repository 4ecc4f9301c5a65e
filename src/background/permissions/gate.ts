import type { Localized } from '../../shared/i18n';
import type { ToolCall } from '../llm/types';
import type { RegisteredTool, TaskState } from '../tools/registry';

export interface GateCall {
  /** What the gate judges of the tool: its name and risk, however it was defined. */
  tool: Pick<RegisteredTool, 'name' | 'risk'>;
  args: Record<string, unknown>;
  call: ToolCall;
}

export interface GateScope {
  conversationId: string;
  tabId?: number;
  /** The task's state: the tab it started on, the tabs it opened. */
  task?: TaskState;
  /** What the user said and what the pages said in this task, to tell their words apart. */
  context?: () => { userText: string; pageText: string };
}

/** How a call ended, for the audit log. */
export interface CallOutcome {
  status: 'done' | 'failed' | 'denied' | 'skipped';
  durationMs?: number;
  summary?: string;
}

export type Verdict = (
  | { allowed: true; by: 'policy' | 'user' }
  /** `reason` in English (the model and the audit log read it); `reasonText` the same for the user, as a key. */
  | { allowed: false; by: 'policy' | 'user' | 'timeout'; reason: string; reasonText?: Localized }
) & {
  /** Arguments whose values are secret for this target (a password field): never shown in clear. */
  masked?: string[];
};

/**
 * Decides whether a call may run. `onAsk` is called when the decision needs the user, so the
 * loop can show the call as waiting; the promise settles when the user (or the timeout) decides.
 */
export interface PermissionGate {
  decide(call: GateCall, scope: GateScope, onAsk: (masked?: string[]) => void, signal: AbortSignal): Promise<Verdict>;
  /** Called once the call has ended (run, failed or denied), with its verdict. */
  settled?(call: GateCall, scope: GateScope, verdict: Verdict, outcome: CallOutcome): void;
}
