/** Tools written as their own XML tags: `<click id="3" />` or `<fill><id>3</id><text>hi</text></fill>` (Cline style). */
import { matchesOf, type Detector, type ScanContext, type Span } from '../scan';
import { decodeEntities, isRecord, parseLooseJson } from '../values';
import { closingTagIndex, firstFrom, readChildren } from '../xml-tree';
import { singleInput } from '../call-objects';
import type { JsonSchema } from '../tools';

const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
const ATTR_NAME = /[\w:-]+/y;
const UNQUOTED = /[^\s"'<>/]+/y;

/**
 * Reads the attributes and the end of an opening tag whose name ends at `from`. Linear: a quoted
 * value ends at the next quote of its kind, an unquoted one at a blank, quote, `<`, `>` or `/`.
 */
export function openingTag(text: string, from: number): { end: number; selfClosing: boolean; attributes: Record<string, unknown> } | undefined {
  const attributes: Record<string, unknown> = {};
  let i = from;
  for (;;) {
    let j = i;
    while (isSpace(text[j])) j++;
    if (j === i) break;
    ATTR_NAME.lastIndex = j;
    const name = ATTR_NAME.exec(text);
    if (!name) break;
    let k = ATTR_NAME.lastIndex;
    while (isSpace(text[k])) k++;
    if (text[k] !== '=') break;
    k++;
    while (isSpace(text[k])) k++;
    const quote = text[k];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, k + 1);
      if (close === -1) return undefined;
      value = text.slice(k + 1, close);
      i = close + 1;
    } else {
      UNQUOTED.lastIndex = k;
      const m = UNQUOTED.exec(text);
      if (!m) break;
      value = m[0];
      i = UNQUOTED.lastIndex;
    }
    attributes[name[0].toLowerCase()] = decodeEntities(value);
  }
  while (isSpace(text[i])) i++;
  const selfClosing = text[i] === '/';
  if (selfClosing) i++;
  return text[i] === '>' ? { end: i + 1, selfClosing, attributes } : undefined;
}

/** The first closing tag in `list` at or after `from`. */
function firstCloseFrom(list: readonly { start: number; end: number }[] | undefined, from: number) {
  return list?.[firstFrom(list, from)];
}

/**
 * A tool tag's body as arguments: its elements (`<path>a.ts</path>`, nested ones as objects,
 * repeated ones as lists, shaped later by the schema), a body that is only JSON, or words for a
 * tool that takes one input. Undefined when it is none of these (prose between tags).
 */
function argumentsIn(body: string, siblings: ReadonlySet<string> | undefined, schema?: JsonSchema): Record<string, unknown> | undefined {
  const trimmed = body.trim();
  if (!trimmed) return {};
  // Words and no tags, for a tool that takes one input (`<execute_bash>git status</execute_bash>`, CodeAct): that input.
  if (!trimmed.includes('<')) {
    const words = singleInput(trimmed, schema);
    if (words) return words;
  }
  const children = readChildren(body, siblings) ?? (siblings ? readChildren(body) : undefined);
  if (children) return Object.fromEntries([...children].map(([key, nodes]) => [key, nodes.length === 1 ? nodes[0]! : nodes]));
  const json = trimmed.startsWith('{') ? parseLooseJson(trimmed) : undefined;
  return isRecord(json) ? json : undefined;
}

/** The property names of a tool's schema, lower-cased: the elements its body may hold. */
function propertyNames(ctx: ScanContext, name: string): ReadonlySet<string> | undefined {
  const props = ctx.tools.schemaOf(name)?.properties;
  return props ? new Set(Object.keys(props).map((k) => k.toLowerCase())) : undefined;
}

/** A body left open at the end of the reply: its elements were complete (repaired), or one was cut. */
function openBody(body: string, siblings: ReadonlySet<string> | undefined): Record<string, unknown> | 'cut' | undefined {
  if (!/^\s*<[A-Za-z_]/.test(body)) return undefined;
  return argumentsIn(body, siblings) ?? 'cut';
}

export const xmlTags: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  let closes: ReturnType<typeof closingTagIndex> | undefined;
  let covered = 0;
  for (const m of matchesOf(/<([A-Za-z_][\w.-]*)/g, text)) {
    // Tags inside a call already read are its children.
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const name = ctx.resolve(m[1]!);
    if (!name) continue;
    const tag = openingTag(text, m.index + m[0].length);
    if (!tag) continue;
    if (tag.selfClosing) {
      spans.push({ start: m.index, end: tag.end, calls: [{ name, arguments: tag.attributes }] });
      covered = tag.end;
      continue;
    }
    // A tag is only a call when it is closed: "use the <click> tag" is talk about tags. A tag
    // left open at the end of the reply is a call cut off after its last complete element.
    closes ??= closingTagIndex(text);
    const siblings = propertyNames(ctx, name);
    const close = firstCloseFrom(closes.get(m[1]!.toLowerCase()), tag.end);
    if (!close) {
      if (!startsOwnLine(text, m.index)) continue;
      // The reply ends with the opening tag, its attributes the tool's parameters (`<search_files query="x">`, Qwen3
      // 0.6B): the call, never closed.
      const given = Object.keys(tag.attributes);
      if (given.length && !text.slice(tag.end).trim() && (!siblings || given.every((k) => siblings.has(k.toLowerCase())))) {
        spans.push({ start: m.index, end: text.length, calls: [{ name, arguments: tag.attributes }] });
        covered = text.length;
        continue;
      }
      // Words on the lines below, to the reply's end, for a tool that takes one input: cut off, for all the reply shows.
      if (/^[ \t]*\r?\n\s*[^\s<]/.test(text.slice(tag.end)) && singleInput(text.slice(tag.end), ctx.tools.schemaOf(name))) {
        spans.push({ start: m.index, end: text.length, calls: [], problems: [{ problem: 'cut_off', name }] });
        covered = text.length;
        continue;
      }
      const rest = openBody(text.slice(tag.end), siblings);
      if (!rest) continue;
      spans.push(rest === 'cut' ? { start: m.index, end: text.length, calls: [], problems: [{ problem: 'cut_off', name }] } : { start: m.index, end: text.length, calls: [{ name, arguments: { ...tag.attributes, ...rest } }] });
      covered = text.length;
      continue;
    }
    // Whatever this opening tag makes of its body, later openings of the same tool before this
    // closing tag would read a part of the same body: read it once.
    covered = close.end;
    const children = argumentsIn(text.slice(tag.end, close.start), siblings, ctx.tools.schemaOf(name));
    if (!children) continue;
    spans.push({ start: m.index, end: close.end, calls: [{ name, arguments: { ...tag.attributes, ...children } }] });
  }
  return spans;
};

/** Whether only blanks come before `at` on its line. */
function startsOwnLine(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i < 0 || text[i] === '\n';
}
