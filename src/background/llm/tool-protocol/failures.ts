import type { Problem } from './scan';

/**
 * A reply that clearly tries to call a tool but gives no call FoxAgent can run: its markup cannot be
 * read, it names no tool FoxAgent offers, or it was cut off inside an argument. The agent loop answers
 * such a reply with one repair turn.
 */
export interface CallFailure {
  problem: 'unparsable' | 'unknown_tool' | 'cut_off';
  /** The tool's name as the model wrote it, where one could be read. */
  name?: string;
  /** The markup as written, clipped to 2,000 characters. */
  raw: string;
  /** What is wrong, in one English sentence for the model. */
  detail: string;
}

/** The router's event for such a reply, beside its `tool_call` events. */
export interface ToolCallInvalidEvent {
  type: 'tool_call_invalid';
  failure: CallFailure;
}

/** The longest markup a failure quotes back. */
const MAX_FAILURE_RAW = 2000;

const DETAIL: { [P in Problem['problem']]: (name: string | undefined) => string } = {
  unparsable: (name) => `The tool call${name ? ` to "${name}"` : ''} could not be read: write the tool's name and its arguments as one JSON object.`,
  unknown_tool: (name) => `There is no tool named "${name ?? ''}": call one of the tools you were given, by its exact name.`,
  cut_off: (name) => `The reply ended inside the arguments of the tool call${name ? ` to "${name}"` : ''}, so the call was cut off: write it again, complete.`,
};

export function failureOf(problem: Problem, raw: string): CallFailure {
  return {
    problem: problem.problem,
    ...(problem.name ? { name: problem.name } : {}),
    raw: raw.length > MAX_FAILURE_RAW ? raw.slice(0, MAX_FAILURE_RAW) : raw,
    detail: DETAIL[problem.problem](problem.name),
  };
}
