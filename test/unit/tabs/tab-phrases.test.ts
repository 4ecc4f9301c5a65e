/**
 * Tabs named in words: "these two tabs", "my open tabs", "both tabs", "the other tab" resolve to
 * the tabs meant, or to a question back when the words fit more than one set; and the @ mention
 * the composer reads as it is typed.
 */
import { resolveTabs, tabPhraseOf } from '../../../src/background/tab-phrases';
import type { OpenTab } from '../../../src/shared/protocol';
import { matchingTabs, mentionAt, withoutMention } from '../../../src/sidebar/lib/mention';

const tab = (id: number, title: string, over: Partial<OpenTab> = {}): OpenTab => ({ id, title, url: `https://site${id}.example/`, active: false, ...over });

test.each([
  ['compare the prices in my two open tabs', { kind: 'count', n: 2 }],
  ['Compare these two tabs', { kind: 'count', n: 2 }],
  ['what do the 3 tabs have in common', { kind: 'count', n: 3 }],
  ['which of both tabs is cheaper', { kind: 'count', n: 2 }],
  ['summarise all my open tabs', { kind: 'all' }],
  ['what are my tabs about', { kind: 'all' }],
  ['for each tab, give me the title', { kind: 'all' }],
  ['is the other tab cheaper?', { kind: 'other' }],
  ['what do these tabs say about delivery', { kind: 'these' }],
])('“%s” names tabs', (text, phrase) => {
  expect(tabPhraseOf(text)).toEqual(phrase);
});

test.each(['what does this page say', 'open a new tab with the docs', 'tabulate the prices', 'the table of contents'])('“%s” names no tabs', (text) => {
  expect(tabPhraseOf(text)).toBeUndefined();
});

test('a count takes the tabs selected together first, else the window’s readable tabs when they are exactly that many', () => {
  const open = [tab(1, 'Shop A', { active: true }), tab(2, 'Shop B'), tab(3, 'about', { url: 'about:blank', restriction: 'protected' })];
  expect(resolveTabs({ kind: 'count', n: 2 }, open)).toEqual({ tabs: [{ id: 1, title: 'Shop A', url: 'https://site1.example/' }, { id: 2, title: 'Shop B', url: 'https://site2.example/' }] });
  const more = [...open, tab(4, 'Mail'), tab(5, 'News')];
  const asked = resolveTabs({ kind: 'count', n: 2 }, more);
  expect(asked).toMatchObject({ ask: expect.stringContaining('Which 2 tabs do you mean?') });
  expect((asked as { ask: string }).ask).toContain('Type @ in the message box');
  // The same words as keys, for the user's language.
  expect((asked as { said: { key: string; args?: string[] }[] }).said.map((p) => [p.key, p.args?.slice(0, 2)])).toEqual([['tabsWhichCount', ['2', '4']], ['tabsHowToAttach', undefined], ['tabsOpenList', [expect.stringContaining('- Shop A')]]]);
  const selected = more.map((t) => (t.id === 2 || t.id === 5 ? { ...t, highlighted: true } : t));
  expect(resolveTabs({ kind: 'count', n: 2 }, selected)).toEqual({ tabs: [expect.objectContaining({ id: 2 }), expect.objectContaining({ id: 5 })] });
});

test('"all" is every readable tab; "the other tab" needs exactly two; unreadable tabs are never taken', () => {
  const open = [tab(1, 'A', { active: true }), tab(2, 'B'), tab(3, 'Add-ons', { restriction: 'protected' })];
  expect(resolveTabs({ kind: 'all' }, open)).toEqual({ tabs: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })] });
  expect(resolveTabs({ kind: 'other' }, open)).toEqual({ tabs: [expect.objectContaining({ id: 2 })] });
  expect(resolveTabs({ kind: 'other' }, [...open, tab(4, 'C')])).toHaveProperty('ask');
  expect(resolveTabs({ kind: 'all' }, [tab(3, 'Add-ons', { restriction: 'protected' })])).toMatchObject({ ask: expect.stringContaining('no open tab FoxAgent can read') });
});

test('a question back lists the tabs by title as plain text: a title cannot become a link or markup', () => {
  const open = [tab(1, '[Win a prize](https://evil.example) **now**'), tab(2, 'B'), tab(3, 'C')];
  const { ask } = resolveTabs({ kind: 'count', n: 2 }, open) as { ask: string };
  expect(ask).toContain('\\[Win a prize\\]\\(https://evil\\.example\\) \\*\\*now\\*\\*');
});

test('an @ mention is read at the caret: after a space or at the start, up to the caret, without spaces', () => {
  expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' });
  expect(mentionAt('compare @sho', 12)).toEqual({ start: 8, query: 'sho' });
  expect(mentionAt('mail me at ada@example.com', 26)).toBeUndefined();
  expect(mentionAt('compare @shop and', 17)).toBeUndefined();
  expect(mentionAt('@a b', 4)).toBeUndefined();
  expect(withoutMention('compare @sho prices', { start: 8, query: 'sho' })).toEqual({ text: 'compare prices', caret: 8 });
  const tabs = [tab(1, 'About', { restriction: 'protected' }), tab(2, 'Kettle shop'), tab(3, 'News')];
  expect(matchingTabs(tabs, 'SHOP').map((t) => t.id)).toEqual([2]);
  expect(matchingTabs(tabs, '').map((t) => t.id)).toEqual([2, 3, 1]);
  expect(matchingTabs(tabs, 'site3').map((t) => t.id)).toEqual([3]);
});
