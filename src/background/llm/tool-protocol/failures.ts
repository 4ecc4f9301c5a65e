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
