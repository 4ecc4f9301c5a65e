/** Reads a finished stretch of the stream in place, with what was shown before it, as the parser reads the whole reply. */
import { hiddenRegions, parseToolCalls } from './parse';
import { REASONING } from './stream-openers';
import type { ShownText } from './stream-shown';
import type { ToolInput } from './tools';

/** Reads a finished stretch just after what was shown, as the parser reads it in the whole reply. */
export function inPlaceReader(tools: readonly ToolInput[], shown: ShownText) {
  const before = (mid: boolean) => `${shown.context(200)}${shown.lineBlank || mid ? '' : '\n'}`;
  const parseInPlace = (stretch: string, mid: boolean) => parseToolCalls(`${before(mid)}${stretch}`, tools);
  return {
    /** Where the stretch holds what the parser shows as text, read in place (markup, reasoning and template tokens left out). */
    shownPieces: (stretch: string, mid = false): [number, number][] => {
      const lead = before(mid);
      const pieces: [number, number][] = [];
      let at = 0;
      for (const [start, end] of hiddenRegions(`${lead}${stretch}`, tools)) {
        const from = Math.max(0, start - lead.length);
        if (from > at) pieces.push([at, from]);
        at = Math.max(at, end - lead.length);
      }
      if (at < stretch.length) pieces.push([at, stretch.length]);
      return pieces;
    },
    /** Whether the stretch holds calls, failed calls or reasoning (else it is released as text). */
    holdsCalls: (stretch: string, mid = false) => {
      if (REASONING.test(stretch)) return true;
      const parsed = parseInPlace(stretch, mid);
      return parsed.calls.length > 0 || parsed.failures.length > 0;
    },
    /**
     * Whether the calls the stretch holds stay calls with words after them on their line, as a closed
     * special-token pair or a block does in the parser: then they are hidden at once, not held for the line's end.
     */
    standsBeforeWords: (stretch: string, mid = false) => parseInPlace(`${stretch} and`, mid).calls.length > 0,
    /** Whether calls opening the reply stay calls with a word glued right after them (LFM2's list with its call tokens stripped: `[f()]Fetching…`). */
    standsBeforeGluedWord: (stretch: string) => parseInPlace(`${stretch}And`, false).calls.length > 0,
    /** Whether the stretch holds failed calls only, which words after it would leave prose (a fenced unknown tool's JSON as the whole reply). */
    failsOnlyEndingReply: (stretch: string, mid = false) => {
      const parsed = parseInPlace(stretch, mid);
      return parsed.calls.length === 0 && parsed.failures.length > 0 && parseInPlace(`${stretch}\n\nAnd`, mid).failures.length === 0;
    },
    /** Whether the stretch holds calls of offered tools and nothing that fails. */
    callsOnly: (stretch: string, mid = false) => {
      const parsed = parseInPlace(stretch, mid);
      return parsed.calls.length > 0 && parsed.failures.length === 0;
    },
  };
}
