/**
 * A reply the token limit ended (`finish_reason: "length"`, Ollama's `done_reason: "length"`). The
 * parser closes markup a reply left open, which is right when a stop sequence ended it and wrong
 * when the limit did: `<parameter=text>Hello` may have been going on to `Hello, world`, and
 * `{"id": 1, "text": "a"` to another argument. Such a call is reported as cut off, for the repair
 * turn, instead of run with what the limit left of it.
 *
 * Which calls the reply closed itself is found without knowing their formats: the reply is read
 * again with a probe line after it. A call whose markup was closed stands as it was; a call still
 * open takes the probe into its markup, and changes or goes. Two readings: linear in the reply.
 */
import { failureOf } from './failures';
import { turnEndStart } from './turn-end';
import { parseToolCalls, type ParsedCall, type ParseResult, type ToolInput } from './parse';

/** A line no format closes a call with, and no value holds: it only changes what it is read into. */
const PROBE = '\n\u0001';

export function parseCutReply(reply: string, tools: readonly ToolInput[]): ParseResult {
  const read = parseToolCalls(reply, tools);
  if (!read.calls.length) return read;
  // The probe goes before the end-of-turn tokens the reply closes with, which are read only at its end.
  const end = turnEndStart(reply);
  const probed = parseToolCalls(reply.slice(0, end) + PROBE + reply.slice(end), tools);
  let closed = 0;
  while (closed < read.calls.length && closed < probed.calls.length && sameCall(read.calls[closed]!, probed.calls[closed]!)) closed++;
  // A call the probe changed, or made unreadable, was open. One that only went, with no failure in its place, was a
  // reading of the whole reply (a call in bold, in inline code): the probe made that reply longer, not the call.
  const open = probed.calls.length > closed || probed.failures.length > read.failures.length;
  if (closed === read.calls.length || !open) return read;
  const cut = read.calls.slice(closed).map((call, i) => failureOf({ problem: 'cut_off', name: call.name }, read.raw[closed + i]!));
  return { ...read, calls: read.calls.slice(0, closed), raw: read.raw.slice(0, closed), failures: [...read.failures, ...cut] };
}

function sameCall(a: ParsedCall, b: ParsedCall): boolean {
  return a.name === b.name && JSON.stringify(a.arguments) === JSON.stringify(b.arguments);
}
