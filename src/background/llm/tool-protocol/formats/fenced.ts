/**
 * Fenced blocks that hold a call: ```json / ```tool / ```tool_code / ```tool_call / ``` with a
 * JSON call or Python-style call(s) inside. A fence is the model's call unless the prose that
 * leads into it presents it as an example ("for example", "would look like", "the format is"…):
 * a model explaining a call is not making one.
 */
import { isCall, named, spanOf, type Attempt, type Detector, type ParsedCall, type Problem, type SchemaOf, type Span } from '../scan';
import { attemptsFromJson, callsFromJson } from '../call-objects';
import { nameIn } from './bodies';
import { continueCall } from './continue';
import { isRecord, jsonEnding, parseLooseJson, splitTopLevel, wholeItemsOfCutList } from '../values';
import { parsePythonCall } from '../python-calls';
import { pythonCallOf } from './special-tokens';
import { closersOfCutCall, withTripleQuotesAsJson } from '../python-literals';
import { END_TOKENS } from '../template-tokens';

/** A fenced code block: ``` or ~~~ (three or more) at a line's start, to the same marker alone on a line or the end. */
export interface Fence {
  /** The newline before the opening line (or 0 at the start of the text). */
  open: number;
  /** The opening line's first character. */
  start: number;
  /** Just past the closing marker (and the blanks after it), or the end of the text. */
  end: number;
  lang: string;
  /** The opening line's length, from its marker to its end. */
  lineLength: number;
  body: string;
}

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t';
const isLangChar = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45;

/** Where a fence's marker glued after a closing bracket ends the text (blanks after it aside), or the text's length. */
function gluedCloseAt(text: string, bodyStart: number, marker: string): number {
  let end = text.length;
  while (end > bodyStart && /\s/.test(text[end - 1]!)) end--;
  const at = end - marker.length;
  return at > bodyStart && text.startsWith(marker, at) && (text[at - 1] === ']' || text[at - 1] === '}') ? at : text.length;
}

/**
 * Every fenced block, in one pass over the text. The opening line needs a newline after it (Command R+'s `Action:` may
 * stand before its marker); the closing line holds exactly the opening marker between blanks. An unclosed block runs to the end.
 */
export function findFences(text: string): Fence[] {
  const fences: Fence[] = [];
  const opening = (lineStart: number) => {
    let i = lineStart;
    while (isBlank(text[i])) i++;
    // Command R+ opens its call's fence after `Action:` on the same line, as its template teaches (`Action: \`\`\`json`).
    if (text.startsWith('Action:', i)) {
      let k = i + 7;
      while (isBlank(text[k])) k++;
      if (text[k] === '`' || text[k] === '~') i = k;
    }
    const ch = text[i];
    if (ch !== '`' && ch !== '~') return undefined;
    let j = i;
    while (text[j] === ch) j++;
    if (j - i < 3) return undefined;
    const newline = text.indexOf('\n', j);
    if (newline === -1) return undefined;
    let k = j;
    while (isBlank(text[k])) k++;
    let l = k;
    while (l < newline && isLangChar(text.charCodeAt(l))) l++;
    return { marker: text.slice(i, j), lang: text.slice(k, l), lineLength: newline - i, bodyStart: newline + 1 };
  };
  /** Just past a closing line that starts after the newline at `q`, or -1. */
  const closing = (q: number, marker: string) => {
    let i = q + 1;
    while (isBlank(text[i])) i++;
    if (!text.startsWith(marker, i)) return -1;
    i += marker.length;
    while (isBlank(text[i])) i++;
    // An end-of-turn token the server left after the closing marker (`\`\`\`<|im_end|>`) ends the turn, not the line's text.
    const token = END_TOKENS.find((t) => text.startsWith(t, i));
    if (token) {
      let k = i + token.length;
      while (isBlank(text[k])) k++;
      if (k === text.length || text[k] === '\n') return i;
    }
    return i === text.length || text[i] === '\n' ? i : -1;
  };
  // Candidates: the start of the text, then every newline.
  let newlineAt = -1;
  let atStart = true;
  while (atStart || newlineAt !== -1) {
    let open = 0;
    let found = atStart ? opening(0) : undefined;
    let start = 0;
    if (!found && atStart && text[0] === '\n') {
      found = opening(1);
      start = 1;
    } else if (!atStart) {
      open = newlineAt;
      start = newlineAt + 1;
      found = opening(start);
    }
    atStart = false;
    if (!found) {
      newlineAt = text.indexOf('\n', Math.max(start, newlineAt + 1));
      continue;
    }
    let end = text.length;
    let bodyEnd = text.length;
    // In Python (```tool_code, ```python), a marker line inside a triple-quoted string is the string's: a code edit's Markdown.
    const strings = PYTHON_FENCE_LANGS.has(found.lang.toLowerCase()) ? new TripleQuotes(text, found.bodyStart) : undefined;
    for (let q = text.indexOf('\n', found.bodyStart); q !== -1; q = text.indexOf('\n', q + 1)) {
      if (strings?.openAt(q)) continue;
      const close = closing(q, found.marker);
      if (close !== -1) {
        end = close;
        bodyEnd = q;
        break;
      }
    }
    // Never closed on a line of its own, but the reply ends with the marker glued to the JSON it holds (`]\`\`\``, Command R's
    // multi-hop agent): that marker closes it.
    if (bodyEnd === text.length) bodyEnd = gluedCloseAt(text, found.bodyStart, found.marker);
    fences.push({ open, start, end, lang: found.lang, lineLength: found.lineLength, body: text.slice(found.bodyStart, bodyEnd) });
    newlineAt = end < text.length ? end : -1;
  }
  return fences;
}
/** Fences holding Python, whose triple-quoted strings may hold a fence's marker. */
export const PYTHON_FENCE_LANGS: ReadonlySet<string> = new Set(['tool_code', 'python', 'py']);

/** Python's triple-quoted strings from a point on, asked in order whether one is open at a position: each character is read once. */
class TripleQuotes {
  /** The triple quote open before `next`, or ''. */
  private open = '';
  /** Where the next triple quote that opens or closes one stands (-1: none up to the end). */
  private next: number;
  constructor(private readonly text: string, from: number) {
    this.next = firstTripleQuote(text, from);
  }

  openAt(position: number): boolean {
    while (this.next !== -1 && this.next < position) {
      this.open = this.open ? '' : this.text.slice(this.next, this.next + 3);
      const after = this.next + 3;
      this.next = this.open ? this.text.indexOf(this.open, after) : firstTripleQuote(this.text, after);
    }
    return this.open !== '';
  }
}

/** The first `'''` or `"""` from `from`, or -1. */
function firstTripleQuote(text: string, from: number): number {
  const single = text.indexOf("'''", from);
  const double = text.indexOf('"""', from);
  return single === -1 ? double : double === -1 ? single : Math.min(single, double);
}

/** The longest opening line of a fence that holds a call. */
export const MAX_CALL_FENCE_LINE = 200;
const CALL_LANGS = new Set(['', 'json', 'jsonc', 'tool', 'tools', 'tool_code', 'tool_call', 'tool_calls', 'tool-call', 'python', 'py', 'function', 'function_call', 'xml']);
/** Prose that presents what follows as an example, not as the model's own call. */
export const EXAMPLE_LEAD = /\b(for (example|instance)|e\.g\.|example|such as|would (?:look(?: like)?|be)\s*:?\s*$|looks? like(?: this| so)?\s*:?\s*$|like (this|so)|the (format|syntax|schema) (is|looks)|format:|syntax:|you (can|could|would|should|might) (call|use|write)|here'?s how|to call (it|a tool|the tool)|shape|template|sample|wrapped in|(model|it|llm|assistant) (outputs|emits|returns|responds with|produces|generates))(?!\w)/i;

/**
 * Words presenting code to the user (`Here is an updated version of the code:`): markup after them is what they
 * present, unless the reply ends with it (the corrected call a repair turn asked for).
 */
export const PRESENTED_LEAD = /\b(?:updated|corrected|revised|improved|modified) version\b/i;

/** Prose that presents an example or code: markup after it is a call only if the reply ends with it. */
export const presentsExample = (lead: string) => EXAMPLE_LEAD.test(lead) || PRESENTED_LEAD.test(lead);

/** Words a call fence's body may open with on a line of their own, naming what follows: a label, not code. */
export const BODY_LABELS = ['function_call', 'tool_call', 'tool_code', 'json'];
/** A body's first line naming what follows (` ```tool_code⏎function_call⏎{…} `, Gemma 3 1B). */
export const LABEL_LINE = new RegExp(`^\\s*(?:${BODY_LABELS.join('|')})[ \\t]*\\n(?=\\s*[[{])`, 'i');

function callsInBody(body: string, resolve: (n: string) => string | undefined, schemaOf?: SchemaOf): ParsedCall[] | undefined {
  const trimmed = body.replace(LABEL_LINE, '').trim();
  if (/^[[{]/.test(trimmed)) {
    const json = callsFromJson(parseLooseJson(trimmed), resolve, schemaOf);
    if (json) return json;
    // Several JSON objects, one per line.
    const lines = trimmed.split(/\n(?=[ \t]*\{)/);
    if (lines.length > 1) {
      const calls = lines.map((l) => callsFromJson(parseLooseJson(l), resolve, schemaOf));
      if (calls.every(Boolean)) return calls.flat() as ParsedCall[];
    }
  }
  const parts = callParts(trimmed);
  if (!parts.length) return undefined;
  const calls: ParsedCall[] = [];
  // Gemma's tool code may keep a call's result and print it: `summary = read_file(…)` then `print(summary)`.
  const assigned = new Set<string>();
  for (const part of parts) {
    const printed = PRINTED_NAME.exec(part);
    if (printed && assigned.has(printed[1]!)) continue;
    const assignment = ASSIGNMENT.exec(part);
    const call = pythonCallOf((assignment ? part.slice(assignment[0].length) : part).replace(/^print\((.*)\)$/s, '$1'), resolve);
    if (!call) return undefined;
    if (assignment) assigned.add(assignment[1]!);
    calls.push(call);
  }
  return calls;
}
/** A fence body's calls written as Python: the items of a list, or one per line (a triple-quoted string's lines are its own). */
function callParts(body: string): string[] {
  const code = withTripleQuotesAsJson(body);
  const list = /^\[([\s\S]*)\]$/.exec(code);
  return (list ? splitTopLevel(list[1]!) : code.split(/\n+/)).map((p) => p.trim()).filter(Boolean);
}

/** The whole calls of a JSON call list the reply ended inside; undefined unless there is one and every whole item is a call. */
export function callsOfCutList(body: string, resolve: (n: string) => string | undefined, schemaOf?: SchemaOf): ParsedCall[] | undefined {
  const items = wholeItemsOfCutList(body.replace(LABEL_LINE, ''));
  return items?.length ? callsFromJson(items, resolve, schemaOf) : undefined;
}

/**
 * A JSON call list naming offered tools and others (`[{"name": "click", …}, {"name": "press", …}]`): its calls, and an
 * `unknown_tool` for each other item. Undefined unless it calls an offered tool and every other item only names another.
 */
export function mixedCallList(text: string, resolve: (n: string) => string | undefined, schemaOf?: SchemaOf): Pick<Span, 'calls' | 'problems'> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return undefined;
  const attempts = attemptsFromJson(parseLooseJson(trimmed), resolve, schemaOf);
  if (!attempts?.some(isCall) || !attempts.every((a) => isCall(a) || a.problem === 'unknown_tool')) return undefined;
  return { calls: attempts.filter(isCall), problems: attempts.filter((a): a is Problem => !isCall(a)) };
}

/**
 * A call fence's (```tool_code, ```tool_call) Python calls, one per line or in a list, where every line is one and one at
 * least names a tool not offered: the calls, and an `unknown_tool` for each other (Gemini's tool code naming tools never bound).
 */
function pythonCallLines(lang: string, body: string, resolve: (n: string) => string | undefined): Pick<Span, 'calls' | 'problems'> | undefined {
  if (!/^(?:tool|function_?call)/i.test(lang)) return undefined;
  const trimmed = body.replace(LABEL_LINE, '').trim();
  const attempts: Attempt[] = [];
  for (const part of callParts(trimmed)) {
    const call = parsePythonCall(part.replace(/^print\((.*)\)$/s, '$1'));
    if (!call) return undefined;
    attempts.push(named(resolve, call.name, call.arguments));
  }
  if (!attempts.length || attempts.every(isCall)) return undefined;
  return { calls: attempts.filter(isCall), problems: attempts.filter((a): a is Problem => !isCall(a)) };
}

const ASSIGNMENT = /^([A-Za-z_]\w{0,60})[ \t]*=(?!=)[ \t]*/;
const PRINTED_NAME = /^print\([ \t]*([A-Za-z_]\w{0,60})[ \t]*\)$/;

/**
 * Why a fence that is a call gives none: a call fence (```tool_code, ```tool_call) whose Python call names a
 * tool that is not offered, or whose JSON call cannot be read or was cut; or a fence that is the whole reply
 * holding a call-shaped JSON object that names no offered tool.
 */
function failedCallFence(lang: string, body: string, resolve: (n: string) => string | undefined, closed: boolean, wholeReply: boolean, schemaOf?: SchemaOf): Problem | undefined {
  const callFence = /^(?:tool|function_?call)/i.test(lang);
  const trimmed = body.replace(LABEL_LINE, '').trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    const value = parseLooseJson(trimmed);
    const problem = attemptsFromJson(value, resolve, schemaOf)?.find((a): a is Problem => !isCall(a));
    // Any fence holding a call of an offered tool is one (fenced calls count): one whose arguments cannot be read is the call tried.
    if (!callFence && !wholeReply) return problem?.problem === 'unparsable' && problem.name && resolve(problem.name) ? problem : undefined;
    if (problem || !callFence) return problem;
    const named = nameIn(trimmed);
    // A fence that says it is a call (```function_call, ```tool_call) holding an object that is none (`{"id": 1}`, Gemma 3 1B).
    if (isRecord(value) && /call/i.test(lang)) {
      return named && !resolve(named) ? { problem: 'unknown_tool', name: named } : { problem: 'unparsable', ...(named ? { name: named } : {}) };
    }
    if (value !== undefined || !named) return undefined;
    return { problem: !closed && jsonEnding(trimmed) === 'cut' ? 'cut_off' : 'unparsable', name: named };
  }
  if (!callFence) return undefined;
  const call = parsePythonCall(trimmed.replace(/^print\((.*)\)$/s, '$1'));
  return call && !resolve(call.name) ? { problem: 'unknown_tool', name: call.name } : undefined;
}

/** Call wrappers a model may put inside the fence of its whole reply (Qwen2: ```xml around `<function_call>`). */
export const FENCED_WRAPPERS = ['tool_call', 'tool_calls', 'function_call', 'function_calls', 'tools'];

/** A fence body that is one call wrapper: what the wrapper holds (its closing tag may be missing); else the body. */
function unwrapped(body: string): string {
  const trimmed = body.trim();
  for (const tag of FENCED_WRAPPERS) {
    if (!trimmed.toLowerCase().startsWith(`<${tag}>`)) continue;
    const inner = trimmed.slice(tag.length + 2);
    return inner.toLowerCase().endsWith(`</${tag}>`) ? inner.slice(0, -(tag.length + 3)) : inner;
  }
  return body;
}

/** Whether only blanks come before `at`: the fence opens the reply. */
function opensReply(text: string, at: number): boolean {
  for (let i = 0; i < at; i++) if (!/\s/.test(text[i]!)) return false;
  return true;
}

export const fenced: Detector = (ctx) => {
  const spans: Span[] = [];
  let previousEnd = 0;
  for (const fence of ctx.fences) {
    const { start, end } = fence;
    const lead = ctx.text.slice(Math.max(previousEnd, start - 200), start);
    previousEnd = end;
    // A call's fence opens with a short line (the stream filter decides on no more of it). A fence labelled with another
    // language holds a call only as JSON (Mistral 7B's ```lua around its call list).
    const callLang = CALL_LANGS.has(fence.lang.toLowerCase());
    if ((!callLang && !/^\s*[[{]/.test(fence.body)) || fence.lineLength > MAX_CALL_FENCE_LINE) continue;
    if (EXAMPLE_LEAD.test(lead)) continue;
    if (!callLang) {
      const calls = callsFromJson(parseLooseJson(fence.body.trim()), ctx.resolve, ctx.tools.schemaOf);
      if (calls?.length) spans.push({ start, end, calls });
      continue;
    }
    if (/^\s*TOOL_NAME:/.test(fence.body)) {
      const attempt = continueCall(ctx, fence.body, !/(?:`{3,}|~{3,})[ \t]*$/.test(ctx.text.slice(start, end)));
      if (attempt) spans.push(spanOf(start, end, [attempt]));
      continue;
    }
    const calls = callsInBody(fence.body, ctx.resolve, ctx.tools.schemaOf) ?? (fence === ctx.fences[0] && opensReply(ctx.text, start) ? callsInBody(unwrapped(fence.body), ctx.resolve, ctx.tools.schemaOf) : undefined);
    // A fence that is the whole reply, holding call markup and nothing else (```xml around `<function_call>…`): what the markup holds.
    const markup = calls || !opensReply(ctx.text, start) || ctx.text.slice(end).trim() ? undefined : ctx.readMarkup?.(fence.body);
    if (markup) {
      spans.push({ start, end, ...markup });
      continue;
    }
    // A list of calls the reply ended inside: the whole calls before the cut one run, the cut one is a failure.
    const whole = calls ? undefined : callsOfCutList(fence.body, ctx.resolve, ctx.tools.schemaOf);
    if (whole) {
      spans.push({ start, end, calls: whole, problems: [{ problem: 'cut_off' }] });
      continue;
    }
    // Python calls the reply ended inside, the last after its last value whole (a stop sequence took its `)`): closed.
    const closers = calls || end < ctx.text.length || /(?:`{3,}|~{3,})[ \t]*$/.test(ctx.text.slice(start, end).trimEnd()) ? undefined : closersOfCutCall(fence.body);
    const completed = closers ? callsInBody(fence.body.trimEnd() + closers, ctx.resolve, ctx.tools.schemaOf) : undefined;
    if (completed) {
      spans.push({ start, end, calls: completed });
      continue;
    }
    // A list of calls naming offered tools and others: its calls, and an unknown tool for each other, as in a wrapper; so
    // for a fence that says it holds calls (```tool_code), its Python calls one per line.
    const mixed = calls ? undefined : (mixedCallList(fence.body.replace(LABEL_LINE, ''), ctx.resolve, ctx.tools.schemaOf) ?? pythonCallLines(fence.lang, fence.body, ctx.resolve));
    if (mixed) {
      spans.push({ start, end, ...mixed });
      continue;
    }
    // Command R+ and LangChain's structured chat write `Action:` on the line before their call's fence (Command R+ also
    // before its marker): part of the markup. The turn ends at the action, as in ReAct: what follows (an `Observation:`
    // the model made up) is the model running past its stop, never shown.
    const action = /(?:^|\n)Action:[ \t]*\n$/.exec(lead);
    const acts = action !== null || /^[ \t]*Action:/.test(ctx.text.slice(start, start + 16));
    if (calls?.length) spans.push({ start: action ? start - action[0].length + (action[0][0] === '\n' ? 1 : 0) : start, end: acts ? ctx.text.length : end, calls });
    else {
      const closed = /(?:`{3,}|~{3,})[ \t]*$/.test(ctx.text.slice(start, end).trimEnd());
      const wholeReply = opensReply(ctx.text, start) && !ctx.text.slice(end).trim();
      const failed = failedCallFence(fence.lang, fence.body, ctx.resolve, closed, wholeReply, ctx.tools.schemaOf);
      if (failed) spans.push({ start, end, calls: [], problems: [failed] });
    }
  }
  return spans;
};
