/**
 * Argument values written as XML: a parameter's text as written, and the elements inside it
 * (`<args><file><path>a.ts</path></file><file>…</file></args>`). Nothing is typed here: the tool's
 * schema decides later whether a value is text, a number, a list or an object (`fit.ts`).
 *
 * A value may itself hold its own closing tag (code containing `</content>`): an element closes at
 * the first closing tag of its name that is followed by the end of its parent or by a sibling's
 * opening tag, not at the first one. Linear: each level indexes its closing tags once.
 */
import { decodeEntities } from './values';

/**
 * What around a value is layout, not value: the line breaks next to its tags (Cline's rule), all
 * blanks (Qwen3-Coder's parameters), or nothing (GLM's `<arg_value>`, whose tags hug the value).
 */
export type XmlLayout = 'lines' | 'blanks' | 'none';

/** A parameter's text exactly as written between its tags. */
export class XmlNode {
  constructor(
    readonly raw: string,
    readonly layout: XmlLayout = 'lines',
  ) {}
}

/** Elements by name, in order; a name written several times gives several nodes (a list). */
export type XmlChildren = Map<string, XmlNode[]>;

/** No argument nests deeper than this; deeper markup stays text. */
export const MAX_XML_DEPTH = 8;

/** Tags that make a value a piece of HTML to write, not a structure of arguments. */
const HTML_TAGS = new Set(
  'a abbr article aside b blockquote body br button code div em footer form h1 h2 h3 h4 h5 h6 head header hr html i img input label li link main meta nav ol option p pre script section select span strong style table tbody td textarea th thead title tr u ul svg'.split(' '),
);

const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
const TAG_NAME = /<([A-Za-z_][\w.-]*)/y;

function skipSpaces(text: string, i: number): number {
  while (isSpace(text[i])) i++;
  return i;
}

interface Close {
  start: number;
  end: number;
}

/** Every closing tag `</name>` by lower-cased name, each list in text order: one pass. */
export function closingTagIndex(text: string): Map<string, Close[]> {
  const byName = new Map<string, Close[]>();
  for (let at = text.indexOf('</'); at !== -1; at = text.indexOf('</', at + 2)) {
    let j = at + 2;
    if (!/[A-Za-z_]/.test(text[j] ?? '')) continue;
    while (j < text.length && /[\w.-]/.test(text[j]!)) j++;
    const name = text.slice(at + 2, j).toLowerCase();
    const end = skipSpaces(text, j);
    if (text[end] !== '>') continue;
    const list = byName.get(name) ?? [];
    list.push({ start: at, end: end + 1 });
    byName.set(name, list);
  }
  return byName;
}

/** Index of the first entry of `list` starting at or after `from` (binary search). */
export function firstFrom(list: readonly Close[], from: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.start < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The elements `raw` consists of, or undefined when it is not only elements (text, an element with
 * attributes, HTML, or an element left open): then it is a value of its own. `siblings` are the
 * names a following element may have (the parent's schema properties), when known.
 */
export function readChildren(raw: string, siblings?: ReadonlySet<string>): XmlChildren | undefined {
  let i = skipSpaces(raw, 0);
  if (raw[i] !== '<' || !raw.includes('</')) return undefined;
  const closes = closingTagIndex(raw);
  const children: XmlChildren = new Map();
  const followedWell = (at: number): boolean => {
    const j = skipSpaces(raw, at);
    if (j >= raw.length) return true;
    if (raw[j] !== '<') return false;
    TAG_NAME.lastIndex = j;
    const next = TAG_NAME.exec(raw);
    return next !== null && (!siblings || siblings.has(next[1]!.toLowerCase()));
  };
  while (i < raw.length) {
    TAG_NAME.lastIndex = i;
    const m = TAG_NAME.exec(raw);
    if (!m) return undefined;
    const name = m[1]!;
    const key = name.toLowerCase();
    // An HTML tag's name is an argument's where the schema declares it so (`<code>` for a tool's `code`).
    if (HTML_TAGS.has(key) && !siblings?.has(key)) return undefined;
    let openEnd = TAG_NAME.lastIndex;
    openEnd = skipSpaces(raw, openEnd);
    if (raw.startsWith('/>', openEnd)) {
      push(children, key, new XmlNode(''));
      i = skipSpaces(raw, openEnd + 2);
      continue;
    }
    if (raw[openEnd] !== '>') return undefined;
    openEnd++;
    const list = closes.get(key);
    if (!list) return undefined;
    let k = firstFrom(list, openEnd);
    while (k < list.length && !followedWell(list[k]!.end)) k++;
    if (k >= list.length) return undefined;
    push(children, key, new XmlNode(raw.slice(openEnd, list[k]!.start)));
    i = skipSpaces(raw, list[k]!.end);
  }
  return children.size ? children : undefined;
}

function push(children: XmlChildren, key: string, node: XmlNode): void {
  const list = children.get(key);
  if (list) list.push(node);
  else children.set(key, [node]);
}

/**
 * A value's text: CDATA as is; with no layout, exactly as written; otherwise entities decoded, the newlines around it dropped, and a
 * one-line value trimmed.
 */
export function leafText(raw: string, layout: XmlLayout = 'lines'): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  if (cdata) return cdata[1]!;
  if (layout === 'none') return raw;
  // The line breaks around a value are layout; with `blanks`, all blanks around it are.
  let from = 0;
  let to = raw.length;
  let indented = false;
  if (layout === 'blanks') {
    while (from < to && isSpace(raw[from])) from++;
    // A value on lines of its own, its closing tag starting a line unindented, keeps its first line's indentation (a line
    // of code to replace, OpenHands' str_replace); where the closing tag is indented too, the indentation is the markup's.
    const lineStart = raw.lastIndexOf('\n', from - 1) + 1;
    indented = lineStart > 0 && lineStart < from && /\n\r?$/.test(raw) && !/\n[ \t]+$/.test(raw);
    if (indented) from = lineStart;
    // At the end, the blanks and one line break are layout; a multi-line value keeps a line break of its own (code ending in a blank line).
    while (to > from && (raw[to - 1] === ' ' || raw[to - 1] === '\t' || raw[to - 1] === '\r')) to--;
    if (raw[to - 1] === '\n') to--;
    if (!raw.slice(from, to).trimEnd().includes('\n')) while (to > from && isSpace(raw[to - 1])) to--;
  } else {
    // The newline after the opening tag, and a last line of blanks before the closing one (Cline's rule).
    if (raw[from] === '\r') from++;
    if (raw[from] === '\n') from++;
    let i = to;
    while (i > from && (raw[i - 1] === ' ' || raw[i - 1] === '\t')) i--;
    if (raw[i - 1] === '\n') to = raw[i - 2] === '\r' ? i - 2 : i - 1;
  }
  const value = decodeEntities(raw.slice(from, to));
  if (indented) return value.trimEnd();
  return value.includes('\n') ? value : value.trim();
}
