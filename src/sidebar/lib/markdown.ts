/**
 * A small Markdown parser for chat answers. It produces a tree of plain data — never HTML — that
 * the renderer turns into React elements, so nothing a model or a page writes can become markup.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

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

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!~|>]/.test(text[i + 1]!)) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    const code = rest.match(/^(`+)([\s\S]*?[^`])\1(?!`)/);
    if (code) {
      flush();
      out.push({ type: 'code', text: code[2]!.trim() });
      i += code[0].length;
      continue;
    }
    const link = rest.match(/^\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/);
    if (link) {
      const href = safeHref(link[2]!);
      flush();
      if (href) out.push({ type: 'link', href, children: parseInline(link[1]!) });
      else out.push(...parseInline(link[1]!));
      i += link[0].length;
      continue;
    }
    const auto = rest.match(/^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/);
    if (auto && !/[\w/]$/.test(buffer)) {
      flush();
      out.push({ type: 'link', href: auto[0], children: [{ type: 'text', text: auto[0] }] });
      i += auto[0].length;
      continue;
    }
    const strong = rest.match(/^(\*\*|__)(?=\S)([\s\S]*?\S)\1/);
    if (strong) {
      flush();
      out.push({ type: 'strong', children: parseInline(strong[2]!) });
      i += strong[0].length;
      continue;
    }
    const del = rest.match(/^~~(?=\S)([\s\S]*?\S)~~/);
    if (del) {
      flush();
      out.push({ type: 'del', children: parseInline(del[1]!) });
      i += del[0].length;
      continue;
    }
    const em = rest.match(/^(\*|_)(?=\S)([\s\S]*?\S)\1(?!\1)/);
    if (em && !(ch === '_' && /\w$/.test(buffer))) {
      flush();
      out.push({ type: 'em', children: parseInline(em[2]!) });
      i += em[0].length;
      continue;
    }
    buffer += ch;
    i++;
  }
  flush();
  return out;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function splitRow(line: string): string[] {
  const trimmed = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

export function parseMarkdown(source: string): Block[] {
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
      blocks.push({ type: 'heading', level: heading[1]!.length, children: parseInline(heading[2]!) });
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
      blocks.push({ type: 'quote', children: parseMarkdown(body.join('\n')) });
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
      blocks.push({ type: 'list', ordered, start: ordered ? parseInt(bullet[2]!, 10) : 1, items: items.map((item) => parseMarkdown(item.join('\n'))) });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() && !(para.length && isBlockStart(lines[i]!))) para.push(lines[i++]!.trim());
    blocks.push({ type: 'paragraph', children: parseInline(para.join('\n')) });
  }
  return blocks;
}
