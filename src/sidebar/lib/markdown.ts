/**
 * A small Markdown parser for chat answers. It produces a tree of plain data — never HTML — that
 * the renderer turns into React elements, so nothing a model or a page writes can become markup.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  /** A link to one of the browser's tabs (`foxagent:tab/<id>`, written by a plan's answer): shown as a button that focuses it. */
  | { type: 'tab'; tabId: number; children: Inline[] };

export type Block =
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'table'; header: Inline[][]; align: ('left' | 'center' | 'right' | undefined)[]; rows: Inline[][][] }
  | { type: 'rule' };

const SAFE_SCHEMES = /^(https?:|mailto:)/i;

/** Only web and mail links survive; anything else (javascript:, data:, relative) is text. */
export function safeHref(raw: string): string | undefined {
  const href = raw.trim().replace(/^<|>$/g, '');
  return SAFE_SCHEMES.test(href) ? href : undefined;
}

const TAB_HREF = /^foxagent:tab\/(\d{1,10})$/;

/** The tab a `foxagent:tab/<id>` link names; any other `foxagent:` address is no link at all. */
export function tabOfHref(raw: string): number | undefined {
  const found = TAB_HREF.exec(raw.trim());
  return found ? Number(found[1]) : undefined;
}

/**
 * The next `]` from `from` on that is not escaped (`\]` is a bracket in the label's text), or -1.
 * Each `]` is looked at once per search and the backslashes before it once, so the callers' memo
 * keeps the whole parse linear.
 */
function closingBracket(text: string, from: number): number {
  for (let j = text.indexOf(']', from); j !== -1; j = text.indexOf(']', j + 1)) {
    let slashes = 0;
    while (j - slashes - 1 >= from && text[j - slashes - 1] === '\\') slashes++;
    if (slashes % 2 === 0) return j;
  }
  return -1;
}

/** Deeper nesting (emphasis in links in emphasis…, quotes in lists in quotes…) is shown as text. */
const MAX_DEPTH = 8;
const ESCAPABLE = /[\\`*_{}[\]()#+\-.!~|>]/;
const AUTOLINK = /https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/y;
/** A link's title after its address: `[a](https://… "title")`, bounded so that it is never a long search. */
const LINK_TITLE = /[ \t]{1,8}"[^"\n]{0,200}"\)/y;
const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);
const isWord = (ch: string | undefined) => ch !== undefined && /\w/.test(ch);

/**
 * Inline Markdown in one left-to-right pass. Every search for a closing delimiter remembers what
 * it found (or that there is none further on), so no stretch of the text is searched twice for the
 * same thing, whatever the model wrote: the work is linear in the text at each nesting level, and
 * nesting is bounded.
 */
export function parseInline(text: string, depth = 0): Inline[] {
  if (depth > MAX_DEPTH) return text ? [{ type: 'text', text }] : [];
  const out: Inline[] = [];
  let buffer = '';
  let last = ''; // the buffer's last character (read without flattening the growing string)
  const flush = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
    last = '';
  };
  const add = (s: string) => {
    buffer += s;
    last = s.at(-1) ?? last;
  };

  // Backtick runs, by length: a code span runs to the next run of the same length.
  const runsByLength = new Map<number, number[]>();
  const runAt = new Map<number, number>();
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (text[j] === '`') j++;
    const list = runsByLength.get(j - i) ?? [];
    list.push(i);
    runsByLength.set(j - i, list);
    runAt.set(i, j - i);
    i = j;
  }
  const runCursor = new Map<number, number>();
  const nextRun = (length: number, from: number): number => {
    const list = runsByLength.get(length) ?? [];
    let k = runCursor.get(length) ?? 0;
    while (k < list.length && list[k]! < from) k++;
    runCursor.set(length, k);
    return k < list.length ? list[k]! : -1;
  };

  // Closing delimiters: the last answer for each, valid for any later search that starts no further than it.
  const memo = new Map<string, { from: number; at: number }>();
  const closer = (delim: string, from: number, valid: (j: number) => boolean): number => {
    const known = memo.get(delim);
    if (known && known.from <= from && (known.at === -1 || from <= known.at)) return known.at;
    let j = text.indexOf(delim, from);
    while (j !== -1 && !valid(j)) j = text.indexOf(delim, j + 1);
    memo.set(delim, { from, at: j });
    return j;
  };
  const linkEnds = new Map<number, { end: number; href: string } | null>();
  // The next ']' from `from` on (-1: none). Nothing searched yet: a link may open the text.
  let bracket = { from: Number.POSITIVE_INFINITY, at: -1 };
  // A link's address runs from after `(` to the first `)` or space; both searches are memoised,
  // so links that never close ("[a](" many times) cost no re-scan of the text after them.
  let space = { from: Number.POSITIVE_INFINITY, at: -1 };
  const nextSpace = (from: number): number => {
    if (space.from <= from && (space.at === -1 || from <= space.at)) return space.at;
    let j = from;
    while (j < text.length && !isSpace(text[j])) j++;
    space = { from, at: j < text.length ? j : -1 };
    return space.at;
  };
  const linkTarget = (start: number): { end: number; href: string } | null => {
    const paren = closer(')', start, () => true);
    if (paren <= start) return null;
    const gap = nextSpace(start);
    if (gap === -1 || paren < gap) return { end: paren + 1, href: text.slice(start, paren) };
    if (gap === start) return null;
    // An address, then a title in quotes: looked for only a bounded stretch ahead.
    LINK_TITLE.lastIndex = gap;
    return LINK_TITLE.exec(text) ? { end: LINK_TITLE.lastIndex, href: text.slice(start, gap) } : null;
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      add(text[i + 1]!);
      i += 2;
      continue;
    }
    if (ch === '`') {
      const length = runAt.get(i) ?? 0;
      const close = length ? nextRun(length, i + length) : -1;
      if (close !== -1) {
        flush();
        out.push({ type: 'code', text: text.slice(i + length, close).trim() });
        i = close + length;
      } else {
        add('`'.repeat(Math.max(1, length)));
        i += Math.max(1, length);
      }
      continue;
    }
    if (ch === '[') {
      if (!(bracket.from <= i + 1 && (bracket.at === -1 || i + 1 <= bracket.at))) bracket = { from: i + 1, at: closingBracket(text, i + 1) };
      const close = bracket.at;
      if (close !== -1 && text[close + 1] === '(') {
        let link = linkEnds.get(close);
        if (link === undefined) {
          link = linkTarget(close + 2);
          linkEnds.set(close, link);
        }
        if (link) {
          const href = safeHref(link.href);
          const tabId = tabOfHref(link.href);
          const label = parseInline(text.slice(i + 1, close), depth + 1);
          flush();
          if (href) out.push({ type: 'link', href, children: label });
          else if (tabId !== undefined) out.push({ type: 'tab', tabId, children: label });
          else out.push(...label);
          i = link.end;
          continue;
        }
      }
    }
    if (ch === 'h' && !/[\w/]/.test(last)) {
      AUTOLINK.lastIndex = i;
      const auto = AUTOLINK.exec(text);
      if (auto) {
        flush();
        out.push({ type: 'link', href: auto[0], children: [{ type: 'text', text: auto[0] }] });
        i = AUTOLINK.lastIndex;
        continue;
      }
    }
    const pair = text.slice(i, i + 2);
    if ((pair === '**' || pair === '__' || pair === '~~') && !isSpace(text[i + 2])) {
      const close = closer(pair, i + 3, (j) => !isSpace(text[j - 1]));
      if (close !== -1) {
        flush();
        const children = parseInline(text.slice(i + 2, close), depth + 1);
        out.push(pair === '~~' ? { type: 'del', children } : { type: 'strong', children });
        i = close + 2;
        continue;
      }
    }
    if ((ch === '*' || ch === '_') && !isSpace(text[i + 1]) && !(ch === '_' && isWord(last))) {
      const close = closer(ch, i + 2, (j) => !isSpace(text[j - 1]) && text[j + 1] !== ch);
      if (close !== -1) {
        flush();
        out.push({ type: 'em', children: parseInline(text.slice(i + 1, close), depth + 1) });
        i = close + 1;
        continue;
      }
    }
    add(ch);
    i++;
  }
  flush();
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function splitRow(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** A heading's text: without the closing run of `#` and the blanks around it (no regex that could retry each blank). */
function headingText(line: string, marker: string): string {
  let text = line.slice(marker.length).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  text = text.slice(0, end).trimEnd();
  return text;
}

/** Characters given to `parseMarkdown` so far: what the tests and the bench read to see that finished chunks are not parsed again. */
export const markdownWork = { chars: 0 };

export function parseMarkdown(source: string, depth = 0): Block[] {
  if (depth === 0) markdownWork.chars += source.length;
  if (depth > MAX_DEPTH) return source.trim() ? [{ type: 'paragraph', children: [{ type: 'text', text: source.trim() }] }] : [];
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const isBlockStart = (line: string) => FENCE.test(line) || HEADING.test(line) || RULE.test(line) || BULLET.test(line) || /^\s*>/.test(line);

  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = line.match(FENCE);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++; // closing fence (or end of a still-streaming answer)
      blocks.push({ type: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = line.match(HEADING);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length, children: parseInline(headingText(line, heading[0]!)) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) body.push(lines[i++]!.replace(/^\s*>\s?/, ''));
      blocks.push({ type: 'quote', children: parseMarkdown(body.join('\n'), depth + 1) });
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]!) && lines[i + 1]!.includes('-')) {
      const header = splitRow(line);
      const align = splitRow(lines[i + 1]!).map((c) => (c.startsWith(':') && c.endsWith(':') ? 'center' : c.endsWith(':') ? 'right' : c.startsWith(':') ? 'left' : undefined));
      i += 2;
      const rows: Inline[][][] = [];
      while (i < lines.length && lines[i]!.includes('|') && lines[i]!.trim()) rows.push(splitRow(lines[i++]!).map(parseInline));
      blocks.push({ type: 'table', header: header.map(parseInline), align, rows });
      continue;
    }
    const bullet = line.match(BULLET);
    if (bullet) {
      const indent = bullet[1]!.length;
      const ordered = /\d/.test(bullet[2]!);
      const items: string[][] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const m = current.match(BULLET);
        if (m && m[1]!.length <= indent + 1 && /\d/.test(m[2]!) === ordered) {
          items.push([m[3]!]);
          i++;
        } else if (current.trim() && (/^\s{2,}/.test(current) || (!isBlockStart(current) && items.length > 0 && lines[i - 1]!.trim() !== ''))) {
          items.at(-1)!.push(current.replace(/^\s{0,4}/, ''));
          i++;
        } else if (!current.trim() && i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]!)) {
          i++;
        } else {
          break;
        }
      }
      blocks.push({ type: 'list', ordered, start: ordered ? parseInt(bullet[2]!, 10) : 1, items: items.map((item) => parseMarkdown(item.join('\n'), depth + 1)) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !(para.length && isBlockStart(lines[i]!))) para.push(lines[i++]!.trim());
    blocks.push({ type: 'paragraph', children: parseInline(para.join('\n')) });
  }
  return blocks;
}

/** A finished top-level stretch of an answer, or the one still being written (the last). */
export interface Chunk {
  start: number;
  text: string;
}

/**
 * Cuts a streaming answer into top-level chunks that parse on their own exactly as they do within
 * the whole: a cut falls at a blank line outside a code fence, before a line that starts at the
 * margin. Chunks before the last are finished and keep their text as the answer grows, so the
 * renderer parses each of them once. Fed the answer again as it grows, it reads only the new part.
 */
export class ChunkSplitter {
  private source = '';
  private finished: Chunk[] = [];
  /** Where the open chunk starts. */
  private openStart = 0;
  /** The open chunk has been read up to here (a line start), and the fence open there. */
  private scanned = 0;
  private scanFence: string | undefined;
  private blankBefore = false;

  split(source: string): Chunk[] {
    if (!source.startsWith(this.source)) this.reset();
    this.source = source;
    let at = this.scanned;
    for (let newline = source.indexOf('\n', at); newline !== -1; newline = source.indexOf('\n', at)) {
      this.line(source.slice(at, newline), at);
      at = newline + 1;
      this.scanned = at;
    }
    return [...this.finished, { start: this.openStart, text: source.slice(this.openStart) }];
  }

  /** Reads one complete line that starts at `start`. */
  private line(line: string, start: number): void {
    const blank = !line.trim();
    if (this.scanFence === undefined && this.blankBefore && !blank && !/^\s/.test(line) && start > this.openStart) {
      this.finished.push({ start: this.openStart, text: this.source.slice(this.openStart, start) });
      this.openStart = start;
    }
    if (this.scanFence !== undefined) {
      if (line.trim().startsWith(this.scanFence)) this.scanFence = undefined;
    } else {
      const open = line.match(FENCE);
      if (open) this.scanFence = open[1]!;
    }
    this.blankBefore = blank;
  }

  private reset(): void {
    this.source = '';
    this.finished = [];
    this.openStart = 0;
    this.scanned = 0;
    this.scanFence = undefined;
    this.blankBefore = false;
  }
}
