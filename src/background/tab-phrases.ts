/**
 * Which tabs a message means when it names them in words: "my open tabs", "these two tabs",
 * "both tabs", "the other tab". Resolved against the window's tabs (those selected together in
 * the tab strip first); when the words fit more than one set of tabs, the user is asked, not
 * guessed for. Linear in the message.
 */
import { MAX_MESSAGE_TABS, type TabRef } from '../shared/conversation';
import { say, type Localized } from '../shared/i18n';
import type { OpenTab } from '../shared/protocol';
import { english } from './english';

export type TabPhrase = { kind: 'all' } | { kind: 'count'; n: number } | { kind: 'other' } | { kind: 'these' };

const NUMBERS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6 };

/** The phrase naming tabs in a message, if it has one. */
export function tabPhraseOf(text: string): TabPhrase | undefined {
  const clean = text.slice(0, 2_000).toLowerCase();
  const counted = /\b(?:these|those|the|my|both|both of the) (two|three|four|five|six|[2-6]) (?:open )?tabs\b/.exec(clean);
  if (counted) return { kind: 'count', n: NUMBERS[counted[1]!]! };
  if (/\b(all|every|each)( of)?( my| the| these| those)?( open)? tabs?\b|\bmy( open)? tabs\b|\b(the )?open tabs\b/.test(clean)) return { kind: 'all' };
  if (/\bboth( of the| of my)? tabs\b/.test(clean)) return { kind: 'count', n: 2 };
  if (/\b(the )?other tab\b/.test(clean)) return { kind: 'other' };
  if (/\b(these|those) tabs\b/.test(clean)) return { kind: 'these' };
  return undefined;
}

/** The tabs meant, or the question back: in English (`ask`, for history and exports) and as keys (`said`, shown in the user's language). */
export type Resolution = { tabs: TabRef[] } | { ask: string; said: Localized[] };

/**
 * The tabs a phrase means among `open` (the window's tabs). Tabs FoxAgent cannot read are left
 * out. "These" and a count prefer the tabs selected together in the tab strip; "the other tab"
 * needs exactly two. Anything that fits more than one way asks which.
 */
export function resolveTabs(phrase: TabPhrase, open: readonly OpenTab[]): Resolution {
  const readable = open.filter((t) => !t.restriction);
  const selected = readable.filter((t) => t.highlighted);
  const refs = (tabs: readonly OpenTab[]) => tabs.slice(0, MAX_MESSAGE_TABS).map(({ id, title, url }) => ({ id, title, url }));
  switch (phrase.kind) {
    case 'all':
      return readable.length ? { tabs: refs(readable) } : askWhich(readable, say('tabsNoneReadable'));
    case 'count':
      if (selected.length === phrase.n) return { tabs: refs(selected) };
      if (readable.length === phrase.n) return { tabs: refs(readable) };
      return askWhich(readable, say('tabsWhichCount', phrase.n, readable.length));
    case 'other': {
      const others = readable.filter((t) => !t.active);
      if (readable.length === 2 && others.length === 1) return { tabs: refs(others) };
      return askWhich(readable, say('tabsWhichOther'));
    }
    case 'these':
      if (selected.length >= 2) return { tabs: refs(selected) };
      if (readable.length === 2) return { tabs: refs(readable) };
      return askWhich(readable, say('tabsWhich'));
  }
}

function askWhich(readable: readonly OpenTab[], question: Localized): { ask: string; said: Localized[] } {
  // Titles are the pages' own words: shown as plain text, never as Markdown links or emphasis.
  const listed = readable.slice(0, 12).map((t) => `- ${plain((t.title.replace(/\s+/g, ' ').slice(0, 80) || t.url).trim())}`);
  const said = [question, say('tabsHowToAttach'), ...(listed.length ? [say('tabsOpenList', listed.join('\n'))] : [])];
  return { ask: said.map(english).join('\n\n'), said };
}

/** Text as Markdown shows it literally: every character Markdown could read as markup escaped. */
function plain(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!~|>]/g, (ch) => `\\${ch}`).replace(/</g, '‹');
}
