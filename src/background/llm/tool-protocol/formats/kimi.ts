/**
 * Kimi's calls outside K2's section tokens.
 * - K2 with its opening tokens stripped: lines of `name:0<|tool_call_argument_begin|>{…}`, each ended
 *   by `<|tool_call_end|>` or `<|tool_calls_section_end|>` (the tokens that survive when a gateway
 *   strips the others). The argument token marks the family: nothing else writes it.
 * - K2 with every token stripped: `functions.name:0{…}` after the model's words.
 * - K3's XTML: `<|open|>tools<|sep|>` holding `<|open|>call tool="name" index="1"<|sep|>` elements, each
 *   with `<|open|>argument key="k" type="string"<|sep|>v<|close|>argument<|sep|>` elements or one
 *   `<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`, closed by `<|close|>call<|sep|>` and
 *   `<|close|>tools<|sep|>`. The `<|open|>`/`<|close|>`/`<|sep|>` tokens are special tokens: a call is a
 *   call wherever it stands. Its response and message markers are template tokens (parse.ts drops them).
 */
import { matchesOf, named, pairHeadsWithEnds, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { argumentsObject, isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';

const K2_LINE = /^[ \t]*(?:<\|tool_calls_section_begin\|>[ \t]*)?(?:functions\.)?([\w.-]{1,100}):\d{1,4}[ \t]*<\|tool_call_argument_begin\|>/gm;
const K2_END = /<\|tool_call_end\|>(?:[ \t]*<\|tool_calls_section_end\|>)?|<\|tool_calls_section_end\|>/g;

/** One K2 call's JSON arguments; cut off when the reply ended inside them. */
function k2Call(ctx: ScanContext, name: string, json: string, closed: boolean): Attempt {
  if (!closed && jsonEnding(json) === 'cut') return { problem: 'cut_off', name };
  const args = argumentsObject(json || '{}');
  return args ? named(ctx.resolve, name, args) : { problem: 'unparsable', name };
}

/** K2's call lines whose `<|tool_call_begin|>` (and section opener) the server or gateway dropped. */
export const kimiHeadless: Detector = (ctx) => {
  const heads = [...matchesOf(K2_LINE, ctx.text)].filter((m) => !ctx.isProtected(m.index) && !ctx.text.slice(Math.max(0, m.index - 24), m.index).includes('<|tool_call_begin|>'));
  const ends = [...matchesOf(K2_END, ctx.text)];
  return pairHeadsWithEnds(heads, ends, ctx.text.length).map(({ head, from, end, to, stop }) =>
    spanOf(head.index, stop, [k2Call(ctx, head[1]!, ctx.text.slice(from, to).trim(), end !== undefined)], 'token'),
  );
};

/** K2 with every token stripped (llama.cpp rendering K2's GGUF): `functions.name:0{…}`, glued to the words before it. */
const K2_BARE = /functions\.([\w.-]{1,100}):\d{1,4}[ \t]*(?=\{)/g;

/**
 * K2's calls with all their tokens stripped: `functions.name:0{…}` naming an offered tool, after blanks, a sentence's end or
 * the start of the reply, its arguments ending its line (or followed by the next such call). The `functions.` prefix and
 * the call's index mark the family. Arguments the reply ended inside are cut off.
 */
export const kimiBare: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  if (!text.includes('functions.')) return spans;
  let covered = 0;
  for (const m of matchesOf(K2_BARE, text)) {
    if (m.index < covered || ctx.isProtected(m.index) || !ctx.resolve(m[1]!)) continue;
    // After blanks, a sentence's end, or the call before it.
    if (m.index > 0 && !/[\s.!?。]/.test(text[m.index - 1]!) && !(m.index === covered && text[m.index - 1] === '}')) continue;
    const open = m.index + m[0].length;
    const close = matchBracket(text, open);
    const end = close === -1 ? text.length : close;
    if (close !== -1 && !/^[ \t]*(?:\r?\n|$|functions\.)/.test(text.slice(end, end + 12))) continue;
    spans.push(spanOf(m.index, end, [k2Call(ctx, m[1]!, text.slice(open, end), close !== -1)], 'anywhere'));
    covered = end;
  }
  return spans;
};

const OPEN = '<|open|>';
const SEP = '<|sep|>';
const XTML_TOOLS = /<\|open\|>tools<\|sep\|>/g;
const CALL_HEAD = /<\|open\|>call\b([^<]{0,300})<\|sep\|>/g;
const CALL_END = /<\|close\|>call<\|sep\|>/g;
const ELEMENT = /<\|open\|>(argument|json)\b([^<]{0,300})<\|sep\|>/g;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'", '&#39;': "'" };

/** An element's attributes (`key="city" type="string"`), their entities read. */
function attributes(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([\w-]{1,40})\s*=\s*"([^"]{0,200})"/g)) out[m[1]!] = m[2]!.replace(/&(?:amp|lt|gt|quot|apos|#39);/g, (e) => ENTITIES[e]!);
  return out;
}

/** An argument's value by its declared type: a string as written, anything else as a literal (else the tool's schema types it). */
function typedValue(value: string, type: string | undefined): unknown {
  if (type === 'string') return value;
  const literal = type ? parseLooseJson(value.trim()) : undefined;
  return literal !== undefined ? literal : new XmlNode(value, 'none');
}

/** One XTML call's body: its arguments, or why they cannot run. */
function xtmlCall(ctx: ScanContext, name: string, body: string, closed: boolean): Attempt {
  const args: Record<string, unknown> = {};
  const elements = [...matchesOf(ELEMENT, body)];
  for (const [n, m] of elements.entries()) {
    const from = m.index + m[0].length;
    const closer = `<|close|>${m[1]}${SEP}`;
    const end = body.indexOf(closer, from);
    if (end === -1 || end > (elements[n + 1]?.index ?? body.length)) return { problem: closed ? 'unparsable' : 'cut_off', name };
    const attrs = attributes(m[2]!);
    const value = body.slice(from, end);
    if (m[1] === 'json') {
      const json = parseLooseJson(value.trim());
      if (!isRecord(json)) return { problem: 'unparsable', name };
      Object.assign(args, json);
    } else if (attrs.key) args[attrs.key] = typedValue(value, attrs.type);
  }
  return named(ctx.resolve, name, args);
}

/** K3's XTML tool block, or a call element on its own. */
export const kimiXtml: Detector = (ctx) => {
  if (!ctx.text.includes(OPEN)) return [];
  const spans: Span[] = [];
  const blocks = [...matchesOf(XTML_TOOLS, ctx.text)].filter((m) => !ctx.isProtected(m.index));
  const heads = [...matchesOf(CALL_HEAD, ctx.text)].filter((m) => !ctx.isProtected(m.index));
  const ends = [...matchesOf(CALL_END, ctx.text)];
  let b = 0;
  for (const { head, from, end, to, stop: callStop } of pairHeadsWithEnds(heads, ends, ctx.text.length)) {
    const name = attributes(head[1]!).tool;
    let start = head.index;
    let stop = callStop;
    // The tools block around the calls belongs to them: its opening before the first, its closing after the last.
    for (; b < blocks.length && blocks[b]!.index + blocks[b]![0].length <= start; b++) {
      if (/^\s*$/.test(ctx.text.slice(blocks[b]!.index + blocks[b]![0].length, start))) start = blocks[b]!.index;
    }
    const after = /^\s*<\|close\|>tools<\|sep\|>/.exec(ctx.text.slice(stop, stop + 40));
    if (after) stop += after[0].length;
    spans.push(spanOf(start, stop, [name ? xtmlCall(ctx, name, ctx.text.slice(from, to), end !== undefined) : { problem: 'unparsable' }], 'anywhere'));
  }
  return spans;
};
