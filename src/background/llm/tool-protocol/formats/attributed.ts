/**
 * Call tags that name the tool in an attribute: MiniCPM5's `<function name="…">` holding one
 * `<param name="…">` per argument, and DeepSeek V4's `<tool_call id="…" name="…">` holding the
 * arguments as JSON. Each is read up to its own closing tag; one still open at the end of the
 * reply inside its arguments was cut off.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { isRecord, jsonEnding, parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';

const CDATA_OPEN = '<![CDATA[';
const FUNCTION_OPEN = /<function\s+name\s*=\s*"([^"<>]{1,100})"\s*>/giy;
/** `<param name="k">` (MiniCPM5) or `<parameter name="k" string="true">` (Seed 2.0): the element, the name, its other attributes. */
const PARAM_OPEN = /<(param|parameter)\s+name\s*=\s*"([^"<>]{1,100})"((?:\s+[\w-]{1,40}\s*=\s*"[^"<>]{0,100}")*)\s*>/iy;
const FUNCTION_CLOSE = '</function>';

const skipSpaces = (text: string, i: number) => {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
};

const startsWithAt = (text: string, word: string, at: number) => text.slice(at, at + word.length).toLowerCase() === word;

const CLOSERS = new Map(['</param>', '</parameter>', FUNCTION_CLOSE].map((tag) => [tag, new RegExp(tag, 'gi')]));

/** Where the closing tag `tag` (one of CLOSERS) is next found from `from`, in any case; -1 if nowhere. */
function closerAt(text: string, tag: string, from: number): number {
  const re = CLOSERS.get(tag)!;
  re.lastIndex = from;
  return re.exec(text)?.index ?? -1;
}

/**
 * One `<function name="…">` call read from just after its opening tag (`from`), in one pass: one parameter element after
 * another, each value the text up to its closing tag or a CDATA section (which may hold `</param>` or `</function>`
 * itself), then `</function>`. Undefined where the body holds something else; `end` is where the call's markup ends.
 */
function namedFunctionAt(text: string, from: number, name: string, resolve: ScanContext['resolve']): { attempt: Attempt; end: number } | undefined {
  const args: Record<string, unknown> = {};
  let i = skipSpaces(text, from);
  for (let k = 0; ; k++) {
    if (startsWithAt(text, FUNCTION_CLOSE, i)) return { attempt: named(resolve, name, args), end: i + FUNCTION_CLOSE.length };
    // Whole values, then the end of the reply: only the closing tag is missing.
    if (i >= text.length) return { attempt: k ? named(resolve, name, args) : { problem: 'cut_off', name }, end: text.length };
    PARAM_OPEN.lastIndex = i;
    const m = PARAM_OPEN.exec(text);
    if (!m) {
      if (k === 0) return undefined;
      const close = closerAt(text, FUNCTION_CLOSE, i);
      return { attempt: { problem: 'unparsable', name }, end: close === -1 ? text.length : close + FUNCTION_CLOSE.length };
    }
    const valueFrom = i + m[0].length;
    const closeTag = `</${m[1]!.toLowerCase()}>`;
    const cdata = startsWithAt(text, CDATA_OPEN.toLowerCase(), valueFrom) ? text.indexOf(']]>', valueFrom + CDATA_OPEN.length) : -1;
    const close = cdata === -1 && startsWithAt(text, CDATA_OPEN.toLowerCase(), valueFrom) ? -1 : closerAt(text, closeTag, cdata === -1 ? valueFrom : cdata);
    if (close === -1) return { attempt: { problem: 'cut_off', name }, end: text.length };
    const raw = text.slice(valueFrom, close);
    // `string="false"`: the value is JSON (Seed 2.0); otherwise the value as written, the line breaks around it layout
    // (`<param name="city">⏎Paris⏎</param>`, as MiniCPM5's parsers read it; its CDATA unwrapped later), which the schema types.
    const json = /\bstring\s*=\s*"false"/i.test(m[3]!) ? parseLooseJson(raw) : undefined;
    args[m[2]!] = json !== undefined ? json : new XmlNode(raw);
    i = skipSpaces(text, close + closeTag.length);
  }
}

/**
 * The `<function name="…">` calls that make up a wrapper's body (Seed 2.0's `<seed:tool_call>`), or undefined where
 * it holds anything else.
 */
export function namedFunctionsIn(ctx: ScanContext, body: string): Attempt[] | undefined {
  const attempts: Attempt[] = [];
  let i = skipSpaces(body, 0);
  while (i < body.length) {
    FUNCTION_OPEN.lastIndex = i;
    const m = FUNCTION_OPEN.exec(body);
    const read = m ? namedFunctionAt(body, i + m[0].length, m[1]!, ctx.resolve) : undefined;
    if (!read) return undefined;
    attempts.push(read.attempt);
    i = skipSpaces(body, read.end);
  }
  return attempts.length ? attempts : undefined;
}

/** MiniCPM5: `<function name="tool"><param name="k">v</param>…</function>`. */
export const functionNamed: Detector = (ctx) => {
  const spans: Span[] = [];
  const text = ctx.text;
  let covered = 0;
  for (const m of matchesOf(/<function\s+name\s*=\s*"([^"<>]{1,100})"\s*>/gi, text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const read = namedFunctionAt(text, m.index + m[0].length, m[1]!, ctx.resolve);
    if (!read) continue;
    covered = read.end;
    spans.push(spanOf(m.index, read.end, [read.attempt], 'tail'));
  }
  return spans;
};

/**
 * DeepSeek V4: `<tool_call id="…" name="tool">{…arguments…}</tool_call>`; fine-tunes write the tag in the pipes of
 * their special tokens (`<|tool_call name="bash">{…}</tool_call|>`, a Mistral-NeMo fine-tune's).
 */
export const toolCallNamed: Detector = (ctx) => {
  const spans: Span[] = [];
  for (const m of matchesOf(/<\|?tool_call\s[^<>]{0,200}?\bname\s*=\s*["']([^"'<>]{1,100})["'][^<>]{0,200}>([\s\S]*?)(<\/tool_call\s*\|?>|<\|\/tool_call\|>|$)/gi, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const body = m[2]!.trim();
    let attempt: Attempt;
    if (!body) attempt = m[3] ? named(ctx.resolve, m[1]!, {}) : { problem: 'cut_off', name: m[1] };
    else if (body[0] !== '{') continue;
    else if (!m[3] && jsonEnding(body) === 'cut') attempt = { problem: 'cut_off', name: m[1] };
    else {
      const args = parseLooseJson(body);
      attempt = isRecord(args) ? named(ctx.resolve, m[1]!, args) : { problem: 'unparsable', name: m[1] };
    }
    spans.push(spanOf(m.index, m.index + m[0].length, [attempt], 'token'));
  }
  return spans;
};
