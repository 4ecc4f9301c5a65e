import { say } from '../../shared/i18n';
import type { ToolCall } from '../llm/types';
import { previewOf, type TaskState, type ToolRegistry, type ToolResult } from '../tools/registry';
import { truncateResult } from './compaction';
import type { AgentEvent } from './events';
import { signatureOf, type DedupWindow } from './guards';
import type { GateScope, PermissionGate } from '../permissions/gate';

type ToolEvent = Extract<AgentEvent, { type: 'tool' }>;

export interface CallDeps {
  tools: ToolRegistry;
  gate: PermissionGate;
  emit(event: AgentEvent): void;
  dedup: DedupWindow;
  limits: { toolResultChars: number };
  now?: () => number;
}

export interface CallScope {
  conversationId: string;
  task: TaskState;
  context?: GateScope['context'];
}

/**
 * One tool call, start to finish: validate, skip an exact repeat, ask the permission gate, run
 * with the tool's timeout (Stop ends it at once), and report each stage.
 */
export async function executeCall(call: ToolCall, scope: CallScope, deps: CallDeps, signal: AbortSignal): Promise<ToolResult> {
  const now = deps.now ?? Date.now;
  const report = (status: ToolEvent['status'], extra: Partial<ToolEvent> = {}) => deps.emit({ ...extra, type: 'tool', call, status });
  report('pending');

  const checked = deps.tools.validate(call);
  if (!checked.ok) {
    report('failed', { content: checked.error, ...previewOf(say('previewInvalidArguments')) });
    return { ok: false, content: checked.error };
  }
  const { tool, args } = checked;
  const signature = signatureOf(call.name, args);
  const earlier = tool.risk === 'read' || tool.repeatable || tool.name === 'done' ? undefined : deps.dedup.find(signature);
  if (earlier !== undefined) {
    const content = `Not repeated: you made this exact call just before. Its result was: ${earlier}\nDo the next step instead, or call done if the task is finished.`;
    report('skipped', { content, ...previewOf(say('previewRepeated')) });
    return { ok: false, content };
  }

  const gateCall = { tool, args, call };
  const gateScope: GateScope = { conversationId: scope.conversationId, tabId: scope.task.tabId, task: scope.task, context: scope.context };
  const verdict = await deps.gate.decide(gateCall, gateScope, (masked) => report('waiting_permission', { masked }), signal);
  const { masked } = verdict;
  if (!verdict.allowed) {
    const content = `The user did not allow this action (${verdict.reason}). Do not try it again; choose another way or tell the user what you need.`;
    report('denied', { content, preview: verdict.reason, masked });
    deps.gate.settled?.(gateCall, gateScope, verdict, { status: 'denied', summary: verdict.reason });
    return { ok: false, content };
  }

  report('running', { masked });
  const started = now();
  const result = await runWithTimeout(() => tool.run(args, { signal: combined(signal, tool.timeoutMs), conversationId: scope.conversationId, task: scope.task }), tool.timeoutMs, signal);
  const content = truncateResult(result.content, deps.limits.toolResultChars);
  const durationMs = now() - started;
  report(result.ok ? 'done' : 'failed', { content, preview: result.preview ?? firstLine(content), previewText: result.previewText, durationMs, masked });
  deps.gate.settled?.(gateCall, gateScope, verdict, { status: result.ok ? 'done' : 'failed', durationMs, summary: result.preview ?? firstLine(content) });
  if (tool.risk !== 'read') deps.dedup.clear();
  deps.dedup.remember(signature, firstLine(content));
  return { ...result, content };
}

function combined(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
}

/** Races the tool against its timeout and Stop, so even a tool that ignores its signal ends. */
async function runWithTimeout(run: () => Promise<ToolResult>, timeoutMs: number, signal: AbortSignal): Promise<ToolResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<ToolResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, content: `The tool did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`, ...previewOf(say('previewTimedOut')) }), timeoutMs);
    onAbort = () => resolve({ ok: false, content: 'Stopped by the user.', ...previewOf(say('previewStopped')) });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([
      run().catch((error: unknown): ToolResult => ({ ok: false, content: `The tool failed: ${error instanceof Error ? error.message : String(error)}` })),
      stop,
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
