/** Formats marked by special tokens: DeepSeek, Mistral, GPT-OSS and Llama's python tag (Gemma: gemma.ts). */
import { isCall, matchesOf, named, spanOf, type Attempt, type Detector, type ParsedCall, type ScanContext, type Span } from '../scan';
import { attemptFromObject, attemptsFromJson } from '../call-objects';
import { JsonRunScan } from '../value-scans';
import { invokesIn } from './invoke';
import { isRecord, jsonEnding, matchBracket, parseLooseJson, splitTopLevel, type Json } from '../values';
import { parsePythonCall } from '../python-calls';

const BAR = '[｜|]';
const SEP = '[▁_ ]';
const DS_CALLS_BEGIN = new RegExp(`<${BAR}tool${SEP}calls${SEP}begin${BAR}>`, 'i');
const DS_CALLS_END = new RegExp(`<${BAR}tool${SEP}calls${SEP}end${BAR}>`, 'i');
const DS_CALL = new RegExp(`<${BAR}tool${SEP}call${SEP}begin${BAR}>([\\s\\S]*?)(?:<${BAR}tool${SEP}call${SEP}end${BAR}>|(?=<${BAR}tool${SEP}call${SEP}begin${BAR}>)|$)`, 'gi');
const DS_CALL_BEGIN = new RegExp(`<${BAR}tool${SEP}call${SEP}begin${BAR}>`, 'i');
const DS_SEP = new RegExp(`<${BAR}tool${SEP}sep${BAR}>`, 'i');
const DS_CALL_END = new RegExp(`<${BAR}tool${SEP}call${SEP}end${BAR}>$`, 'i');

/** One DeepSeek call's inside (between its begin and end tokens): `name<｜tool▁sep｜>{…}`, or `function<｜tool▁sep｜>name` + a JSON block. */
function deepseekCall(ctx: ScanContext, inside: string, open: boolean): Attempt[] {
  if (!DS_SEP.test(inside)) return [{ problem: 'unparsable' }];
  const [left = '', right = ''] = inside.split(DS_SEP);
  // Step-3 writes the call as `function<｜tool_sep｜><steptml:invoke name="…">` with parameter elements.
  if (/^\s*<[\w-]{1,20}:invoke\s/.test(right)) return invokesIn(ctx, right, open);
  let name = left.trim();
  let body = right;
  if (/^function$/i.test(name) || !name) {
    const firstLine = right.match(/^\s*([^\n`{]+)/);
    name = firstLine?.[1]?.trim() ?? '';
    body = right.slice(firstLine?.[0].length ?? 0);
  }
  const json = body.match(/```(?:json)?\s*([\s\S]*?)(?:```|$)/)?.[1] ?? body;
  const args = parseLooseJson(json);
  if (open && jsonEnding(json.trim()) === 'cut') return [{ problem: 'cut_off', name }];
  if (isRecord(args)) return [named(ctx.resolve, name, args)];
  return [{ problem: 'unparsable', name }];
}

/**
 * DeepSeek: `<｜tool▁call▁begin｜>function<｜tool▁sep｜>name` + a JSON block (V3, R1), or
 * `name<｜tool▁sep｜>{…}` (V3.1), inside `<｜tool▁calls▁begin｜>…<｜tool▁calls▁end｜>`; Step-3's
 * `<steptml:invoke>` after the separator. A server may strip the section's tokens: calls then stand
 * on their own tokens.
 */
export const deepseek: Detector = (ctx) => {
  const begin = ctx.text.match(DS_CALLS_BEGIN);
  if (!begin || begin.index === undefined) return deepseekBareCalls(ctx);
  if (ctx.isProtected(begin.index)) return [];
  const start = begin.index;
  const endMatch = ctx.text.slice(start).match(DS_CALLS_END);
  const end = endMatch?.index !== undefined ? start + endMatch.index + endMatch[0].length : ctx.text.length;
  const attempts: Attempt[] = [];
  // Calls still open at the very end of the reply were cut off.
  const open = endMatch?.index === undefined;
  const block = ctx.text.slice(start + begin[0].length, end - (open ? 0 : endMatch[0].length));
  // A block without its per-call markers holds one call, `name<｜tool▁sep｜>{…}`; cut off if it ends before its arguments.
  if (!DS_CALL_BEGIN.test(block)) {
    const [name = '', json = ''] = block.split(DS_SEP);
    if (!block.trim()) return [spanOf(start, end, [{ problem: open ? 'cut_off' : 'unparsable' }], 'anywhere')];
    const args = parseLooseJson(json);
    const attempt: Attempt = isRecord(args) ? named(ctx.resolve, name.trim(), args) : { problem: open ? 'cut_off' : 'unparsable', name: name.trim() };
    return [spanOf(start, end, [attempt], 'anywhere')];
  }
  for (const m of matchesOf(DS_CALL, ctx.text.slice(start, end))) attempts.push(...deepseekCall(ctx, m[1]!, open));
  // DeepSeek's tokens are its own: they count wherever they stand outside code and reasoning.
  return attempts.length ? [spanOf(start, end, attempts, 'anywhere')] : [];
};

/** DeepSeek calls without the section's tokens: each from its begin token to its end token (or the end of the reply). */
function deepseekBareCalls(ctx: ScanContext): Span[] {
  const spans: Span[] = [];
  for (const m of matchesOf(DS_CALL, ctx.text)) {
    // Without its separator, the token is only named (in prose about DeepSeek): no call, and no failed one.
    if (ctx.isProtected(m.index) || !DS_SEP.test(m[1]!)) continue;
    const open = m.index + m[0].length === ctx.text.length && !DS_CALL_END.test(m[0]);
    spans.push(spanOf(m.index, m.index + m[0].length, deepseekCall(ctx, m[1]!, open), 'anywhere'));
  }
  return spans;
}

/** Where a tool name written just before `at` starts (a short backward walk over name characters), or -1. */
function nameBefore(text: string, at: number): number {
  let i = at;
  while (i > 0 && at - i < 100 && /[\w.-]/.test(text[i - 1]!)) i--;
  return i < at && /[A-Za-z_]/.test(text[i]!) ? i : -1;
}

/**
 * `{…}` from `at`: the arguments, or the problem (cut off at the end, or unreadable). `wholeLine`:
 * arguments that are no JSON object run to the end of their line (`name[ARGS]not-json`).
 */
export function jsonArgumentsAt(text: string, at: number, wholeLine = false): { end: number; args?: Record<string, unknown>; problem?: 'cut_off' | 'unparsable' } {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] !== '{') {
    const newline = wholeLine ? text.indexOf('\n', i) : i;
    return { end: newline === -1 ? text.length : newline, problem: 'unparsable' };
  }
  const close = matchBracket(text, i);
  const body = text.slice(i, close === -1 ? undefined : close);
  if (close === -1 && jsonEnding(body) === 'cut') return { end: text.length, problem: 'cut_off' };
  const args = parseLooseJson(body);
  const end = close === -1 ? text.length : close;
  return isRecord(args) ? { end, args } : { end, problem: 'unparsable' };
}

/**
 * Mistral: `[TOOL_CALLS] [{"name":…,"arguments":…}]` (v3), and `name[ARGS]{…}` (v11), with or
 * without the `[TOOL_CALLS]` token (servers strip it), several back to back.
 */
export const mistral: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(/\[TOOL_CALLS\]|\[ARGS\]/g, text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    if (m[0] === '[TOOL_CALLS]') {
      let i = m.index + m[0].length;
      while (/\s/.test(text[i] ?? '')) i++;
      if (text[i] !== '[' && text[i] !== '{') {
        // A Python call after the token, as a prompt showing Python calls teaches (`[TOOL_CALLS]web_search("apple", limit=3)`).
        const python = pythonAfterToken(ctx, i);
        if (python) {
          covered = python.end;
          spans.push({ ...python, start: m.index });
          continue;
        }
        // v11 without [ARGS]: `[TOOL_CALLS]name{…}`.
        const name = /^[A-Za-z_][\w.-]{0,99}(?=\s*\{)/.exec(text.slice(i, i + 101));
        if (!name) continue;
        const found = jsonArgumentsAt(text, i + name[0].length);
        covered = found.end;
        spans.push(spanOf(m.index, found.end, [found.args ? named(ctx.resolve, name[0], found.args) : { problem: found.problem!, name: name[0] }], 'token'));
        continue;
      }
      const end = matchBracket(text, i);
      let stop = end === -1 ? text.length : end;
      const body = text.slice(i, stop);
      // [TOOL_CALLS] is a special token: always markup.
      const cut = end === -1 && jsonEnding(body) === 'cut';
      // An element whose arguments are a guess (`{"name": t, "options": {…}}`) is a failure, never a call on the guess.
      const attempts = cut ? undefined : (attemptsFromJson(parseLooseJson(body), ctx.resolve, ctx.tools.schemaOf) ?? pythonListOf(body, ctx));
      if (text.startsWith('[/TOOL_CALLS]', stop)) stop += '[/TOOL_CALLS]'.length;
      // A closed list of calls after the token is a call wherever it stands, words after it too (vLLM's Mistral parser reads it so).
      const closedCalls = end !== -1 && attempts !== undefined && attempts.every(isCall);
      spans.push(spanOf(m.index, stop, attempts ?? [{ problem: cut ? 'cut_off' : 'unparsable' }], closedCalls ? 'anywhere' : 'token'));
      covered = stop;
      continue;
    }
    // name[ARGS]{…} or name[CALL_ID]id[ARGS]{…}; the token before it, if any, belongs to the call.
    let nameEnd = m.index;
    const near = Math.max(0, m.index - 64);
    const idAt = text.slice(near, m.index).lastIndexOf('[CALL_ID]');
    const callId = idAt === -1 ? -1 : near + idAt;
    if (callId !== -1 && /^[\w-]*$/.test(text.slice(callId + 9, m.index))) nameEnd = callId;
    // Tokens decoded with blanks around them (`[TOOL_CALLS] name [ARGS]{…}`, Devstral in OpenVINO Model Server).
    while (nameEnd > 0 && (text[nameEnd - 1] === ' ' || text[nameEnd - 1] === '\t')) nameEnd--;
    const nameStart = nameBefore(text, nameEnd);
    if (nameStart === -1 || nameStart < covered) continue;
    let lead = nameStart;
    while (lead > 0 && (text[lead - 1] === ' ' || text[lead - 1] === '\t')) lead--;
    const start = text.startsWith('[TOOL_CALLS]', lead - 12) ? lead - 12 : nameStart;
    const found = jsonArgumentsAt(text, m.index + m[0].length, true);
    const rawName = text.slice(nameStart, nameEnd);
    covered = found.end;
    spans.push(spanOf(start, found.end, [found.args ? named(ctx.resolve, rawName, found.args) : { problem: found.problem!, name: rawName }], start < nameStart ? 'token' : undefined));
  }
  return spans;
};

/**
 * Llama 3.x: `<|python_tag|>` then JSON call(s) separated by `;`, or a Python call, or a built-in
 * tool's `brave_search.call(query="…")` (a call only of an offered tool of that name). JSON calls
 * of offered tools may be followed by prose (`{"name": …} Done.`): the calls end at their last
 * brace. Code for the code interpreter is not a call of any tool, and stays text. A body ends at
 * `<|eom_id|>` or `<|eot_id|>`; a model that runs on past it (a new header, another tag) may tag
 * another call, read the same way.
 */
export const pythonTag: Detector = (ctx) => {
  const spans: Span[] = [];
  const tags = /<\|python_tag\|>/g;
  for (let m = tags.exec(ctx.text); m; m = tags.exec(ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const bodyAt = m.index + m[0].length;
    const bodyEnd = ctx.text.slice(bodyAt).search(/<\|(eom_id|eot_id|eom|eot)\|>/);
    const end = bodyEnd === -1 ? ctx.text.length : bodyAt + bodyEnd;
    const span = pythonTagAt(ctx, m.index, bodyAt, end);
    if (span) spans.push(span);
    // The body runs to its end token, tags inside it included (Llama 3.2 writes one before each call): each is read once.
    tags.lastIndex = Math.max(tags.lastIndex, end);
  }
  return spans;
};

/** The call markup of the python tag at `start`, its body from `bodyAt` to `end`. */
function pythonTagAt(ctx: ScanContext, start: number, bodyAt: number, end: number): Span | undefined {
  const run = new JsonRunScan(bodyAt).feed(ctx.text.slice(0, end), 0);
  if (run >= 0) {
    const attempts = pythonTagAttempts(ctx, ctx.text.slice(bodyAt, run));
    if (attempts?.length && attempts.every(isCall)) return spanOf(start, run, attempts, 'token');
  }
  const body = ctx.text.slice(bodyAt, end);
  const attempts = pythonTagAttempts(ctx, body) ?? unreadableJsonCall(ctx, body, end === ctx.text.length);
  // Anything else after the tag is code for the code interpreter: a tool FoxAgent does not offer.
  // (Only where the tag starts its line: a tag named in a sentence is prose.)
  if (!attempts) return body.trim() ? spanOf(start, end, [{ problem: 'unknown_tool', name: 'code_interpreter' }]) : undefined;
  return attempts.length ? spanOf(start, end, attempts, 'token') : undefined;
}

/** A body that is a call's JSON which cannot be read (`{"name": "f", "parameters": {"data": "[{"-`): cut off where the reply ended inside it. */
function unreadableJsonCall(ctx: ScanContext, body: string, atEnd: boolean): Attempt[] | undefined {
  const head = /^\s*\{\s*"(?:name|function)"\s*:\s*"([\w.-]{1,100})"\s*,/.exec(body);
  if (!head || !ctx.resolve(head[1]!)) return undefined;
  return [{ problem: atEnd && matchBracket(body, body.indexOf('{')) === -1 ? 'cut_off' : 'unparsable', name: head[1] }];
}

/** The calls in a python tag's body, or undefined when it holds code (not calls); calls may also stand one per line. */
function pythonTagAttempts(ctx: ScanContext, text: string): Attempt[] | undefined {
  const whole = pythonTagList(ctx, text);
  if (whole || !text.trim().includes('\n')) return whole;
  const lines = text.split('\n').filter((line) => line.trim());
  const each = lines.map((line) => pythonTagList(ctx, line));
  return each.every((a) => a?.length) ? each.flatMap((a) => a!) : undefined;
}

function pythonTagList(ctx: ScanContext, text: string): Attempt[] | undefined {
  // Llama 3.2 may write the tag again before each call of several: it separates them, as `;` does.
  const raw = text.replace(/<\|python_tag\|>/g, ';').trim();
  // A Llama 3.2 pythonic list: `[f(a=1), g()]`.
  const body = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  const attempts: Attempt[] = [];
  // Calls separated by `;` or `,`, never those inside a value (`"python -c \"import a; import b\""`).
  for (const part of splitTopLevel(body, ',;')) {
    const piece = part.trim();
    if (!piece) continue;
    if (piece.startsWith('{')) {
      const attempt = attemptFromObject(parseLooseJson(piece) ?? null, ctx.resolve);
      if (!attempt) return undefined;
      attempts.push(attempt);
      continue;
    }
    const call = parsePythonCall(piece);
    if (!call) return undefined;
    attempts.push(named(ctx.resolve, call.name.replace(/\.call$/, ''), call.arguments));
  }
  return attempts;
}

/** Python calls after Mistral's token: one (`name(…)`), its span, or undefined. */
function pythonAfterToken(ctx: ScanContext, at: number): Span | undefined {
  const head = /^[A-Za-z_][\w.-]{0,99}\s*\(/.exec(ctx.text.slice(at, at + 110));
  if (!head) return undefined;
  // The call ends before the next token: a reply of tokens before calls never closed is read once.
  const next = ctx.text.indexOf('[TOOL_CALLS]', at);
  const close = matchBracket(ctx.text, at + head[0].length - 1, next === -1 ? ctx.text.length : next);
  if (close === -1) return undefined;
  const call = parsePythonCall(ctx.text.slice(at, close));
  return call ? spanOf(at, close, [named(ctx.resolve, call.name, call.arguments)], 'token') : undefined;
}

/** A closed list of Python calls (`[f(a=1), g()]`) as attempts; undefined unless every part is one. */
function pythonListOf(body: string, ctx: ScanContext): Attempt[] | undefined {
  const inner = /^\[([\s\S]*)\]$/.exec(body.trim())?.[1];
  if (inner === undefined || !/^\s*[A-Za-z_][\w.-]*\s*\(/.test(inner)) return undefined;
  const calls = splitTopLevel(inner).filter((p) => p.trim()).map((p) => parsePythonCall(p.trim()));
  return calls.every((c) => c !== undefined) ? calls.map((c) => named(ctx.resolve, c!.name, c!.arguments)) : undefined;
}

export function pythonCallOf(text: string, resolve: (n: string) => string | undefined): ParsedCall | undefined {
  const call = parsePythonCall(text);
  const name = call && resolve(call.name);
  return call && name ? { name, arguments: call.arguments } : undefined;
}

/**
 * GPT-OSS (harmony): `<|channel|>commentary to=functions.name <|constrain|>json<|message|>{…}<|call|>`,
 * the recipient also written before the channel; a recipient makes even the analysis channel a call.
 * The analysis channel without one is reasoning (parse.ts). A server that strips the special tokens
 * leaves `commentary to=functions.name json{…}`, glued to the role (`assistantcommentary`) or to the
 * analysis before it: the recipient then must name a function and the arguments follow at once.
 */
export const harmony: Detector = (ctx) => {
  const spans: Span[] = [];
  // The channel may be named again after the recipient (`commentary to=functions.add<|channel|>commentary<|constrain|>…`).
  const HEAD = /(?:<\|start\|>assistant\s*)?(?:to=([\w.:-]{1,100})\s*)?<\|channel\|>\s*(?:commentary|analysis)(?:\s+to=([\w.:-]{1,100}))?(?:\s*<\|channel\|>\s*(?:commentary|analysis))?([^<\n]{0,60})(?:<\|constrain\|>\s*[\w-]{0,20}\s*)?<\|message\|>/g;
  let covered = 0;
  for (const m of matchesOf(HEAD, ctx.text)) {
    // Other words in the header before the recipient (`commentary ANYTHING to=functions.x`): the recipient still names the call.
    const rawName = m[1] ?? m[2] ?? /(?:^|\s)to=([\w.:-]{1,100})\s*$/.exec(m[3]!)?.[1];
    if (!rawName || m.index < covered || ctx.isProtected(m.index)) continue;
    // The message may start on a line of its own (gpt-oss-20b on MLX).
    let body = m.index + m[0].length;
    while (/\s/.test(ctx.text[body] ?? '')) body++;
    const found = jsonArgumentsAt(ctx.text, body);
    // Arguments left open run to the end of the reply: what follows is inside them.
    // A tool whose name holds a blank (`to=functions.Web Search <|constrain|>json`, an LM Studio plugin's): its whole name.
    const spaced = m[2] && m[3]?.trim() ? recipientName(ctx, `${m[2]}${m[3].trimEnd()}`) : undefined;
    const name = spaced && !ctx.resolve(recipientName(ctx, rawName)) && ctx.resolve(spaced) ? spaced : recipientName(ctx, rawName);
    // A recipient that is no offered tool (a built-in such as `container.exec`): its whole message is the unknown call.
    const unknown = !ctx.resolve(name) && name !== 'assistant';
    let end = found.end;
    // A message that is no JSON, or to a recipient that is no offered tool, is the call whole, up to its end.
    if (!found.args && found.problem !== 'cut_off') {
      const stop = ctx.text.slice(found.end).search(/<\|(?:call|end|start)\|>/);
      end = stop === -1 ? ctx.text.length : found.end + stop;
    }
    covered = end;
    if (ctx.text.startsWith('<|call|>', end)) end += '<|call|>'.length;
    // A dispatcher as the recipient (`to=tool_use`) whose message is a whole call of an offered tool: that call.
    const dispatched = unknown && found.args ? attemptFromObject(found.args as Json, ctx.resolve) : undefined;
    const attempt = dispatched && isCall(dispatched) ? dispatched : found.args ? named(ctx.resolve, name, found.args) : unknown ? { problem: 'unknown_tool' as const, name } : { problem: found.problem!, name };
    spans.push(spanOf(m.index, end, [attempt], 'token'));
  }
  // The spans with their tokens, in order, are passed over as the stripped headers are met.
  const withTokens = spans.length;
  let next = 0;
  for (const m of matchesOf(STRIPPED_HARMONY_HEAD, ctx.text)) {
    while (next < withTokens && spans[next]!.end <= m.index) next++;
    const inside = next < withTokens && spans[next]!.start <= m.index;
    // Without the role glued before it, the channel's name starts a word.
    if (inside || m.index < covered || (!m[1] && /[A-Za-z]$/.test(ctx.text.slice(Math.max(0, m.index - 1), m.index))) || ctx.isProtected(m.index)) continue;
    const found = jsonArgumentsAt(ctx.text, m.index + m[0].length);
    const name = recipientName(ctx, m[2]!);
    covered = found.end;
    spans.push(spanOf(m.index, found.end, [found.args ? named(ctx.resolve, name, found.args) : { problem: found.problem!, name }], 'token'));
  }
  return spans;
};

/** Harmony's header with its special tokens stripped, up to the arguments' `{`: `assistantcommentary to=functions.name json`. */
export const STRIPPED_HARMONY_HEAD = /(assistant)?(?:commentary|analysis)[ \t]+to=functions\.([\w.:-]{1,100})[ \t]*(?:<\|constrain\|>)?[ \t]*(?:json|code)?[ \t]*(?:<\|message\|>)?(?=[ \t]*\{)/g;

/** A recipient's tool: `functions.` goes, and a `json` constraint GPT-OSS glued to the name (`to=functions.shelljson`). */
function recipientName(ctx: ScanContext, raw: string): string {
  const name = raw.replace(/^functions\./, '');
  return !ctx.resolve(name) && /.json$/i.test(name) && ctx.resolve(name.slice(0, -4)) ? name.slice(0, -4) : name;
}
