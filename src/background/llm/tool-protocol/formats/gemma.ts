/**
 * Gemma 4: `<|tool_call>call:name{key:<|"|>text<|"|>, n:1}<tool_call|>`, and FunctionGemma's
 * `<start_function_call>call:name{key:<escape>text<escape>}<end_function_call>`. Seen in real
 * outputs as well: several `call:` in one wrapper, bare words as string values (`{domain:light}`,
 * `[alpha,beta]`), a string opened with a quote and closed with `<|"|>`, and the paren form
 * `call:name(query="…", limit=10)` with no end token; FunctionGemma's first call without `call:` and
 * its end token written as a closing tag (`</end_function_call>`), as a Gemma 4 E2B wrote it.
 * A server that strips special tokens (vLLM by default) leaves `call:name{key:value}` bare, its
 * strings without their `<|"|>`: read where it starts a line and names an offered tool. A tool's
 * response the model goes on to invent (`<start_function_response>…`) means it ran past its stop: the
 * response and what it writes after it, up to its next call, are hidden as reasoning is (parse.ts).
 *
 * Each wrapper's body is read only up to the next wrapper's opener, and each bare call's up to the
 * next opener of either kind, so the whole text is read at most twice.
 */
import { matchesOf, named, spanOf, STRAY_CLOSER, type Attempt, type Detector } from '../scan';
import { isRecord, matchBracket, parseLooseJson, type Json } from '../values';
import { parsePythonCall } from '../python-calls';

/** The call openers; FunctionGemma may write its response opener before a call by mistake (`<start_function_response>call:…`). */
const OPENER = /<\|tool_call>|<start_function_call>|<start_function_response>(?=call:)/g;
/** A bare Gemma call at the start of a line (its wrapper tokens stripped): `call:name{`. */
const BARE = /call:(?<=^[ \t]*call:)(?=[\w.-]{1,100}[ \t]*\{)/gm;
/**
 * Gemma 4's call body with neither its wrapper nor `call:` (`name{text:<|"|>…<|"|>}`, Gemma 4 E2B and E4B quantized): at
 * the start of a line, its string token in the body's first hundred characters marking the family.
 */
const TOKEN_BODY = /^[ \t]*([A-Za-z_][\w.-]{0,99})(?=\{[^\n]{0,100}?<\|"\|>)/gm;
/** The end tokens; `</end_function_call>` as small models mistype FunctionGemma's. */
const CLOSERS = ['<tool_call|>', '<end_function_call>', '</end_function_call>'];
/**
 * String delimiters that open a string, each with what closes it (Gemma 4, FunctionGemma; Gemma 4 E4B also
 * writes its token with typographic quotes, `<|“|>…<|”|>`); and Python's triple quotes.
 */
const STRING_TOKENS: readonly (readonly [string, RegExp])[] = [
  ['<|"|>', /<\|"\|>/g],
  ['<escape>', /<escape>/g],
  ['<|“|>', /<\|[”“]\|>/g],
  ['"""', /"""/g],
  // Gemma 3 through a template that printed its string token empty.
  ['<|>', /<\|>/g],
];
/** A string in typographic quotes, as small models write one: `“…”`. */
const TYPOGRAPHIC_QUOTES: Readonly<Record<string, RegExp>> = { '“': /”/g, '‘': /’/g };
const MAX_DEPTH = 32;

export const gemma: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  const tokenBodies = text.includes('<|"|>') ? [...matchesOf(TOKEN_BODY, text)].map((m) => ({ m, wrapped: false, headless: true })) : [];
  const all = [...[...matchesOf(OPENER, text)].map((m) => ({ m, wrapped: true, headless: false })), ...[...matchesOf(BARE, text)].map((m) => ({ m, wrapped: false, headless: false })), ...tokenBodies].sort((a, b) => a.m.index - b.m.index);
  // A wrapper reads up to the next wrapper (its body may hold `call:` lines); a bare call up to the next opener.
  const limits: number[] = [];
  for (let k = all.length - 1, nextWrapper = text.length; k >= 0; k--) {
    limits[k] = all[k]!.wrapped ? nextWrapper : (all[k + 1]?.m.index ?? text.length);
    if (all[k]!.wrapped) nextWrapper = all[k]!.m.index;
  }
  let covered = 0;
  all.forEach(({ m, wrapped, headless }, k) => {
    if (m.index < covered || ctx.isProtected(m.index)) return;
    const limit = limits[k]!;
    const attempts: Attempt[] = [];
    let i = wrapped ? m.index + m[0].length : m.index;
    for (;;) {
      // A small model may leave out FunctionGemma's `call:` before the first call's name: then it must name an offered tool.
      const first = !attempts.length && (m[0] === '<start_function_call>' || headless);
      // A stray `:` may stand before `call:` (`<|tool_call>:call:bash{…}`, Gemma 4 in vLLM's tests).
      const head = first ? /\s*(call:)?([\w.-]+)\s*([{(])/y : /\s*:?(call:)([\w.-]+)\s*([{(])/y;
      head.lastIndex = i;
      const found = head.exec(text);
      // Without its wrapper or `call:`, the string token still marks a call: one opening the reply that names no offered tool
      // is an unknown tool.
      if (found && headless && !attempts.length && !ctx.resolve(found[2]!) && head.lastIndex <= limit && !text.slice(0, m.index).trim()) {
        const body = new BodyReader(text, limit).object(head.lastIndex - 1);
        if (body) {
          attempts.push({ problem: 'unknown_tool', name: found[2]! });
          i = body.end;
        }
        break;
      }
      if (!found || head.lastIndex > limit || ((!found[1] || !wrapped) && !ctx.resolve(found[2]!))) break;
      const h = [found[0], found[2], found[3]] as const;
      const open = head.lastIndex - 1;
      const read = h[2] === '(' ? readParen(text, open, limit, h[1]!) : (new BodyReader(text, limit).object(open) ?? closedAtEnd(text, open, limit));
      if (!read) {
        // An offered tool's call that cannot be read: the repair turn asks again (an unknown one stays an unknown call).
        const cut = limit === text.length && !CLOSERS.some((c) => text.includes(c, open));
        attempts.push({ problem: !ctx.resolve(h[1]!) ? 'unknown_tool' : cut ? 'cut_off' : 'unparsable', name: h[1]! });
        i = limit;
        break;
      }
      attempts.push(named(ctx.resolve, h[1]!, read.args));
      i = read.end;
    }
    if (!attempts.length) {
      // Gemma 4's token pair closed around no call (`<|tool_call>nonsense<tool_call|>`): a call tried that cannot be read.
      // Looked for up to the next wrapper only: each stretch is searched once.
      const inside = m[0] === '<|tool_call>' ? text.slice(i, limit).indexOf('<tool_call|>') : -1;
      if (inside !== -1) {
        covered = i + inside + '<tool_call|>'.length;
        spans.push({ ...spanOf(m.index, covered, [{ problem: 'unparsable' }]), glue: 'anywhere' });
      }
      return;
    }
    if (!wrapped && !attempts.every((a) => 'arguments' in a || (headless && a.problem === 'unknown_tool'))) return;
    let end = i;
    while (end < limit && /\s/.test(text[end]!)) end++;
    const closer = CLOSERS.find((c) => text.startsWith(c, end));
    // Another template's closing tag written instead (`…}</tool_call>`) goes with the call.
    const stray = closer || !wrapped ? null : STRAY_CLOSER.exec(text.slice(i, Math.min(limit, i + 64)));
    end = closer ? end + closer.length : stray ? i + stray[0].length : attempts.every((a) => 'arguments' in a) ? end : limit;
    covered = end;
    // Gemma 4's `<|tool_call>…<tool_call|>` is a special-token pair: closed, it is a call wherever it stands, as
    // servers' parsers read it between words. Open at the end, it must start its line; FunctionGemma's tags may follow words.
    const glue = m[0] !== '<|tool_call>' ? 'tail' : closer === '<tool_call|>' ? 'anywhere' : 'token';
    spans.push({ ...spanOf(m.index, end, attempts), ...(wrapped ? { glue } : {}) });
  });
  return spans;
};

type Span = ReturnType<typeof spanOf>;

/**
 * A call whose closing braces are missing after a complete last value (a closed `<|"|>` string, object or
 * list): the reply ended there, or its end token follows at once (`…]<tool_call|>`). The braces are added.
 * A value that may itself be cut (a bare word or number at the very end) is never completed.
 */
function closedAtEnd(text: string, open: number, limit: number): { args: Record<string, Json>; end: number } | undefined {
  const segment = text.slice(open, limit);
  const closers = CLOSERS.map((c) => segment.indexOf(c)).filter((k) => k !== -1);
  const end = closers.length ? open + Math.min(...closers) : limit;
  if ((!closers.length && limit !== text.length) || !/(?:<\|"\|>|[}\]])\s*$/.test(text.slice(open, end))) return undefined;
  for (let missing = 1; missing <= 3; missing++) {
    // Only the call is copied, not the reply before it: a reply of many such calls is read in one pass.
    const completed = text.slice(open, end) + '}'.repeat(missing);
    const read = new BodyReader(completed, completed.length).object(0);
    if (read) return { args: read.args, end };
  }
  return undefined;
}

/** `name(k="v", n=1)` from `open` (the paren) within `limit`, read as Python keyword arguments, or as `k: v` pairs as in Gemma's braces. */
function readParen(text: string, open: number, limit: number, name: string): { args: Record<string, Json> ; end: number } | undefined {
  const segment = text.slice(open, limit);
  const close = matchBracket(segment, 0);
  if (close === -1) return undefined;
  const call = parsePythonCall(`${name}${segment.slice(0, close)}`);
  if (call) return { args: call.arguments, end: open + close };
  const braced = `{${segment.slice(1, close - 1)}}`;
  const read = new BodyReader(braced, braced.length).object(0);
  return read?.end === braced.length ? { args: read.args, end: open + close } : undefined;
}

/** A record's key: `key=` too, as Gemma 4 E2B sometimes writes the first key; a key in its string token (`<|"|>path<|"|>:`). */
const KEY = /\s{0,8}(?:"([^"\n]{1,200})"|'([^'\n]{1,200})'|([\w.-]{1,200})|<\|"\|>([^<\n]{1,200})<\|"\|>)\s{0,8}[:=]/y;

/** Reads a Gemma body (`{key:value,…}`) by hand: its values are not JSON. Undefined when malformed. */
class BodyReader {
  constructor(
    private readonly text: string,
    private readonly limit: number,
  ) {}
  private i = 0;

  object(at: number): { args: Record<string, Json>; end: number } | undefined {
    this.i = at;
    const value = this.value(0);
    return isRecord(value) ? { args: value, end: this.i } : undefined;
  }

  /** A value; in a record (`inRecord`), a bare one may hold commas not followed by a key. */
  private value(depth: number, inRecord = false): Json | undefined {
    if (depth > MAX_DEPTH) return undefined;
    this.blanks();
    const ch = this.text[this.i];
    if (this.i >= this.limit || ch === undefined) return undefined;
    if (ch === '{') return this.record(depth);
    if (ch === '[') return this.list(depth);
    const token = STRING_TOKENS.find(([open]) => this.text.startsWith(open, this.i));
    if (token) return this.until(this.i + token[0].length, token[1]);
    if (ch === '"' || ch === "'") return this.quoted(ch);
    const typographic = TYPOGRAPHIC_QUOTES[ch];
    if (typographic) return this.until(this.i + 1, typographic);
    return this.bare(inRecord);
  }

  private record(depth: number): Record<string, Json> | undefined {
    const out: Record<string, Json> = {};
    this.i++;
    for (;;) {
      this.blanks();
      if (this.text[this.i] === '}') return this.i++, out;
      const k = this.keyAt(this.i);
      if (!k) return undefined;
      this.i = KEY.lastIndex;
      const v = this.value(depth + 1, true);
      if (v === undefined) return undefined;
      out[k[1] ?? k[2] ?? k[3] ?? k[4]!] = v;
      // The comma may be missing after a value that closed itself (`command:<|"|>look<|"|>angle:135`, Gemma 4 as run locally).
      if (!this.separator('}') && !this.keyAt(this.i)) return undefined;
    }
  }

  /** A record's key at `at` (its end is `KEY.lastIndex`), if one is there within the limit. */
  private keyAt(at: number): RegExpExecArray | undefined {
    KEY.lastIndex = at;
    const k = KEY.exec(this.text);
    return k && KEY.lastIndex <= this.limit ? k : undefined;
  }

  private list(depth: number): Json[] | undefined {
    const out: Json[] = [];
    this.i++;
    for (;;) {
      this.blanks();
      if (this.text[this.i] === ']') return this.i++, out;
      const v = this.value(depth + 1);
      if (v === undefined) return undefined;
      out.push(v);
      if (!this.separator(']')) return undefined;
    }
  }

  /** After a value: a comma (then more), or the closing bracket (left for the caller). */
  private separator(close: string): boolean {
    this.blanks();
    if (this.text[this.i] === ',') return this.i++, true;
    return this.text[this.i] === close && this.i < this.limit;
  }

  /** A string up to what closes it, as written; searched only within this wrapper, and only as far as the close. */
  private until(from: number, close: RegExp): string | undefined {
    const segment = this.text.slice(from, this.limit);
    close.lastIndex = 0;
    const m = close.exec(segment);
    if (!m) return undefined;
    this.i = from + m.index + m[0].length;
    return segment.slice(0, m.index);
  }

  /** A quoted string; it may be closed by `<|"|>` instead of its quote (one more `<|"|>` after it is the same close). */
  private quoted(quote: string): string | undefined {
    const from = this.i + 1;
    for (let j = from; j < this.limit; j++) {
      const ch = this.text[j]!;
      if (ch === '\\' && quote === '"') {
        j++;
        continue;
      }
      const token = this.text.startsWith('<|"|>', j);
      if (ch !== quote && !token) continue;
      const raw = this.text.slice(from, j);
      this.i = token ? j + 5 : j + 1;
      if (!token && this.text.startsWith('<|"|>', this.i)) this.i += 5;
      if (quote !== '"') return raw;
      try {
        return JSON.parse(`"${raw}"`) as string;
      } catch {
        return raw;
      }
    }
    return undefined;
  }

  /**
   * A bare word up to the next `,`, `}` or `]`: a number, boolean or null as such (Python's `None` too), else the word as a
   * string. In a record, a comma the next key does not follow is the value's own (`location:New York, NY,unit:celsius`).
   */
  private bare(inRecord: boolean): Json | undefined {
    const from = this.i;
    for (;;) {
      while (this.i < this.limit && !',}]'.includes(this.text[this.i]!)) this.i++;
      if (!inRecord || this.text[this.i] !== ',' || this.keyAt(this.i + 1) || /^\s*[}\]]/.test(this.text.slice(this.i + 1, this.i + 9))) break;
      this.i++;
    }
    if (this.i >= this.limit) return undefined;
    const word = this.text.slice(from, this.i).trim();
    if (!word || /[{[<>"']/.test(word)) return undefined;
    const literal = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|None)$/.test(word) ? parseLooseJson(word) : undefined;
    return literal !== undefined ? literal : word;
  }

  private blanks(): void {
    while (this.i < this.limit && /\s/.test(this.text[this.i]!)) this.i++;
  }
}
