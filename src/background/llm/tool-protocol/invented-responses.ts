/**
 * A tool's response the model wrote itself right after its call (or a failed one) (`<tool_response>…</tool_response>`, the Hermes and Qwen
 * templates' marker for a tool's result): the model ran past its stop, and the result is made up, so it is never shown
 * (the real one comes from the tool). Only where it starts the line after a call, blanks between; anywhere else the tag
 * is the model's words, shown as written.
 */
import type { Span } from './scan';

const RESPONSE_OPEN = '<tool_response>';
const RESPONSE_CLOSE = /<\/tool_response\s*>/gi;

/** The invented responses' stretches, in order: each from its opening tag to its closing one, or to the end of the text. */
export function inventedResponses(text: string, calls: readonly Span[], inCode: (i: number) => boolean): [number, number][] {
  const found: [number, number][] = [];
  /** The closing tag found last, searched for from where the search began: never searched for twice over the same text. */
  let close: { from: number; at: number; end: number } | undefined;
  for (const span of calls) {
    if (!span.calls.length && !span.problems?.length) continue;
    let i = span.end;
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.slice(i, i + RESPONSE_OPEN.length).toLowerCase() !== RESPONSE_OPEN || inCode(i) || !startsLine(text, i)) continue;
    if (found.length && i < found.at(-1)![1]) continue;
    const from = i + RESPONSE_OPEN.length;
    if (!close || (close.at !== -1 && close.at < from) || close.from > from) {
      RESPONSE_CLOSE.lastIndex = from;
      const m = RESPONSE_CLOSE.exec(text);
      close = { from, at: m ? m.index : -1, end: m ? m.index + m[0].length : text.length };
    }
    found.push([i, close.at === -1 ? text.length : close.end]);
  }
  return found;
}

function startsLine(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i < 0 || text[i] === '\n';
}
