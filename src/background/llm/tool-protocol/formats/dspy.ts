/**
 * DSPy's ReAct through its chat adapter: each output field under a header of its own, `[[ ## field ## ]]`, the call in
 * two of them and `[[ ## completed ## ]]` after the last:
 *
 *     [[ ## next_thought ## ]]
 *     I need the flights first.
 *
 *     [[ ## next_tool_name ## ]]
 *     fetch_flight_info
 *
 *     [[ ## next_tool_args ## ]]
 *     {"origin": "SFO", "destination": "JFK"}
 *
 *     [[ ## completed ## ]]
 *
 * The thought is the text the user sees; its header goes, as the stream filter drops it. Each header starts its line.
 * Other fields (`[[ ## reasoning ## ]]`, `[[ ## answer ## ]]`) are an answer's, and stay as written.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { isRecord, jsonEnding, parseLooseJson } from '../values';

/** Any field's header on a line of its own. */
const HEADER = /^[ \t]*\[\[ ## ([\w ]{1,40}) ## \]\][ \t]*$/gm;

export const dspy: Detector = (ctx) => {
  const headers = [...matchesOf(HEADER, ctx.text)].filter((m) => !ctx.isProtected(m.index));
  if (!headers.some((h) => h[1] === 'next_tool_name' || h[1] === 'next_thought')) return [];
  const spans: Span[] = [];
  for (let k = 0; k < headers.length; k++) {
    const h = headers[k]!;
    if (h[1] === 'next_thought') spans.push({ start: h.index, end: h.index + h[0].length, calls: [] });
    if (h[1] !== 'next_tool_name') continue;
    const call = callAt(ctx, headers, k);
    spans.push(call.span);
    k = call.last;
  }
  return spans;
};

/** The call whose name field's header is `headers[k]`: its span, and the index of the last header it takes. */
function callAt(ctx: ScanContext, headers: readonly RegExpExecArray[], k: number): { span: Span; last: number } {
  const text = ctx.text;
  const fieldEnd = (i: number) => headers[i + 1]?.index ?? text.length;
  const start = headers[k]!.index;
  const name = text.slice(headers[k]!.index + headers[k]![0].length, fieldEnd(k)).trim();
  const argsHeader = headers[k + 1]?.[1] === 'next_tool_args' ? k + 1 : -1;
  let attempt: Attempt;
  let last = k;
  if (!name || name.includes('\n')) attempt = { problem: 'unparsable' };
  else if (argsHeader === -1) attempt = fieldEnd(k) === text.length ? { problem: 'cut_off', name } : { problem: 'unparsable', name };
  else {
    last = argsHeader;
    const body = text.slice(headers[argsHeader]!.index + headers[argsHeader]![0].length, fieldEnd(argsHeader)).trim();
    const atEnd = fieldEnd(argsHeader) === text.length;
    const args = body ? parseLooseJson(body) : undefined;
    if (isRecord(args)) attempt = named(ctx.resolve, name, args);
    else attempt = atEnd && (!body || jsonEnding(body) === 'cut') ? { problem: 'cut_off', name } : { problem: 'unparsable', name };
  }
  // `[[ ## completed ## ]]` after the call ends its turn: it goes with it.
  if (headers[last + 1]?.[1] === 'completed' && !text.slice(fieldEnd(last), headers[last + 1]!.index).trim()) last++;
  const lastHeader = headers[last]!;
  const end = headers[last]![1] === 'completed' ? lastHeader.index + lastHeader[0].length : contentEnd(text, lastHeader.index + lastHeader[0].length, fieldEnd(last));
  return { span: spanOf(start, end, [attempt]), last };
}

/** Where a field's content ends: its last character that is not a blank. */
function contentEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && /\s/.test(text[end - 1]!)) end--;
  return end;
}
