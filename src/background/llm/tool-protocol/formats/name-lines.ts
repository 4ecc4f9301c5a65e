/**
 * Lines that start with an offered tool's name and its arguments' opening bracket, `name(…)` or
 * `name{…}`, read after every other format had its turn:
 * - ending the reply (after prose, on lines of their own), `name(key=value)`, `name({…})` or
 *   `name{…}` (a call whose special token the server stripped) is the call;
 * - standing as a call would but giving none (its arguments unreadable, or cut off at the end), it
 *   is a failure, so the repair turn asks again instead of the attempt vanishing.
 * A readable `name(…)` line between paragraphs of prose is an example the model shows, not a call.
 * Models that mimic a client's history placeholders write the same in brackets, on a line of its
 * own: `[tool_call: name(…)]`, `[TOOL_CALL: name|{…}]`, `[TOOL_CALL: name]{…}`, Gemini CLI's
 * `[tool_call: name for key 'value']`; a bracket naming a tool with no arguments is a failure.
 * A reply may also open with an offered tool's name alone on its line and its arguments on the lines
 * below, one `key: value` or `key=value` each, up to a blank line or the reply's end (Gemma 4 E2B,
 * DeepSeek V4 run locally): a call where every key is one the tool's schema declares and none it
 * requires is missing (`fieldLines`).
 * Whether each line stands on its own (nothing but blanks or reasoning beside it) is judged as for
 * every call (parse.ts).
 */
import { isCall, matchesOf, named, spanOf, type Attempt, type Detector, type NameResolver, type Span } from '../scan';
import type { JsonSchema } from '../tools';
import { closersOfCutCall } from '../python-literals';
import { isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';
import { parsePythonCall } from '../python-calls';
import { contentEnd } from './bare';

/**
 * `name(` or `name{` starting a line. Gemma's and Gemini's tool code, its fence left out, wraps the
 * call: `print(name(…))`, or `tool_code = name(…)` then `print(tool_code)`.
 */
const NAME_LINE = /^[ \t]*(tool_code[ \t]*=[ \t]*|print\([ \t]*)?([A-Za-z_][\w.:-]{0,99})[ \t]*([({])/gm;
/** What closes a wrapped call: `print(tool_code)` after the assignment, `)` after `print(`. */
const AFTER_ASSIGNMENT = /^\s*print\(\s*tool_code\s*\)/;
const AFTER_PRINT = /^[ \t]*\)/;

export const nameLines: Detector = (ctx) => {
  const text = ctx.text;
  const tailEnd = contentEnd(text);
  const spans: Span[] = [];
  // A line inside arguments already read is part of them: each stretch is read once.
  let covered = 0;
  for (const m of matchesOf(NAME_LINE, text)) {
    const start = m.index + m[0].search(/\S/);
    const open = m.index + m[0].length - 1;
    if (start < covered || ctx.isProtected(start) || !ctx.resolve(m[2]!)) continue;
    const paren = m[3] === '(';
    // Keyword arguments stay on their line (an apostrophe in a sentence must not open a string to
    // the end of the reply); a JSON object, `name({…})` or `name{…}`, may span lines.
    let i = open + 1;
    while (text[i] === ' ' || text[i] === '\t') i++;
    const lineEnd = paren && text[i] !== '{' ? lineEndFrom(text, open) : text.length;
    const inLine = matchBracket(text, open, lineEnd);
    const callEnd = inLine !== -1 ? inLine : paren ? parenEnd(text, open, lineEnd) : lineEnd;
    const wrapped = m[1] ? (m[1].startsWith('print') ? AFTER_PRINT : AFTER_ASSIGNMENT).exec(text.slice(callEnd, callEnd + 64)) : null;
    // `print(name(…)` without its own closing paren is not the wrapped call.
    if (m[1]?.startsWith('print') && !wrapped) continue;
    const end = wrapped ? callEnd + wrapped[0].length : callEnd;
    covered = end;
    const endsReply = end >= tailEnd;
    const attempt = lineAttempt(text.slice(start + (m[1]?.length ?? 0), callEnd), m[2]!, paren, inLine === -1, endsReply, ctx.resolve);
    // A readable call counts only where it ends the reply; `name{…}` and wrapped calls are read only there.
    if (attempt && (endsReply || (paren && !m[1] && !isCall(attempt)))) spans.push(spanOf(start, end, [attempt]));
  }
  return spans;
};

/** Past the `)` closing the one at `open` on its line, quotes ignored (`search(it's here)`), else the line's end. */
function parenEnd(text: string, open: number, lineEnd: number): number {
  let depth = 0;
  for (let i = open; i < lineEnd; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return lineEnd;
}

function lineEndFrom(text: string, at: number): number {
  const newline = text.indexOf('\n', at);
  return newline === -1 ? text.length : newline;
}

/** The call a `name(…)` or `name{…}` stretch gives, or why it gives none; `open`: its bracket never closes. */
function lineAttempt(stretch: string, rawName: string, paren: boolean, open: boolean, endsReply: boolean, resolve: NameResolver): Attempt | undefined {
  const body = stretch.slice(stretch.indexOf(paren ? '(' : '{') + (paren ? 1 : 0)).trim();
  // A call the reply ended inside after its last value whole (a stop sequence took its `)`): closed.
  const closers = open && paren && endsReply ? closersOfCutCall(stretch) : undefined;
  if (closers) return lineAttempt(stretch.trimEnd() + closers, rawName, paren, false, endsReply, resolve);
  if (open && (paren || jsonEnding(body) === 'cut')) return { problem: endsReply ? 'cut_off' : 'unparsable', name: rawName };
  if (paren) {
    const call = parsePythonCall(stretch);
    return call ? named(resolve, rawName, call.arguments) : { problem: 'unparsable', name: rawName };
  }
  const args = parseLooseJson(body);
  return isRecord(args) ? named(resolve, rawName, args) : { problem: 'unparsable', name: rawName };
}

/** `[tool_call: name…]` starting a line (also `TOOL_CALL`, `function_call`). */
const BRACKET_LINE = /^[ \t]*\[(?:tool_call|tool call|function_call)[ \t]*:[ \t]*([A-Za-z_][\w.:-]{0,99})/gim;
/** Gemini CLI's `key 'value'` pairs, joined by `and` or commas. */
const WORDED_ARGUMENT = /\s*(?:(?:and|,)\s*)?([A-Za-z_]\w*)\s+(?:'([^'\n]*)'|"([^"\n]*)"|([^\s,\]]+))/y;

/** Bracketed calls, each on a line of its own (judged in parse.ts), read once each. */
export const bracketLines: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(BRACKET_LINE, text)) {
    const start = m.index + m[0].indexOf('[');
    if (start < covered || ctx.isProtected(start) || !ctx.resolve(m[1]!)) continue;
    const lineEnd = lineEndFrom(text, start);
    const close = matchBracket(text, start, lineEnd);
    if (close === -1) continue;
    const inner = text.slice(m.index + m[0].length, close - 1).trim();
    let end = close;
    let attempt: Attempt;
    if (inner === '' && text[close] === '{') {
      // `[TOOL_CALL: name]{…}`: the arguments after the bracket.
      const argsEnd = matchBracket(text, close);
      end = argsEnd === -1 ? text.length : argsEnd;
      attempt = jsonAttempt(text.slice(close, end), m[1]!, ctx.resolve);
    } else if (inner.startsWith('(')) {
      const call = parsePythonCall(`${m[1]}${inner}`);
      attempt = call ? named(ctx.resolve, m[1]!, call.arguments) : { problem: 'unparsable', name: m[1] };
    } else if (inner.startsWith('|') || inner.startsWith('{')) attempt = jsonAttempt(inner.replace(/^\|/, ''), m[1]!, ctx.resolve);
    else if (/^for\s/.test(inner)) attempt = wordedAttempt(inner.slice(3), m[1]!, ctx.resolve);
    else attempt = { problem: 'unparsable', name: m[1] };
    covered = end;
    spans.push(spanOf(start, end, [attempt]));
  }
  return spans;
};

function jsonAttempt(json: string, rawName: string, resolve: NameResolver): Attempt {
  const args = parseLooseJson(json);
  return isRecord(args) ? named(resolve, rawName, args) : { problem: 'unparsable', name: rawName };
}

/** `key 'value' and key2 'value2'`: each value a string as written (unquoted ones read as JSON where they are). */
function wordedAttempt(words: string, rawName: string, resolve: NameResolver): Attempt {
  const args: Record<string, unknown> = {};
  let i = 0;
  for (;;) {
    WORDED_ARGUMENT.lastIndex = i;
    const m = WORDED_ARGUMENT.exec(words);
    if (!m) break;
    args[m[1]!] = m[2] ?? m[3] ?? parseLooseJson(m[4]!) ?? m[4];
    i = WORDED_ARGUMENT.lastIndex;
  }
  return words.slice(i).trim() === '' && Object.keys(args).length ? named(resolve, rawName, args) : { problem: 'unparsable', name: rawName };
}

/** A tool's name alone on the reply's first line. */
const NAME_ALONE = /^[ \t]*([A-Za-z_][\w.-]{0,99})[ \t]*\r?\n/;
/** One argument's line: `key: value` or `key=value`. */
const FIELD_LINE = /^[ \t]*([A-Za-z_][\w-]{0,63})[ \t]*(?::|=)[ \t]*(\S[^\n]*?)[ \t]*\r?$/;

/** The keys of a tool's arguments its schema declares and requires; undefined where it declares none. */
export function declaredFields(schema: JsonSchema | undefined): { declared: ReadonlySet<string>; required: readonly string[] } | undefined {
  const properties = schema?.properties;
  if (!properties || !Object.keys(properties).length) return undefined;
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
  return { declared: new Set(Object.keys(properties)), required };
}

/**
 * A tool's name alone on the line opening the reply, then its arguments one per line (`path: /a.py`, `start_line: 33`),
 * up to a blank line or the reply's end: the call, its values read as the schema asks (text stays text).
 */
export const fieldLines: Detector = (ctx) => {
  const text = ctx.text;
  let start = 0;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  if (ctx.isProtected(start)) return [];
  const head = NAME_ALONE.exec(text.slice(start, start + 128));
  const name = head && ctx.resolve(head[1]!);
  const fields = name ? declaredFields(ctx.tools.schemaOf(name)) : undefined;
  if (!head || !name || !fields) return [];
  const args: Record<string, unknown> = {};
  let at = start + head[0].length;
  let end = at;
  while (at < text.length) {
    const newline = text.indexOf('\n', at);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(at, lineEnd);
    if (!line.trim()) break;
    const field = FIELD_LINE.exec(line);
    if (!field || !fields.declared.has(field[1]!) || field[1]! in args) return [];
    args[field[1]!] = unquoted(field[2]!);
    end = at + line.trimEnd().length;
    at = lineEnd + 1;
  }
  if (!Object.keys(args).length || fields.required.some((k) => !(k in args))) return [];
  return [spanOf(start, end, [named(ctx.resolve, head[1]!, args)])];
};

/** A value in matching quotes is the text inside them; any other is the text as written (the schema then types it). */
function unquoted(value: string): string {
  return /^(["'])(.*)\1$/.exec(value)?.[2] ?? value;
}
