/** Tools written as their own XML tags: `<click id="3" />` or `<fill><id>3</id><text>hi</text></fill>` (Cline style). */
import { matchesOf, type Detector, type Span } from '../scan';
import { decodeEntities, parseLooseJson, xmlValue } from '../values';

const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
const ATTR_NAME = /[\w:-]+/y;
const UNQUOTED = /[^\s"'<>/]+/y;

/**
 * Reads the attributes and the end of an opening tag whose name ends at `from`. Linear: a quoted
 * value ends at the next quote of its kind, an unquoted one at a blank, quote, `<`, `>` or `/`.
 */
function openingTag(text: string, from: number): { end: number; selfClosing: boolean; attributes: Record<string, unknown> } | undefined {
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

/** Closing tags by lower-cased name, each list in text order. */
function closingTags(text: string): Map<string, { start: number; end: number }[]> {
  const byName = new Map<string, { start: number; end: number }[]>();
  for (const m of matchesOf(/<\/([A-Za-z_][\w.-]*)/g, text)) {
    let end = m.index + m[0].length;
    while (isSpace(text[end])) end++;
    if (text[end] !== '>') continue;
    const key = m[1]!.toLowerCase();
    const list = byName.get(key) ?? [];
    list.push({ start: m.index, end: end + 1 });
    byName.set(key, list);
  }
  return byName;
}

/** The first closing tag in `list` at or after `from`, by binary search. */
function firstFrom(list: readonly { start: number; end: number }[] | undefined, from: number) {
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.start < from) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

/** Child elements `<param>value</param>`; a body that is only JSON is taken as the arguments. */
function childrenOf(body: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  let found = false;
  const closes = closingTags(body);
  let at = 0;
  for (const m of matchesOf(/<([\w-]+)/g, body)) {
    if (m.index < at) continue;
    const open = openingTagEnd(body, m.index + m[0].length);
    if (open === -1) continue;
    const close = firstFrom(closes.get(m[1]!.toLowerCase()), open);
    // A child needs its own closing tag with the very same name.
    if (!close || body.slice(close.start + 2, close.start + 2 + m[1]!.length) !== m[1]) continue;
    args[m[1]!.toLowerCase()] = xmlValue(body.slice(open, close.start));
    found = true;
    at = close.end;
  }
  if (found) return args;
  const trimmed = body.trim();
  if (!trimmed) return {};
  const json = trimmed.startsWith('{') ? parseLooseJson(trimmed) : undefined;
  return json && typeof json === 'object' && !Array.isArray(json) ? json : undefined;
}

/** End of a child's opening tag `<name …>` (no `<` or `>` inside), or -1. */
function openingTagEnd(body: string, from: number): number {
  if (body[from] === '>') return from + 1;
  if (!isSpace(body[from])) return -1;
  for (let i = from; i < body.length; i++) {
    if (body[i] === '>') return i + 1;
    if (body[i] === '<') return -1;
  }
  return -1;
}

export const xmlTags: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  let closes: ReturnType<typeof closingTags> | undefined;
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
    // A tag is only a call when it is closed: "use the <click> tag" is talk about tags.
    closes ??= closingTags(text);
    const close = firstFrom(closes.get(m[1]!.toLowerCase()), tag.end);
    if (!close) continue;
    // Whatever this opening tag makes of its body, later openings of the same tool before this
    // closing tag would read a part of the same body: read it once.
    covered = close.end;
    const children = childrenOf(text.slice(tag.end, close.start));
    if (!children) continue;
    spans.push({ start: m.index, end: close.end, calls: [{ name, arguments: { ...tag.attributes, ...children } }] });
  }
  return spans;
};
