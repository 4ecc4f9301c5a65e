/** A reply streamed through the tool-markup filter in pieces of `size`: what the sidebar ends up showing. */
import { parseToolCalls, type ParseResult } from '../../src/background/llm/tool-protocol/parse';
import { createToolMarkupFilter } from '../../src/background/llm/tool-protocol/stream-filter';
import type { ToolInput } from '../../src/background/llm/tool-protocol/tools';

export function streamThrough(text: string, tools: readonly ToolInput[], size: number): string {
  const filter = createToolMarkupFilter(tools);
  let shown = '';
  for (let i = 0; i < text.length; i += size) {
    const piece = filter.push(text.slice(i, i + size));
    // A retraction clears what was shown: it was reasoning.
    if (filter.takeRetraction()) shown = '';
    shown += piece;
  }
  return shown + filter.flush();
}

/** Blanks collapsed: the parser and the filter may leave different runs of blanks where markup was. */
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Chunk sizes that split markup everywhere, and one that does not split it. */
export const CHUNK_SIZES = [1, 3, 7, 10_000];

/**
 * A text that holds no call: the parser gives neither a call nor a failure, and the filter shows
 * what the parser leaves as text, in every chunking. Returns the parse.
 */
export function expectNoCall(text: string, tools: readonly ToolInput[]): ParseResult {
  const result = parseToolCalls(text, tools);
  expect({ calls: result.calls, failures: result.failures }).toEqual({ calls: [], failures: [] });
  for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(text, tools, size)) }).toEqual({ size, shown: squash(result.text) });
  return result;
}

/** The parser reads exactly `calls` and leaves `shown` (blanks collapsed), and the filter shows that text in every chunking. */
export function expectReadAs(text: string, tools: readonly ToolInput[], calls: unknown[], shown: string): void {
  const result = parseToolCalls(text, tools);
  expect(result.calls).toEqual(calls);
  expect(squash(result.text)).toBe(shown);
  for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(text, tools, size)) }).toEqual({ size, shown });
}
