/**
 * A page's readable text (the reader's Markdown) as sections: split at headings, and long
 * stretches between headings cut at paragraph (then sentence) boundaries, so that each section is
 * small enough to be chosen on its own. Each keeps its heading path as its label. Linear in the
 * text: one pass over its lines.
 */

export interface Section {
  /** Position in the page, from 0. */
  index: number;
  /** The headings it sits under, outermost first; empty before the first heading. */
  headings: string[];
  /** Which part of its heading's text it is (1-based) when that text was cut into several. */
  part?: number;
  text: string;
}

/** Sections aim at about this many characters; a paragraph longer than the maximum is cut at sentences. */
export const SECTION_TARGET_CHARS = 1_200;
const SECTION_MAX_CHARS = 2_000;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

export function splitSections(markdown: string): Section[] {
  const sections: Section[] = [];
  const path: { level: number; text: string }[] = [];
  let paragraphs: string[] = [];
  let paragraph: string[] = [];
  let fence: string | undefined;

  const endParagraph = () => {
    if (paragraph.length) paragraphs.push(paragraph.join('\n'));
    paragraph = [];
  };
  const endBlock = () => {
    endParagraph();
    const headings = path.map((h) => h.text);
    const chunks = chunk(paragraphs.flatMap(cutLong));
    chunks.forEach((text, i) => sections.push({ index: sections.length, headings, ...(chunks.length > 1 ? { part: i + 1 } : {}), text }));
    paragraphs = [];
  };

  for (const line of markdown.split('\n')) {
    // A heading-like line inside a code block is code, not a heading.
    const fenceMark = /^\s*(```|~~~)/.exec(line)?.[1];
    if (fenceMark && (!fence || fence === fenceMark)) fence = fence ? undefined : fenceMark;
    const heading = fence || fenceMark ? null : HEADING.exec(line);
    if (heading) {
      endBlock();
      const level = heading[1]!.length;
      while (path.length && path[path.length - 1]!.level >= level) path.pop();
      path.push({ level, text: heading[2]!.trim() });
    } else if (!line.trim() && !fence) {
      endParagraph();
    } else {
      paragraph.push(line);
    }
  }
  endBlock();
  return sections;
}

/** A section's label: its heading path, and its part when its heading's text was cut. */
export function labelOf(section: Section): string {
  const path = section.headings.length ? section.headings.join(' › ') : '(start of the page)';
  return section.part ? `${path} (part ${section.part})` : path;
}

/** The characters a section takes when sent: its text under a `## label` line, and the blank line after. */
export function sentSize(section: Section): number {
  return section.text.length + labelOf(section).length + 6;
}

/** The page's headings, indented by depth, each once; bounded for the prompt. */
export function outlineOf(sections: readonly Section[], maxChars = 1_500): string {
  const lines: string[] = [];
  let size = 0;
  let previous: string[] = [];
  for (const section of sections) {
    const headings = section.headings;
    // Only the headings that differ from the previous section's are new.
    let same = 0;
    while (same < headings.length && headings[same] === previous[same]) same++;
    previous = headings;
    for (let depth = same; depth < headings.length; depth++) {
      const line = `${'  '.repeat(depth)}- ${headings[depth]}`;
      size += line.length + 1;
      if (size > maxChars) return [...lines, '- …'].join('\n');
      lines.push(line);
    }
  }
  return lines.join('\n');
}

/** Joins paragraphs into chunks of about the target size, never splitting a paragraph. */
function chunk(paragraphs: string[]): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const paragraph of paragraphs) {
    if (current && current.length + paragraph.length + 2 > SECTION_TARGET_CHARS) {
      chunks.push(current);
      current = '';
    }
    current = current ? `${current}\n\n${paragraph}` : paragraph;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** A paragraph longer than the maximum, cut after sentence ends (or hard, when it has none). */
function cutLong(paragraph: string): string[] {
  if (paragraph.length <= SECTION_MAX_CHARS) return [paragraph];
  const pieces: string[] = [];
  let start = 0;
  while (paragraph.length - start > SECTION_MAX_CHARS) {
    const window = paragraph.slice(start, start + SECTION_MAX_CHARS);
    const sentenceEnd = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! '), window.lastIndexOf('。'));
    const end = sentenceEnd > SECTION_TARGET_CHARS / 2 ? sentenceEnd + 1 : SECTION_MAX_CHARS;
    pieces.push(paragraph.slice(start, start + end).trim());
    start += end;
  }
  pieces.push(paragraph.slice(start).trim());
  return pieces.filter(Boolean);
}
