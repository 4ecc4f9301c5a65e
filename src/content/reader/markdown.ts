/** DOM to compact, markdown-like text: headings, lists, links, tables, quotes and code stay readable. */
import { hrefResolver, type HrefResolver } from './href';
import { walk, type FrameInfo } from './walk';

const BLOCK = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TR', 'UL', 'CAPTION', 'LEGEND', 'OPTION']);

function safeHref(el: Element, resolve: HrefResolver): string | undefined {
  const href = resolve(el) ?? '';
  return /^(https?:|mailto:)/i.test(href) ? href : undefined;
}

function meaningfulAlt(alt: string | null): string | undefined {
  const a = (alt ?? '').trim();
  if (a.length < 3 || /^(image|img|photo|picture|icon|logo|spacer)$/i.test(a) || /\.(png|jpe?g|gif|webp|svg)$/i.test(a)) return undefined;
  return a.replace(/\s+/g, ' ');
}

export interface RenderResult {
  text: string;
  frames: FrameInfo[];
}

/** Renders a subtree (element, document or fragment) as text, including shadow roots and same-origin frames. */
export function renderMarkdown(root: Node, { includeFrames = true }: { includeFrames?: boolean } = {}): RenderResult {
  const out: string[] = [];
  const listStack: { ordered: boolean; n: number }[] = [];
  const linkStarts: number[] = [];
  let rowCells = 0;
  let headerDone = new WeakSet<Element>();
  const newline = (count = 1) => out.push('\n'.repeat(count));
  const frames: FrameInfo[] = [];
  const resolve = hrefResolver();

  walk(
    root,
    ({ node, exit }) => {
      if (node.nodeType === 3) {
        const text = (node.nodeValue ?? '').replace(/\s+/g, ' ');
        if (text.trim() || (text && out.length && !/\s$/.test(out.at(-1)!))) out.push(text);
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node as Element;
      const tag = el.tagName.toUpperCase();
      if (!includeFrames && (tag === 'IFRAME' || tag === 'FRAME') && !exit) return false;
      if (exit) {
        switch (tag) {
          case 'A': {
            const start = linkStarts.pop() ?? out.length;
            const href = safeHref(el, resolve);
            const inner = out.splice(start).join('').trim();
            if (inner) out.push(href ? ` [${inner}](${href}) ` : ` ${inner} `);
            return;
          }
          case 'UL':
          case 'OL':
            listStack.pop();
            newline();
            return;
          case 'TD':
          case 'TH':
            out.push(' |');
            return;
          case 'TR': {
            const table = el.closest('table');
            if (table && !headerDone.has(table) && el.querySelector('th')) {
              headerDone.add(table);
              newline();
              out.push(`|${' --- |'.repeat(Math.max(rowCells, 1))}`);
            }
            newline();
            return;
          }
          default:
            if (BLOCK.has(tag)) newline(/^H[1-6]$|^P$|^TABLE$|^BLOCKQUOTE$/.test(tag) ? 2 : 1);
            return;
        }
      }
      switch (tag) {
        case 'BR':
          newline();
          return;
        case 'HR':
          out.push('\n---\n');
          return false;
        case 'PRE':
          out.push(`\n\`\`\`\n${(el.textContent ?? '').replace(/\n+$/, '')}\n\`\`\`\n`);
          return false;
        case 'IMG': {
          const alt = meaningfulAlt(el.getAttribute('alt'));
          if (alt) out.push(` ![${alt}] `);
          return false;
        }
        case 'INPUT':
        case 'SELECT':
        case 'TEXTAREA':
        case 'BUTTON':
          if (tag !== 'BUTTON') return false;
          break;
        case 'A':
          linkStarts.push(out.length);
          return;
        case 'UL':
        case 'OL':
          listStack.push({ ordered: tag === 'OL', n: Number(el.getAttribute('start') ?? 1) });
          newline();
          return;
        case 'LI': {
          const list = listStack.at(-1);
          const indent = '  '.repeat(Math.max(0, listStack.length - 1));
          out.push(`\n${indent}${list?.ordered ? `${list.n++}. ` : '- '}`);
          return;
        }
        case 'TR':
          rowCells = 0;
          out.push('\n|');
          return;
        case 'TD':
        case 'TH':
          rowCells++;
          out.push(' ');
          return;
        case 'BLOCKQUOTE':
          out.push('\n> ');
          return;
        case 'TABLE':
          headerDone = headerDone ?? new WeakSet();
          newline();
          return;
      }
      const heading = tag.match(/^H([1-6])$/);
      if (heading) {
        out.push(`\n\n${'#'.repeat(Number(heading[1]))} `);
        return;
      }
      if (BLOCK.has(tag)) newline();
      return;
    },
    frames,
  );
  const text = out
    .join('')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n(- |\d+\. )\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text, frames };
}
