import type { OpenTab } from '../../shared/protocol';

/** An `@` being typed: where it starts in the text and what follows it up to the caret. */
export interface Mention {
  start: number;
  query: string;
}

/**
 * The `@…` the caret is in, if any: an `@` at the start or after a space, and no space between
 * it and the caret. Looks back from the caret only as far as one word.
 */
export function mentionAt(text: string, caret: number): Mention | undefined {
  const from = Math.max(0, caret - 60);
  const before = text.slice(from, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return undefined;
  const query = before.slice(at + 1);
  if (/\s/.test(query)) return undefined;
  const start = from + at;
  if (start > 0 && !/\s/.test(text[start - 1]!)) return undefined;
  return { start, query };
}

/** The text with the `@query` taken out, and where the caret goes. */
export function withoutMention(text: string, mention: Mention): { text: string; caret: number } {
  const end = mention.start + 1 + mention.query.length;
  const rest = text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, mention.start) + rest, caret: mention.start };
}

/** Tabs whose title or address holds the query (any case), readable ones first, then in tab order. */
export function matchingTabs(tabs: readonly OpenTab[], query: string): OpenTab[] {
  const q = query.toLowerCase();
  const hits = tabs.filter((t) => !q || t.title.toLowerCase().includes(q) || t.url.toLowerCase().includes(q));
  return [...hits.filter((t) => !t.restriction), ...hits.filter((t) => t.restriction)];
}
