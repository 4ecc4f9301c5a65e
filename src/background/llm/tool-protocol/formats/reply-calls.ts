/**
 * Python call lists (`[f(a=1), g()]`, read wherever bare calls are), and the forms read only where they open or make up
 * the reply: a run of Python calls, calls in bold or as headings, calls after a label (`tools call: …`), GLM-4's name
 * glued to the sentence before its arguments, one call in inline code or in a fence on one line. Used by `bare.ts`.
 */
import { STRIPPED_HEADER, type ParsedCall, type Problem, type ScanContext, type Span } from '../scan';
import { callsFromJson } from '../call-objects';
import { isRecord, matchBracket, parseLooseJson, splitTopLevel } from '../values';
import { parsePythonCall } from '../python-calls';
import { EXAMPLE_LEAD } from './fenced';
import { pythonCallOf } from './special-tokens';

/**
 * A Python call list: every part a call. A part naming a tool that is not offered is an unknown tool,
 * when another part calls an offered one (Mixtral calling a tool it then says it lacks); a list of
 * unknown names only is no call list. So a part that begins as a call of an offered tool but cannot
 * be read (a call expression or a subscript for a value) is an unparsable failure beside the calls
 * read, or cut off when the reply ended inside it, the list never closed (a token limit).
 */
/** A list's inside opening with a quote never closed before its first call (`['uber.ride(loc="…")]`, Llama 3.1 8B): without it. */
function strayQuoteDropped(inner: string | undefined): string | undefined {
  const quote = inner?.trimStart()[0];
  if (inner === undefined || (quote !== "'" && quote !== '"')) return inner;
  const rest = inner.trimStart().slice(1);
  return /^[A-Za-z_][\w.-]{0,99}\s*\(/.test(rest) && !rest.includes(quote) ? rest : inner;
}

/** `Calling tool: name with arguments: {…}`, as a chat client logs a call (Hermes Agent's web UI, MiniMax M2.7 copying it). */
function callingWithArguments(part: string): { name: string; arguments: Record<string, unknown> } | undefined {
  const head = /^Calling tool:\s*([A-Za-z_][\w.-]{0,99})\s+with arguments:\s*(?=\{)/.exec(part);
  const args = head ? parseLooseJson(part.slice(head[0].length)) : undefined;
  return head && isRecord(args) ? { name: head[1]!, arguments: args } : undefined;
}

export function pythonList(text: string, resolve: ScanContext['resolve']): { calls: ParsedCall[]; problems: Problem[] } | undefined {
  const trimmed = text.trim();
  const closed = /^\[([\s\S]*)\]$/.exec(trimmed)?.[1];
  const open = closed === undefined && trimmed.startsWith('[') ? trimmed.slice(1) : undefined;
  const inner = strayQuoteDropped(closed ?? open);
  const parts = (inner === undefined ? [text] : splitTopLevel(inner)).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return undefined;
  const calls: ParsedCall[] = [];
  const problems: Problem[] = [];
  /** Whether the list went on in quoted words after its calls (`[f(a=1), 'g', '5']`, Qwen2.5 1.5B): calls it tried to write. */
  let degraded = false;
  for (const [k, part] of parts.entries()) {
    // Qwen writes `[Calling tool: name({…})]`; a chat client's log line, which models copy, `[Calling tool: name with arguments: {…}]`.
    const call = callingWithArguments(part) ?? parsePythonCall(part.replace(/^Calling tool:\s*/, ''));
    if (!call && calls.length && /^['"]/.test(part)) {
      degraded = true;
      continue;
    }
    if (!call) {
      const head = /^([A-Za-z_][\w.-]{0,99})\s*\(/.exec(part);
      const tried = head ? resolve(head[1]!) : undefined;
      if (!tried) return undefined;
      problems.push({ problem: open !== undefined && k === parts.length - 1 ? 'cut_off' : 'unparsable', name: tried });
      continue;
    }
    const name = resolve(call.name);
    if (name) calls.push({ name, arguments: call.arguments });
    else problems.push({ problem: 'unknown_tool', name: call.name });
  }
  if (degraded) problems.push({ problem: 'unparsable' });
  return calls.length ? { calls, problems } : undefined;
}


/** Words on the line that say where the value comes from (`The page says:`, `I copied this`): the value is quoted, not called. */
export const QUOTING = /\b(?:says?|said|reads?|wrote|writes|shows?|showed|displays?|contains?|copied|quoted?|quoting|pasted?|page|site|website|document|email|message|snippet)\b/i;

/** A Llama 3 header the server left before the reply (`<|start_header_id|>`, with `assistant<|end_header_id|>` or not): where the reply starts after it. */
export function replyStart(text: string): number {
  const header = /^\s*(?:<\|start_header_id\|>(?:assistant<\|end_header_id\|>)?\s*)*/.exec(text)![0];
  return header.length;
}

/** A call's name and its parenthesis; Markdown may have escaped its underscores (`calculate\_area(`). */
const PYTHON_HEAD = /[A-Za-z_](?:[\w.-]|\\_)*[ \t]*\(/y;
/** Between calls: `;` or `,`, or a shell line continuation (` \` and a line break) as Qwen2.5 writes one call per line. */
const PYTHON_SEPARATOR = /[ \t]*(?:[;,]|\\[ \t]*(?:\r?\n|$))?[ \t]*/y;

/**
 * Python calls back to back at `from`, the reply's start: one call (`read_page()`), or several
 * separated by `;` (NexusRaven's `f(a=1); f(a=2);`), `,` (Gorilla OpenFunctions') or a line continuation, ending their line. Each must be a call of an
 * offered tool; the model's words may follow on later lines (Gemma: the call, then what it does).
 */
export function pythonCallRun(ctx: ScanContext, from: number): Span | undefined {
  const text = ctx.text;
  const calls: ParsedCall[] = [];
  let i = from;
  for (;;) {
    PYTHON_HEAD.lastIndex = i;
    const head = PYTHON_HEAD.exec(text);
    if (!head) break;
    const close = matchBracket(text, i + head[0].length - 1);
    const call = close === -1 ? undefined : pythonCallOf(text.slice(i, close), ctx.resolve);
    if (!call) return undefined;
    calls.push(call);
    PYTHON_SEPARATOR.lastIndex = close;
    PYTHON_SEPARATOR.exec(text);
    i = PYTHON_SEPARATOR.lastIndex;
  }
  // Llama 3.1's next header with its tokens stripped (`brave_search.call(…)assistant`) ends the calls' message.
  STRIPPED_HEADER.lastIndex = i;
  if (calls.length && STRIPPED_HEADER.test(text)) i = STRIPPED_HEADER.lastIndex;
  if (!calls.length || (i < text.length && text[i] !== '\n' && text[i] !== '\r')) return undefined;
  // Gemma may write the same calls again below (`Output:` and a fenced list): they count once.
  return { start: from, end: i, calls, once: true, ...(from > 0 && text[from - 1] === '>' ? { glue: 'token' as const } : {}) };
}

/**
 * A line holding one Python call in bold (`**f(a=1)**`) or as a heading (`## f(a=1)`), as Llama 3.2 and Qwen2.5 write them in BFCL;
 * in bold, a list of them too (`**[f(a=1)]**`, Llama 3.2 3B).
 */
const DECORATED_CALL_LINE = /^[ \t]*(?:(\*\*|__)([A-Za-z_][\w.-]{0,99}\(.*\)|\[[ \t]*[A-Za-z_][\w.-]{0,99}\(.*\)[ \t]*\])\1|#{1,6}[ \t]+([A-Za-z_][\w.-]{0,99}\(.*\)))[ \t]*$/;

/** The calls of a decorated line's call or list of calls; undefined unless each is a call of an offered tool. */
function decoratedCalls(written: string, resolve: ScanContext['resolve']): ParsedCall[] | undefined {
  const parts = written.startsWith('[') ? splitTopLevel(written.slice(1, -1)).map((p) => p.trim()).filter(Boolean) : [written];
  const calls = parts.map((part) => pythonCallOf(part, resolve));
  return calls.length && calls.every((c) => c !== undefined) ? (calls as ParsedCall[]) : undefined;
}

/** A reply that is nothing but such lines: a call each, where every one calls an offered tool. */
export function decoratedCallLines(ctx: ScanContext, first: number, tailEnd: number): Span | undefined {
  const calls: ParsedCall[] = [];
  for (const line of ctx.text.slice(first, tailEnd).split('\n')) {
    if (!line.trim()) continue;
    const m = DECORATED_CALL_LINE.exec(line);
    const found = m ? decoratedCalls(m[2] ?? m[3]!, ctx.resolve) : undefined;
    if (!found) return undefined;
    calls.push(...found);
  }
  return calls.length ? { start: first, end: tailEnd, calls } : undefined;
}

/**
 * A label of one to four words and a colon opening the reply, perhaps in bold (`tools call:`, Claude in BFCL's prompt
 * mode; `**Function Calling Response**:`, Qwen2.5): calls may follow it on its line.
 */
const CALL_LABEL = /^[ \t]*(?:\*\*|__)?([A-Za-z][A-Za-z_-]*(?:[ \t]+[A-Za-z][A-Za-z_-]*){0,3})(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]+/;

/** The label opening `text`, where it is one: not words that quote (`Page says:`) or present an example (`Example:`). */
export function callLabel(text: string): RegExpExecArray | undefined {
  const label = CALL_LABEL.exec(text);
  return label && !QUOTING.test(label[1]!) && !EXAMPLE_LEAD.test(label[1]!) ? label : undefined;
}

/** Python calls after a label opening the reply, in a list or not, that run to the reply's end: `tools call: [f(a=1)]`. */
export function afterLabel(ctx: ScanContext, from: number, tailEnd: number): Span | undefined {
  const label = callLabel(ctx.text.slice(from, from + 80));
  if (!label) return undefined;
  const start = from + label[0].length;
  if (ctx.text[start] === '[') {
    const list = matchBracket(ctx.text, start) === tailEnd ? pythonList(ctx.text.slice(start, tailEnd), ctx.resolve) : undefined;
    return list ? { start, end: tailEnd, calls: list.calls, ...(list.problems.length ? { problems: list.problems } : {}), glue: 'tail' } : undefined;
  }
  const run = pythonCallRun(ctx, start);
  return run && run.end >= tailEnd ? { ...run, glue: 'tail' } : undefined;
}

/** A tool's name glued to the end of a sentence, alone on the rest of its line. */
const NAME_AFTER_SENTENCE = /[.!?。]([A-Za-z_][\w.-]{0,99})[ \t]*\n[ \t]*$/;

/**
 * GLM-4's call after its words: the server stripped the `<|assistant|>` token between them, so the tool's name is glued to
 * the last sentence, its arguments on the next line end the reply (`…Let me make the API call.uv_index_get_future⏎{…}`).
 */
export function gluedNameLine(ctx: ScanContext, tailEnd: number): Span | undefined {
  const text = ctx.text;
  const open = text.lastIndexOf('\n{', tailEnd) + 1;
  if (open === 0 || ctx.isProtected(open) || matchBracket(text, open) !== tailEnd) return undefined;
  const lineStart = text.lastIndexOf('\n', open - 2) + 1;
  const head = NAME_AFTER_SENTENCE.exec(text.slice(Math.max(lineStart, open - 200), open));
  const name = head && ctx.resolve(head[1]!);
  const args = name ? parseLooseJson(text.slice(open, tailEnd)) : undefined;
  if (!name || !isRecord(args)) return undefined;
  const start = open - head[0].length + head[0].indexOf(head[1]!);
  return { start, end: tailEnd, calls: [{ name, arguments: args }], glue: 'tail' };
}

/**
 * A reply that is one Python call of an offered tool in inline code and nothing else (`` `text_to_image(text="…")` ``), as
 * prompts that show calls in backticks teach (MetaGPT's), or one JSON call in a fence on one line: the call. Inline code
 * beside words is an example.
 */
export function inlineCodeCall(ctx: ScanContext, first: number, tailEnd: number): Span | undefined {
  const code = /^`([A-Za-z_][\w.-]{0,99}[ \t]*\([^`]*\))`\s*$/.exec(ctx.text.slice(first, tailEnd));
  const call = code ? parsePythonCall(code[1]!) : undefined;
  const name = call && ctx.resolve(call.name);
  if (name) return { start: first, end: tailEnd, calls: [{ name, arguments: call.arguments }] };
  // Or calls' JSON in fences written on one line (```` ```json {…} ``` ````, DeepSeek-Coder-V2 on Ollama; a list, Hammer 2.1),
  // back to back: an empty list after the calls (```` ```[]``` ````, Hammer again) calls nothing more.
  const calls: ParsedCall[] = [];
  const body = ctx.text.slice(first, tailEnd);
  let at = 0;
  for (ONE_LINE_FENCE.lastIndex = 0; at < body.length; at = ONE_LINE_FENCE.lastIndex) {
    const fenced = ONE_LINE_FENCE.exec(body);
    const json = fenced && parseLooseJson(fenced[1]!);
    const found = Array.isArray(json) && !json.length ? [] : json && callsFromJson(json, ctx.resolve, ctx.tools.schemaOf);
    if (!found) return undefined;
    calls.push(...found);
  }
  return calls.length ? { start: first, end: tailEnd, calls } : undefined;
}

/** A call's JSON (an object, or a list) in a fence on one line, as the reply or the next part of it. */
const ONE_LINE_FENCE = /```(?:json)?[ \t]*([{[][^\n`]*[}\]])[ \t]*```[ \t]*/y;
