/**
 * The calls of a reply the loop answers itself, without running a tool: a broken call (its answer
 * is the repair message), a call after a broken one (not run), and `more_tools`. Each gets a
 * timeline row and the tool result its call id needs on the wire.
 */
import { say } from '../../shared/i18n';
import type { LlmMessage, ToolCall } from '../llm/types';
import { previewOf } from '../tools/registry';
import type { AgentEvent } from './events';
import { NOT_RUN, type CallProblem } from './repair';
import { moreToolsReply, type ToolOffer } from './tool-offer';

type Emit = (event: AgentEvent) => void;

/** FoxAgent's own words back to the model, not page data: sent as they are, unfenced. */
function answer(call: ToolCall, content: string): LlmMessage {
  return { role: 'tool', content, toolCallId: call.id, name: call.name };
}

/** A broken call (`repair` given) or one after it in the same reply (not run). */
export function settleBroken(call: ToolCall, repair: { problem: CallProblem; message: string } | undefined, emit: Emit): LlmMessage {
  if (!repair) {
    emit({ type: 'tool', call, status: 'skipped', content: NOT_RUN, ...previewOf(say('previewNotRun')) });
    return answer(call, NOT_RUN);
  }
  const shown = previewOf(say(repair.problem.kind === 'unknown_tool' ? 'previewUnknownTool' : 'previewInvalidArguments'));
  emit({ type: 'tool', call, status: 'failed', content: repair.message, ...shown });
  return answer(call, repair.message);
}

/** `more_tools`: the whole tool set from the next step on. */
export function runMoreTools(call: ToolCall, offer: ToolOffer, emit: Emit): LlmMessage {
  emit({ type: 'tool', call, status: 'pending' });
  const added = offer.expand();
  const content = moreToolsReply(added);
  emit({ type: 'tool', call, status: 'done', content, ...previewOf(say('previewMoreTools', added.length)) });
  return answer(call, content);
}
