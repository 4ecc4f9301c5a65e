import { say, type Localized } from '../../shared/i18n';
import type { ToolCallMode, ToolTier } from '../../shared/settings';
import { english } from '../english';
import { ANSWER_RESERVE } from '../llm/context-budget';
import { LlmError } from '../llm/errors';
import { prepareImages } from '../llm/images';
import type { LlmRouter } from '../llm/router';
import type { CallFailure } from '../llm/tool-protocol/failures';
import type { LlmMessage, ToolCall, ToolSpec } from '../llm/types';
import type { TaskState } from '../tools/registry';
import { lookCall, VisionFallback, type PageLooker } from '../vision/fallback';
import { offeredTools, takesScreenshots } from '../vision/offer';
import { fitToBudget } from './compaction';
import type { AgentEvent, AgentOutcome, StopKind } from './events';
import { DedupWindow, RepeatGuard, signatureOf } from './guards';
import { executeCall, firstLine, type CallDeps } from './execute-call';
import { toolResultMessage } from './parts';
import { runMoreTools, settleBroken } from './repair-calls';
import { problemOfCall, problemOfFailure, repairMessage, repairNote, type CallProblem } from './repair';
import { chooseTier } from './tool-tier';
import { MORE_TOOLS, ToolOffer } from './tool-offer';

export interface AgentLimits {
  stepLimit: number;
  /** The whole task, in milliseconds. */
  wallClockMs: number;
  /** Characters of one tool result the model gets to read. */
  toolResultChars: number;
  dedupWindow: number;
}

export const DEFAULT_LIMITS: AgentLimits = { stepLimit: 10, wallClockMs: 5 * 60_000, toolResultChars: 6000, dedupWindow: 4 };

export interface AgentDeps extends Omit<CallDeps, 'dedup' | 'limits'> {
  router: LlmRouter;
  emit(event: AgentEvent): void;
  now?: () => number;
  /** The page's layout facts, for looking at it without being asked (vision models only). */
  vision?: PageLooker;
}

export interface AgentTask {
  conversationId: string;
  model: string;
  mode: ToolCallMode;
  /** System prompt, earlier conversation and the user's request. */
  messages: LlmMessage[];
  tabId?: number;
  /** The run's permission scope (its tabs); a fresh one on `tabId` when not given. */
  scope?: TaskState;
  limits?: Partial<AgentLimits>;
  /** The tool set the user chose for this model; by the model's size when unset. */
  toolTier?: ToolTier;
}

const EMPTY_NUDGE =
  'Your last reply was empty. Either call one of the tools to make progress, or answer the user in plain text. If the task is finished, call done.';

/**
 * The bounded agent loop: ask the model, run the calls it makes (each through the permission
 * gate), feed the results back, until it answers, calls done, or a limit or guard stops it.
 * It appends every turn to `task.messages` so the caller can keep the whole exchange.
 */
export async function runAgentLoop(task: AgentTask, deps: AgentDeps, signal: AbortSignal): Promise<AgentOutcome> {
  const limits = { ...DEFAULT_LIMITS, ...task.limits };
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const caps = await deps.router.describe(task.model);
  // Tools that need images are offered only to models that take them; of those, the tier's set.
  const tools = offeredTools(deps.tools, caps);
  const dedup = new DedupWindow(limits.dedupWindow);
  const repeats = new RepeatGuard();
  const callDeps: CallDeps = { ...deps, tools, dedup, limits };
  const tier = chooseTier(task.model, caps, task.toolTier);
  const offer = new ToolOffer(tools, tier.tier);
  const fallback = takesScreenshots(caps) && deps.vision ? new VisionFallback(deps.vision) : undefined;
  let emptyReplies = 0;
  // The previous step was a repair turn: a second broken call in a row ends the task.
  let repairing = false;
  const state: TaskState = task.scope ?? { tabId: task.tabId, startTabId: task.tabId, openedTabs: new Set() };
  // The user's words and the untrusted words (pages, tool results) of this task, for the gate.
  const context = () => {
    const text = (roles: string[]) => task.messages.filter((m) => roles.includes(m.role)).map((m) => m.content).join('\n');
    return { userText: text(['user']), pageText: text(['system', 'tool']) };
  };

  for (let step = 1; step <= limits.stepLimit; step++) {
    if (signal.aborted) return { kind: 'stopped' };
    if (now() - startedAt > limits.wallClockMs) {
      return stop('time_limit', say('stopTimeLimit', Math.round(limits.wallClockMs / 1000)));
    }
    deps.emit({ type: 'step', step, limit: limits.stepLimit });
    deps.emit({ type: 'tool_tier', tier: offer.tier, reason: offer.widened ? 'asked_for_more' : tier.reason });

    const specs = offer.specs();
    // A page the text cannot describe, or actions that keep failing: the agent looks first.
    const lookReason = await fallback?.due(state.tabId);
    if (lookReason) {
      const call = lookCall(lookReason);
      task.messages.push({ role: 'assistant', content: '', toolCalls: [call] });
      deps.emit({ type: 'assistant', content: '', toolCalls: [call] });
      const result = await executeCall(call, { conversationId: task.conversationId, task: state, context }, callDeps, signal);
      task.messages.push(toolResultMessage(call, result.text, result.images));
      fallback!.saw(call, result.ok);
      if (signal.aborted) return { kind: 'stopped' };
    }

    // Images the router will not send are not counted against the context either.
    const messages = fitToBudget(prepareImages(task.messages, caps.vision === true), caps.contextLength - ANSWER_RESERVE, specs);
    const reply = await callModel(deps, { model: task.model, messages, tools: specs }, task.mode, signal);
    if (signal.aborted) return { kind: 'stopped' };
    task.messages.push({ role: 'assistant', content: reply.text, toolCalls: reply.calls });
    deps.emit({ type: 'assistant', content: reply.text, toolCalls: reply.calls });

    if (!reply.calls.length && !reply.failures.length) {
      if (reply.text.trim()) return { kind: 'answered', text: reply.text };
      if (++emptyReplies > 1) {
        return stop('empty', say('stopEmpty'));
      }
      task.messages.push({ role: 'user', content: EMPTY_NUDGE });
      continue;
    }

    let broken: CallProblem | undefined;
    for (const call of reply.calls) {
      if (broken) {
        task.messages.push(settleBroken(call, undefined, deps.emit));
        continue;
      }
      if (call.name === MORE_TOOLS) {
        task.messages.push(runMoreTools(call, offer, deps.emit));
        continue;
      }
      // A tool the compact set held back, which the model knew of: the whole set from now on.
      if (offer.holdsBack(call.name)) offer.expand();
      broken = problemOfCall(call, deps.tools);
      if (broken) {
        task.messages.push(settleBroken(call, { problem: broken, message: repairMessage(broken, offer) }, deps.emit));
        continue;
      }
      const result = await executeCall(call, { conversationId: task.conversationId, task: state, context }, callDeps, signal);
      // The model reads every result as fenced data, images beside it; the user's timeline shows it as it is.
      task.messages.push(toolResultMessage(call, result.text, result.images));
      fallback?.saw(call, result.ok);
      if (signal.aborted) return { kind: 'stopped' };
      if (result.final) return { kind: 'done', summary: result.text };
      if (result.question) return { kind: 'asked_user', question: result.question };
      // A repeatable call (scroll…) is the same step again only if it changed nothing.
      const outcome = tools.get(call.name)?.repeatable ? ` → ${firstLine(result.text)}` : '';
      const stuck = repeats.record(signatureOf(call.name, call.arguments) + outcome);
      if (stuck) {
        return stop('repeat', say('stopRepeat', stuck.join(' → ')));
      }
    }

    // A native call was answered in place (its result is the repair); a text failure is answered in a message.
    const failure = reply.failures[0];
    const textProblem = !broken && failure ? problemOfFailure(failure) : undefined;
    broken ??= textProblem;
    if (broken && repairing) return stop('invalid_call', say('stopInvalidCall', broken.name ?? '?'));
    if (textProblem) task.messages.push({ role: 'user', content: repairMessage(textProblem, offer) });
    if (broken) deps.emit({ type: 'repair', problem: broken.kind, ...(broken.name !== undefined ? { name: broken.name } : {}), text: repairNote(broken) });
    repairing = broken !== undefined;
  }
  return stop('step_limit', say('stopStepLimit', limits.stepLimit));
}

/** A stop the user is told about: in their language where it is shown, in English in `message`. */
function stop(kind: StopKind, text: Localized): AgentOutcome {
  return { kind, message: english(text), text };
}

async function callModel(deps: AgentDeps, request: { model: string; messages: LlmMessage[]; tools: ToolSpec[] }, mode: ToolCallMode, signal: AbortSignal) {
  let text = '';
  const calls: ToolCall[] = [];
  const failures: CallFailure[] = [];
  try {
    for await (const event of deps.router.chat(request, mode, signal)) {
      if (event.type === 'text') {
        text = event.reset ? event.delta : text + event.delta;
        deps.emit(event.reset ? { type: 'text', delta: event.delta, reset: true } : { type: 'text', delta: event.delta });
      } else if (event.type === 'tool_call') {
        calls.push(event.call);
      } else if (event.type === 'tool_call_invalid') {
        failures.push(event.failure);
      } else if (event.type === 'tool_mode' || event.type === 'retrying') {
        deps.emit(event);
      }
    }
  } catch (error) {
    if (signal.aborted || (error instanceof LlmError && error.code === 'aborted')) return { text, calls: [], failures: [] };
    throw error;
  }
  return { text, calls, failures };
}
