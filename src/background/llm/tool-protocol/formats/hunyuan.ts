/**
 * Hunyuan 3 (Hy3): `<tool_call>name<tool_sep>` then JSON arguments or GLM-style
 * `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs, ended by `</tool_call>` or
 * `<end_of_tool_call>`, the calls optionally wrapped in `<tool_calls>…</tool_calls>`. Checkpoints
 * put a suffix on every tag (`<tool_call:opensource>`); vLLM's and mlx servers' parsers accept any.
 * `<tool_sep>` marks the family: nothing else writes it.
 */
import { matchesOf, named, pairHeadsWithEnds, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { isRecord, jsonEnding, parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';
import { requiresArguments } from '../tools';

const SUFFIX = '(?::[\\w-]{1,20})?';
const HEAD = new RegExp(`<tool_call${SUFFIX}>\\s*([\\w.-]{1,100})\\s*<tool_sep${SUFFIX}>`, 'gi');
const END = new RegExp(`<\\/tool_call${SUFFIX}>|<end_of_tool_call${SUFFIX}>`, 'gi');
const WRAP_OPEN = new RegExp(`<tool_calls${SUFFIX}>\\s*$`, 'i');
const WRAP_CLOSE = new RegExp(`^\\s*<\\/tool_calls${SUFFIX}>`, 'i');
const PAIR = new RegExp(`<arg_key${SUFFIX}>([\\s\\S]*?)<\\/arg_key${SUFFIX}>\\s*<arg_value${SUFFIX}>([\\s\\S]*?)(<\\/arg_value${SUFFIX}>|$)`, 'gi');

/** One call's arguments: a JSON object, or key/value pairs; a cut one when the reply ended inside it. */
function callOf(ctx: ScanContext, name: string, body: string, closed: boolean): Attempt {
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    if (!closed && jsonEnding(trimmed) === 'cut') return { problem: 'cut_off', name };
    const json = parseLooseJson(trimmed);
    return isRecord(json) ? named(ctx.resolve, name, json as Record<string, unknown>) : { problem: 'unparsable', name };
  }
  // The reply ended right after the separator: a tool that requires arguments was cut before they came.
  if (!closed && !trimmed && requiresArguments(ctx.tools.schemaOf(ctx.resolve(name) ?? name))) return { problem: 'cut_off', name };
  const args: Record<string, unknown> = {};
  for (const m of matchesOf(PAIR, body)) {
    if (!m[3]) return { problem: 'cut_off', name };
    args[m[1]!.trim()] = new XmlNode(m[2]!, 'none');
  }
  // Words where the arguments go, neither JSON nor pairs: no arguments can be read from them.
  if (trimmed && !Object.keys(args).length) return { problem: closed ? 'unparsable' : 'cut_off', name };
  return named(ctx.resolve, name, args);
}

export const hunyuan: Detector = (ctx) => {
  const heads = [...matchesOf(HEAD, ctx.text)].filter((m) => !ctx.isProtected(m.index));
  const ends = [...matchesOf(END, ctx.text)];
  return pairHeadsWithEnds(heads, ends, ctx.text.length).map(({ head, from, end, to, stop: callStop }) => {
    let start = head.index;
    let stop = callStop;
    // The wrapper around the calls belongs to them: its opening before the first, its closing after the last.
    const opening = WRAP_OPEN.exec(ctx.text.slice(Math.max(0, start - 40), start));
    if (opening) start -= opening[0].length;
    const closing = WRAP_CLOSE.exec(ctx.text.slice(stop, stop + 40));
    if (closing) stop += closing[0].length;
    return spanOf(start, stop, [callOf(ctx, head[1]!, ctx.text.slice(from, to), end !== undefined)], 'token');
  });
};
