/** Formats marked by special tokens: DeepSeek, Mistral, Gemma and Llama's python tag. */
import { callFromObject, callsFromJson, matchesOf, type Detector, type ParsedCall, type Span } from '../scan';
import { matchBracket, parseLooseJson, parsePythonCall, splitTopLevel } from '../values';

const BAR = '[｜|]';
const SEP = '[▁_ ]';
const DS_CALLS_BEGIN = new RegExp(`<${BAR}tool${SEP}calls${SEP}begin${BAR}>`, 'i');
const DS_CALLS_END = new RegExp(`<${BAR}tool${SEP}calls${SEP}end${BAR}>`, 'i');
const DS_CALL = new RegExp(`<${BAR}tool${SEP}call${SEP}begin${BAR}>([\\s\\S]*?)(?:<${BAR}tool${SEP}call${SEP}end${BAR}>|(?=<${BAR}tool${SEP}call${SEP}begin${BAR}>)|$)`, 'gi');
const DS_SEP = new RegExp(`<${BAR}tool${SEP}sep${BAR}>`, 'i');

/** DeepSeek: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` + a JSON block (V3), or `name<｜tool▁sep｜>{…}` (V3.1). */
export const deepseek: Detector = (ctx) => {
  const begin = ctx.text.match(DS_CALLS_BEGIN);
  if (!begin || begin.index === undefined || ctx.isProtected(begin.index)) return [];
  const start = begin.index;
  const endMatch = ctx.text.slice(start).match(DS_CALLS_END);
  const end = endMatch?.index !== undefined ? start + endMatch.index + endMatch[0].length : ctx.text.length;
  const calls: ParsedCall[] = [];
  for (const m of matchesOf(DS_CALL, ctx.text.slice(start, end))) {
    const [left = '', right = ''] = m[1]!.split(DS_SEP);
    let name = left.trim();
    let body = right;
    if (/^function$/i.test(name) || !name) {
      const firstLine = right.match(/^\s*([^\n`{]+)/);
      name = firstLine?.[1]?.trim() ?? '';
      body = right.slice(firstLine?.[0].length ?? 0);
    }
    const json = body.match(/```(?:json)?\s*([\s\S]*?)(?:```|$)/)?.[1] ?? body;
    const resolved = ctx.resolve(name);
    const args = parseLooseJson(json);
    if (resolved && args && typeof args === 'object' && !Array.isArray(args)) calls.push({ name: resolved, arguments: args });
  }
  return calls.length ? [{ start, end, calls }] : [];
};

/** Mistral: `[TOOL_CALLS] [{"name":…,"arguments":…}]` or `[TOOL_CALLS]name[ARGS]{…}`. */
export const mistral: Detector = (ctx) => {
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(/\[TOOL_CALLS\]/g, ctx.text)) {
    // A marker inside the stretch the last one read is part of it.
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    let i = m.index + m[0].length;
    const rest = ctx.text.slice(i);
    let lead = 0;
    while (/\s/.test(rest[lead] ?? '')) lead++;
    if (rest[lead] === '[' || rest[lead] === '{') {
      const end = matchBracket(ctx.text, i + lead);
      const stop = end === -1 ? ctx.text.length : end;
      // [TOOL_CALLS] is a special token: always markup. A list cut off at the end gives no calls.
      const calls = end === -1 ? undefined : callsFromJson(parseLooseJson(ctx.text.slice(i + lead, stop)), ctx.resolve);
      spans.push({ start: m.index, end: stop, calls: calls ?? [] });
      covered = stop;
      continue;
    }
    const named = rest.match(/^\s*([\w.-]+)(?:\[CALL_ID\][\w-]*)?\[ARGS\]\s*/);
    if (!named) continue;
    i += named[0].length;
    const end = ctx.text[i] === '{' ? matchBracket(ctx.text, i) : -1;
    const stop = end === -1 ? ctx.text.length : end;
    covered = stop;
    const name = ctx.resolve(named[1]!);
    const args = parseLooseJson(ctx.text.slice(i, stop));
    if (name && args && typeof args === 'object' && !Array.isArray(args)) spans.push({ start: m.index, end: stop, calls: [{ name, arguments: args }] });
  }
  return spans;
};

/** Gemma: `<|tool_call>call:name{key:<|"|>text<|"|>, n:1}<tool_call|>`. */
export const gemma: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  // The body runs from its `{` to the first `}` that has only blanks and then `<tool_call|>` (or
  // the end of the text) after it. Those places are found once, so no opener re-reads the text.
  const ends: number[] = [];
  for (const m of matchesOf(/<tool_call\|>/g, text)) {
    const brace = lastBeforeBlanks(text, m.index);
    if (text[brace] === '}') ends.push(brace);
  }
  const last = lastBeforeBlanks(text, text.length);
  if (text[last] === '}') ends.push(last);
  let e = 0;
  let covered = 0;
  for (const m of matchesOf(/<\|tool_call>/g, text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const head = /\s*call:([\w.-]+)\s*\{/y;
    head.lastIndex = m.index + m[0].length;
    const h = head.exec(text);
    if (!h) continue;
    const open = head.lastIndex - 1;
    while (e < ends.length && ends[e]! <= open) e++;
    if (e >= ends.length) continue;
    const close = ends[e]!;
    let end = close + 1;
    while (/\s/.test(text[end] ?? '')) end++;
    if (text.startsWith('<tool_call|>', end)) end += '<tool_call|>'.length;
    covered = end;
    const name = ctx.resolve(h[1]!);
    // <|"|> delimits strings; make them JSON strings, then read the rest leniently.
    const body = text.slice(open, close + 1).replace(/<\|"\|>([\s\S]*?)<\|"\|>/g, (_all, s: string) => JSON.stringify(s));
    const args = parseLooseJson(body);
    if (name && args && typeof args === 'object' && !Array.isArray(args)) spans.push({ start: m.index, end, calls: [{ name, arguments: args }] });
  }
  return spans;
};

/** Index of the last character before `at` that is not whitespace (-1 if none). */
function lastBeforeBlanks(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  return i;
}

/** Llama 3.x: `<|python_tag|>` then JSON call(s) separated by `;`, or a Python call. */
export const pythonTag: Detector = (ctx) => {
  const m = ctx.text.match(/<\|python_tag\|>/);
  if (!m || m.index === undefined || ctx.isProtected(m.index)) return [];
  const bodyEnd = ctx.text.search(/<\|(eom_id|eot_id)\|>/);
  const end = bodyEnd === -1 ? ctx.text.length : bodyEnd;
  const body = ctx.text.slice(m.index + m[0].length, end).trim();
  const calls: ParsedCall[] = [];
  for (const part of splitTopLevel(body.replace(/;/g, ','))) {
    const piece = part.trim();
    if (!piece) continue;
    const call = piece.startsWith('{') ? callFromObject(parseLooseJson(piece) ?? null, ctx.resolve) : pythonCallOf(piece, ctx.resolve);
    if (!call) return [];
    calls.push(call);
  }
  return calls.length ? [{ start: m.index, end, calls }] : [];
};

export function pythonCallOf(text: string, resolve: (n: string) => string | undefined): ParsedCall | undefined {
  const call = parsePythonCall(text);
  const name = call && resolve(call.name);
  return call && name ? { name, arguments: call.arguments } : undefined;
}
