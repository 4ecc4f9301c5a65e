import { say, type Localized } from '../../shared/i18n';
import type { ResultPart } from '../../shared/tool-parts';
import type { LlmImage, ToolCall } from '../llm/types';
import { partsOf, type ToolReply } from '../tools/parts';
import { previewOf, type TaskState, type ToolRegistry } from '../tools/registry';
import type { AgentEvent } from './events';
import { boundParts, hasRichParts, renderForModel } from './parts';
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

/** A call's outcome: its parts, bounded, and what the model reads of them. */
export interface CallResult {
  ok: boolean;
  parts: ResultPart[];
  /** The parts as text (images named in place), not yet fenced. */
  text: string;
  images: LlmImage[];
  preview?: string;
  previewText?: Localized;
  final?: boolean;
  question?: string;
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
export async function executeCall(call: ToolCall, scope: CallScope, deps: CallDeps, signal: AbortSignal): Promise<CallResult> {
  const now = deps.now ?? Date.now;
  const report = (status: ToolEvent['status'], extra: Partial<ToolEvent> = {}) => deps.emit({ ...extra, type: 'tool', call, status });
  /** A call that does not run: the timeline shows `shown`, the model reads `content`. */
  const refuse = (status: ToolEvent['status'], content: string, shown: { preview: string; previewText?: Localized }, extra: Partial<ToolEvent> = {}): CallResult => {
    report(status, { content, ...shown, ...extra });
    return settle({ ok: false, content, ...shown }, deps.limits.toolResultChars);
  };
  report('pending');

  const checked = deps.tools.validate(call);
  if (!checked.ok) return refuse('failed', checked.error, previewOf(say('previewInvalidArguments')));
  const { tool, args } = checked;
  const signature = signatureOf(call.name, args);
  const earlier = tool.risk === 'read' || tool.repeatable || tool.ends ? undefined : deps.dedup.find(signature);
  if (earlier !== undefined) {
    const content = `Not repeated: you made this exact call just before. Its result was: ${earlier}\nDo the next step instead, or call done if the task is finished.`;
    return refuse('skipped', content, previewOf(say('previewRepeated')));
  }

  const gateCall = { tool, args, call };
  const gateScope: GateScope = { conversationId: scope.conversationId, tabId: scope.task.tabId, task: scope.task, context: scope.context };
  const verdict = await deps.gate.decide(gateCall, gateScope, (masked) => report('waiting_permission', { masked }), signal);
  const { masked } = verdict;
  if (!verdict.allowed) {
    const content = `The user did not allow this action (${verdict.reason}). Do not try it again; choose another way or tell the user what you need.`;
    const denied = refuse('denied', content, { preview: verdict.reason, ...(verdict.reasonText ? { previewText: verdict.reasonText } : {}) }, { masked });
    deps.gate.settled?.(gateCall, gateScope, verdict, { status: 'denied', summary: verdict.reason });
    return denied;
  }

  report('running', { masked });
  const started = now();
  const reply = await runWithTimeout(() => tool.run(args, { signal: combined(signal, tool.timeoutMs), conversationId: scope.conversationId, task: scope.task }), tool.timeoutMs, signal);
  // A tool that ends the task (done, return_fields) ends it when it succeeds, with its text as the summary.
  const result = settle(tool.ends && reply.ok ? { ...reply, final: true } : reply, deps.limits.toolResultChars);
  const durationMs = now() - started;
  const preview = result.preview ?? firstLine(result.text);
  report(result.ok ? 'done' : 'failed', { content: result.text, preview, previewText: result.previewText, durationMs, masked, ...(hasRichParts(result.parts) ? { parts: result.parts } : {}) });
  deps.gate.settled?.(gateCall, gateScope, verdict, { status: result.ok ? 'done' : 'failed', durationMs, summary: preview });
  if (tool.risk !== 'read') deps.dedup.clear();
  deps.dedup.remember(signature, firstLine(result.text));
  return result;
}

/** A tool's reply as the loop carries it: parts bounded, rendered for the model. */
function settle(reply: ToolReply, textChars: number): CallResult {
  const parts = boundParts(partsOf(reply), textChars);
  const { text, images } = renderForModel(parts);
  const { ok, preview, previewText, final, question } = reply;
  return { ok, parts, text, images, ...(preview !== undefined ? { preview } : {}), ...(previewText ? { previewText } : {}), ...(final ? { final } : {}), ...(question !== undefined ? { question } : {}) };
}

function combined(signal: AbortSignal, timeoutMs: number): AbortSignal {
  return AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
}

/** Races the tool against its timeout and Stop, so even a tool that ignores its signal ends. */
async function runWithTimeout(run: () => Promise<ToolReply>, timeoutMs: number, signal: AbortSignal): Promise<ToolReply> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<ToolReply>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, content: `The tool did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped.`, ...previewOf(say('previewTimedOut')) }), timeoutMs);
    onAbort = () => resolve({ ok: false, content: 'Stopped by the user.', ...previewOf(say('previewStopped')) });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([
      run().catch((error: unknown): ToolReply => ({ ok: false, content: `The tool failed: ${error instanceof Error ? error.message : String(error)}` })),
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
