import type { ToolCall } from '../llm/types';
import type { Risk, ToolDefinition } from '../tools/registry';

export interface GateCall {
  tool: ToolDefinition;
  args: Record<string, unknown>;
  call: ToolCall;
}

export interface GateScope {
  conversationId: string;
  tabId?: number;
}

export type Verdict = { allowed: true; by: 'policy' | 'user' } | { allowed: false; by: 'policy' | 'user' | 'timeout'; reason: string };

/**
 * Decides whether a call may run. `onAsk` is called when the decision needs the user, so the
 * loop can show the call as waiting; the promise settles when the user (or the timeout) decides.
 */
export interface PermissionGate {
  decide(call: GateCall, scope: GateScope, onAsk: () => void, signal: AbortSignal): Promise<Verdict>;
}

export interface PermissionRequest {
  id: string;
  conversationId: string;
  tool: string;
  risk: Risk;
  args: Record<string, unknown>;
  reason?: string;
  origin?: string;
}

export type Decision = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
