/**
 * What is read aloud of an answer: its words without Markdown. Code blocks are skipped (read
 * aloud they are noise), links are their text, list items and table cells become short phrases.
 * It walks the sidebar's own Markdown tree, so the work stays linear in the answer's size.
 */
import { parseMarkdown, type Block, type Inline } from '../lib/markdown';

function inlineText(parts: Inline[]): string {
  return parts.map((part) => (part.type === 'text' || part.type === 'code' ? part.text : inlineText(part.children))).join('');
}

/** A phrase ends with a stop, so the voice pauses between headings, items and cells. */
function phrase(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  if (!words) return '';
  return /[.!?:;…]$/.test(words) ? words : `${words}.`;
}

function blockPhrases(block: Block): string[] {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
      return [phrase(inlineText(block.children))];
    case 'code':
    case 'rule':
      return [];
    case 'list':
      return block.items.flatMap((item) => item.flatMap(blockPhrases));
    case 'quote':
      return block.children.flatMap(blockPhrases);
    case 'table':
      return [block.header, ...block.rows].map((row) => phrase(row.map((cell) => inlineText(cell).trim()).filter(Boolean).join(', ')));
  }
}

/** The answer's words as they should be spoken: Markdown stripped, code blocks skipped, links as their text. */
export function textForSpeech(markdown: string): string {
  return parseMarkdown(markdown).flatMap(blockPhrases).filter(Boolean).join(' ');
}

/**
 * The text cut into utterances of at most `max` characters, at sentence ends where it can (a
 * speech engine may stop on a very long utterance, and Stop takes effect between them).
 */
export function speechChunks(text: string, max = 240): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const sentence of text.split(/(?<=[.!?…])\s+/)) {
    for (let start = 0; start < sentence.length; start += max) {
      const piece = sentence.slice(start, start + max);
      if (current && current.length + 1 + piece.length > max) {
        chunks.push(current);
        current = '';
      }
      current = current ? `${current} ${piece}` : piece;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
