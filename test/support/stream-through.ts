/** A reply streamed through the tool-markup filter in pieces of `size`: what the sidebar ends up showing. */
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
