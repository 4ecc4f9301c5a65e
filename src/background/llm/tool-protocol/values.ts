/**
 * Reading values out of model output: lenient JSON (models leave trailing commas, single quotes,
 * unclosed braces), balanced-bracket scanning, entity and CDATA decoding. Python's calls and literals are read in
 * `python-calls.ts`.
 */

import { closeOpen, endsString, escapeStrayQuotes, quotedObjectClose, strictify, withJoinedStrings, withQuotesUnescaped, withSingleBraces, withoutStrayClosers, withInnerJsonUnquoted } from './json-repairs';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Index just past the bracket that closes the one at `start` (before `limit`), respecting strings; -1 if open. */
export function matchBracket(text: string, start: number, limit = text.length): number {
  const open = text[start];
  const close = open === '{' ? '}' : open === '[' ? ']' : open === '(' ? ')' : '';
  if (!close) return -1;
  const stack: string[] = [close];
  let quote = '';
  for (let i = start + 1; i < limit; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (endsString(text, i, quote)) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '(') stack.push(')');
    else if (ch === stack.at(-1)) {
      stack.pop();
      if (!stack.length) return i + 1;
    }
  }
  return -1;
}

/** No call's arguments nest this deep; deeper text is not read as JSON (it only costs time). */
const MAX_NESTING = 64;

function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (endsString(text, i, quote)) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') {
      if (++depth > limit) return true;
    } else if (ch === '}' || ch === ']') depth--;
  }
  return false;
}

/**
 * How a JSON text ends: `closed` (its brackets balance), `repairable` (only closing brackets are
 * missing, after a complete value), or `cut` (it stops inside a string, a number, a key, or right
 * after a comma or colon: a value may have been cut off, and cannot be trusted).
 */
export function jsonEnding(text: string): 'closed' | 'repairable' | 'cut' {
  /** Per open container: whether it is an object, and what it expects next. */
  const stack: { object: boolean; next: 'key' | 'colon' | 'value' | 'after' }[] = [];
  let quote = '';
  let bare = false; // the text ends in a number or literal
  /** A single-quoted object was looked for and not found: not again (one pass). */
  let quotedObjectsTried = false;
  const settle = (next: 'colon' | 'after') => {
    const top = stack.at(-1);
    if (top) top.next = top.next === 'key' ? 'colon' : next;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (endsString(text, i, quote)) {
        quote = '';
        settle('after');
      }
      continue;
    }
    if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r') {
      if (bare) settle('after');
      bare = false;
      continue;
    }
    if (bare && /[\w.+-]/.test(ch)) continue;
    if (bare) settle('after');
    bare = false;
    const top = stack.at(-1);
    // Glaive's arguments, a JSON object in single quotes with an apostrophe inside: one string, as `strictify` reads it.
    const quotedEnd: number | undefined = ch === "'" && !quotedObjectsTried ? quotedObjectClose(text, i) : undefined;
    quotedObjectsTried ||= quotedEnd === -1;
    if (quotedEnd !== undefined && quotedEnd !== -1) {
      i = quotedEnd;
      settle('after');
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') stack.push({ object: true, next: 'key' });
    else if (ch === '[') stack.push({ object: false, next: 'value' });
    else if (ch === '}' || ch === ']') {
      stack.pop();
      if (!stack.length) return 'closed';
      stack.at(-1)!.next = 'after';
    } else if (ch === ':') {
      if (top) top.next = 'value';
    } else if (ch === ',') {
      if (top) top.next = top.object ? 'key' : 'value';
    } else bare = true;
  }
  if (!stack.length) return 'closed';
  if (quote || bare) return 'cut';
  const top = stack.at(-1)!;
  // Complete after a value; an object or list just opened and still empty was cut too.
  return top.next === 'after' ? 'repairable' : 'cut';
}

/**
 * An arguments key written with its separator garbled before the arguments object (Llama 3.2 3B writes them all):
 * `"parameters'`, `"parameters>`, `"parameters=`, `"parameters(`, `"parameters "`, `"parameters\":` (the separator and
 * the arguments escaped as inside a string); or a doubled opening quote before a key, `""parameters":`. Never the
 * separator of a string of arguments (`"arguments": "{…}"`, OpenAI's).
 */
const MISTYPED_CALL_KEY = /"(parameters|arguments|args|params)(?![ \t]*"?[ \t]*:[ \t]*")((?:\\?["']|[ \t]){0,3}[:=(>]?(?:[ \t]|\\?"){0,3})(?=\{)|(?<=[{,][ \t]*)"(?="[A-Za-z_]\w{0,100}"[ \t]*:)/;
const MISTYPED_CALL_KEY_ALL = new RegExp(MISTYPED_CALL_KEY.source, 'g');

/** Arguments given as a string holding JSON whose quotes were not escaped (`"arguments": "{"a": 1}"`). */
const UNESCAPED_ARGUMENTS = /"(?:arguments|parameters|args|params)"\s*:\s*"\{"/;

/** The text with mistyped keys written as JSON, and arguments left unescaped in a string unquoted, where the text does not parse as it is. */
function withCallKeyRepaired(text: string): string {
  const mistyped = MISTYPED_CALL_KEY.test(text);
  const unescaped = UNESCAPED_ARGUMENTS.test(text);
  if (!mistyped && !unescaped) return text;
  try {
    JSON.parse(text);
    return text;
  } catch {
    const keys = mistyped ? text.replace(MISTYPED_CALL_KEY_ALL, (whole, key: string | undefined) => (key ? `"${key}": ` : '')) : text;
    return unescaped ? withInnerJsonUnquoted(keys, matchBracket) : keys;
  }
}

/**
 * A call's JSON ending in a quote right after a closing brace, outside any string (`…"celsius":false}"`, Llama 3.2 closing
 * the `(` of its `"parameters(` so): no key or value can start there, so the quote is a stray and goes.
 */
function withoutStrayEndQuote(text: string): string {
  if (!/\}[ \t]*"$/.test(text) || !CALL_SHAPED.test(text) || jsonEnding(text) !== 'cut') return text;
  return jsonEnding(text.slice(0, -1)) === 'cut' ? text : text.slice(0, -1).trimEnd();
}

/** An object, or a list of objects: the values a call is written as. */
const CALL_SHAPED = /^(?:\{|\[\s*\{)/;
/** `\u` and one to three hex digits, the backslash not itself escaped: JSON no parser reads. */
const GARBLED_UNICODE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[0-9a-fA-F]{1,3}(?![0-9a-fA-F])/;

/** How a JSON value, or a Python literal the repairs make one, starts: a bracket, a quote, a digit or a sign, or a literal's word. */
const VALUE_START = /^(?:[[{"'\d-]|(?:true|false|null|True|False|None)(?!\w))/;

/** A list opening with a Python call (`[click(…)`): no repair makes it JSON, so no parse is paid for. */
const PYTHON_CALL_LIST = /^\[\s*[A-Za-z_][\w.-]*\s*\(/;

/** An escaped quote right after a bracket, a colon or a comma: where JSON opens a string, not inside one. */
const ESCAPED_QUOTE_OUTSIDE = /[{[:,][ \t]*\\"/;

/** A JSON object: not null, not a list. */
export function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A call's arguments written as a JSON object, or as a JSON string holding one (encoded twice: Kimi K2 on SGLang);
 * undefined where they are anything else.
 */
export function argumentsObject(text: string): Record<string, Json> | undefined {
  let value = parseLooseJson(text);
  if (typeof value === 'string' && value.trimStart().startsWith('{')) value = parseLooseJson(value);
  return isRecord(value) ? value : undefined;
}

/** JSON as models write it. Undefined when it cannot be read as JSON at all, or was cut off inside a value. */

export function parseLooseJson(text: string): Json | undefined {
  if (FAILED.has(text)) return undefined;
  let trimmed = withoutStrayEndQuote(withCallKeyRepaired(text.trim()));
  // No value starts otherwise (Python's words included): a bare word or a sentence is not tried, and no failed parse paid for.
  if (!VALUE_START.test(trimmed) || PYTHON_CALL_LIST.test(trimmed) || nestsDeeperThan(trimmed, MAX_NESTING)) return undefined;
  // A `\u` escape with fewer than four hex digits (`\u09f\`): the string is garbled, not a path's backslash; nothing to repair.
  if (GARBLED_UNICODE_ESCAPE.test(trimmed)) return undefined;
  let ending = jsonEnding(trimmed);
  // Quotes written escaped where no string is open (`{\"timezone\":\"UTC\"}` as an object's value, Llama 3.2): read as
  // quotes, where the text then ends outside a string, as it does not as written.
  if (ending === 'cut' && ESCAPED_QUOTE_OUTSIDE.test(trimmed)) {
    const unescaped = withQuotesUnescaped(trimmed);
    const unescapedEnding = jsonEnding(unescaped);
    if (unescapedEnding !== 'cut') [trimmed, ending] = [unescaped, unescapedEnding];
  }
  // Cut inside a value: nothing to read (and no failed parse to pay for).
  if (ending === 'cut') return undefined;
  // Each repair is made only if the readings before it failed: most JSON parses as written, and a repair costs a pass.
  let strict: string | undefined;
  const strictified = () => (strict ??= strictify(trimmed));
  const attempts: (() => string)[] = [() => trimmed, strictified];
  // Closing brackets are added only after a complete value: a value that was itself cut is never used.
  if (ending === 'repairable') attempts.push(() => closeOpen(strictified()));
  // Last, quotes a model left unescaped inside a string: repaired only where each one's role is plain.
  else attempts.push(() => escapeStrayQuotes(trimmed));
  // In an object or a list of objects, a closing bracket written once too often (`[{…}}]`, Granite), or one too few before
  // an outer one (`[{…{…}]`, Mistral 7B): the outer closer shows where the call ends.
  if (CALL_SHAPED.test(trimmed)) attempts.push(() => withoutStrayClosers(strictified()));
  // And an object whose braces were all written twice, copied from a prompt's escaped example; strings joined with `+`.
  if (trimmed.startsWith('{{')) attempts.push(() => strictify(withSingleBraces(trimmed)));
  if (/"\s*\+\s*"/.test(trimmed)) attempts.push(() => withJoinedStrings(strictified()));
  // Typographic double quotes for all of JSON's (an input method's, or a model's): its quotes, where it has no plain ones.
  if (!trimmed.includes('"') && /[“”]/.test(trimmed)) attempts.push(() => strictify(trimmed.replace(/[“”]/g, '"')));
  // A repair that changed nothing is not tried again: a failed parse costs a thrown error.
  const tried = new Set<string>();
  for (const attempt of attempts) {
    const candidate = attempt();
    if (tried.has(candidate)) continue;
    tried.add(candidate);
    try {
      return JSON.parse(candidate) as Json;
    } catch {
      /* next attempt */
    }
  }
  rememberFailed(text);
  return undefined;
}

/**
 * Short texts every reading of which failed, lately: the stream filter reads each finished stretch after the text shown
 * before it, so the same small values (`{a=1}` in a Python call) come again, and each failed reading throws.
 */
const FAILED = new Set<string>();
const MAX_FAILED = 256;

function rememberFailed(text: string): void {
  if (text.length > 512) return;
  if (FAILED.size >= MAX_FAILED) FAILED.clear();
  FAILED.add(text);
}

/**
 * The whole objects of a JSON list the text ends inside (`[{…}, {…}, {"id": "call_`, Gemma 3 1B at its token limit): the
 * objects before the one it was cut in, each read whole, never the cut one. Undefined when the text is no such list, or an
 * item before the cut cannot be read.
 */
export function wholeItemsOfCutList(text: string): Json[] | undefined {
  const list = text.trim();
  if (list[0] !== '[' || jsonEnding(list) !== 'cut') return undefined;
  const items: Json[] = [];
  for (let i = 1; ; ) {
    while (i < list.length && /[\s,]/.test(list[i]!)) i++;
    const close = list[i] === '{' ? matchBracket(list, i) : -1;
    if (close === -1) return items;
    const item = parseLooseJson(list.slice(i, close));
    if (item === undefined) return undefined;
    items.push(item);
    i = close;
  }
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : whole;
    }
    return NAMED_ENTITIES[code.toLowerCase()] ?? whole;
  });
}

/**
 * A value written between tags. CDATA is taken as is; otherwise entities are decoded. A value
 * that is clearly JSON (an object or array) becomes that JSON; everything else stays a string,
 * and the tool's schema coerces it ("3" → 3).
 */
export function xmlValue(raw: string): Json {
  const cdata = raw.match(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/);
  if (cdata) return cdata[1]!;
  let from = 0;
  let to = raw.length;
  while (from < to && raw[from] === '\n') from++;
  while (to > from && raw[to - 1] === '\n') to--;
  const value = decodeEntities(raw.slice(from, to));
  const trimmed = value.trim();
  if (/^[[{]/.test(trimmed) && /[\]}]$/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as Json;
    } catch {
      /* not JSON after all */
    }
  }
  return value.includes('\n') ? value : trimmed;
}

/** The key a call's positional argument is read under until the tool's schema names it (`#0`, `#1`: no keyword is written so). */
export const positionalKey = (index: number) => `#${index}`;

/** Splits on commas (or the given separators) that are not inside brackets or strings. */
export function splitTopLevel(text: string, separators = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (endsString(text, i, quote)) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && separators.includes(ch)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
