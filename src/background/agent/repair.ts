/**
 * The repair turn: a reply that tries to call a tool but gives no call that can run (unreadable
 * markup, a tool that does not exist, arguments that are not JSON or fail the tool's schema, a
 * call cut off) is answered with one short message naming the problem and the shape expected:
 * that tool's parameters, or the names of the tools (never the whole catalogue again). The same
 * for native calls and for calls written as text.
 */
import { say, type Localized, type MessageKey } from '../../shared/i18n';
import type { CallFailure } from '../llm/tool-protocol/failures';
import type { ToolCall } from '../llm/types';
import type { ToolRegistry } from '../tools/registry';
import { shapeOf } from './call-shape';
import type { ToolOffer } from './tool-offer';
import { clip } from '../clip';

export type RepairKind = CallFailure['problem'] | 'invalid_arguments';

/** What was wrong with a reply's call, in words for the model. */
export interface CallProblem {
  kind: RepairKind;
  /** The tool's name as the model wrote it, clipped. */
  name?: string;
  /** One sentence for the model. */
  detail: string;
  /** Where the call came from: a native call gets its answer as the call's result, a text one as a message. */
  native: boolean;
}

const MAX_NAME = 64;
const MAX_DETAIL = 300;
const TEXT_FORM = 'Write the call as <tool_call>{"name": "TOOL_NAME", "arguments": {…}}</tool_call>.';

/** The problem with a call the loop was handed, if any: a tool not offered, or arguments its schema refuses. */
export function problemOfCall(call: ToolCall, tools: ToolRegistry): CallProblem | undefined {
  const name = clip(call.name, MAX_NAME);
  const native = call.raw === undefined;
  const tool = tools.get(call.name);
  // Any registered tool counts, also one the compact set held back (the loop widens the set for it).
  if (!tool) return { kind: 'unknown_tool', name, detail: `There is no tool named ${JSON.stringify(name)}.`, native };
  if (call.argumentsError) return { kind: 'invalid_arguments', name, detail: `The arguments of ${name} were not a valid JSON object.`, native };
  const checked = tool.check(call.arguments);
  if (!checked.ok) return { kind: 'invalid_arguments', name, detail: clip(`Invalid arguments for ${name}: ${checked.problems}.`, MAX_DETAIL), native };
  return undefined;
}

/** The problem a text reply's failure (from the router) stands for. */
export function problemOfFailure(failure: CallFailure): CallProblem {
  const name = failure.name === undefined ? undefined : clip(failure.name, MAX_NAME);
  return { kind: failure.problem, ...(name !== undefined ? { name } : {}), detail: clip(failure.detail, MAX_DETAIL), native: false };
}

/**
 * The one corrective message: the problem, then the expected shape. A tool the compact set held
 * back is offered from now on (`offer.expand`), and the message says so.
 */
export function repairMessage(problem: CallProblem, offer: ToolOffer): string {
  const lines = [...problemLines(problem, offer), ...(problem.native ? [] : [TEXT_FORM])];
  return lines.join('\n');
}

function problemLines(problem: CallProblem, offer: ToolOffer): string[] {
  const { kind, name } = problem;
  if (kind === 'unknown_tool' && name !== undefined && offer.holdsBack(name)) {
    offer.expand();
    const added = offer.specs().find((s) => s.name === name);
    return [`Your tool call was not run: ${name} was not in your tool list. It is now: ${added ? shapeOf(added) : name}. Call it again.`];
  }
  const said = `Your tool call was not run. ${problem.detail}`;
  const spec = name === undefined ? undefined : offer.specs().find((s) => s.name === name);
  if (kind === 'unknown_tool' || !spec) return [said, `The tools are: ${offer.names().join(', ')}. Call one of them.`];
  return [said, `${spec.name} takes ${shapeOf(spec)}. Call it again with ${kind === 'cut_off' ? 'the whole call' : 'fixed arguments'}.`];
}

const NOTES: Record<RepairKind, MessageKey> = {
  unknown_tool: 'repairUnknownTool',
  invalid_arguments: 'repairInvalidArguments',
  unparsable: 'repairUnparsable',
  cut_off: 'repairCutOff',
};

/** The timeline's row for a repair, in the user's language. */
export function repairNote(problem: CallProblem): Localized {
  return say(NOTES[problem.kind], problem.name ?? '?');
}

/** A call after a broken one in the same reply is not run: the model makes it again once the broken one is fixed. */
export const NOT_RUN = 'Not run: a call before it in the same reply was broken. Make this call again after fixing that one, if it is still needed.';

