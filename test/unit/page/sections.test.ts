/**
 * Long pages as sections, and the sections a question gets: split at headings and paragraphs,
 * labelled by their heading path, ranked with BM25, chosen within the budget, sent in page order.
 */
import { scoreSections, selectSections, termsOf } from '../../../src/background/page/rank';
import { labelOf, outlineOf, SECTION_TARGET_CHARS, splitSections } from '../../../src/background/page/sections';

const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} about ${topic} goes on for a while with ordinary words.`).join('\n\n');

const REPORT = [
  'An annual report on the city.',
  '# Transport',
  filler('buses and trams', 30),
  '## Cycling',
  'Bike lanes grew by 14 kilometres. The new bridge opened in May.',
  '# Budget',
  filler('spending', 30),
  '## Water',
  'The reservoir held 82 percent of its capacity at the end of the drought.',
  '```',
  '# not a heading: code',
  '```',
].join('\n\n');

test('a page splits at headings, keeps each heading path, cuts long stretches near the target size, and leaves code alone', () => {
  const sections = splitSections(REPORT);
  expect(sections[0]).toEqual({ index: 0, headings: [], text: 'An annual report on the city.' });
  expect(sections.map((s) => s.index)).toEqual(sections.map((_, i) => i));
  const cycling = sections.find((s) => s.text.startsWith('Bike lanes'))!;
  expect(cycling.headings).toEqual(['Transport', 'Cycling']);
  expect(labelOf(cycling)).toBe('Transport › Cycling');
  const transport = sections.filter((s) => s.headings.join() === 'Transport');
  expect(transport.length).toBeGreaterThan(1);
  expect(transport.map((s) => s.part)).toEqual(transport.map((_, i) => i + 1));
  for (const s of transport) expect(s.text.length).toBeLessThanOrEqual(SECTION_TARGET_CHARS);
  const water = sections.at(-1)!;
  expect(water.headings).toEqual(['Budget', 'Water']);
  expect(water.text).toContain('# not a heading: code');
  // Nothing is lost or repeated.
  expect(sections.map((s) => s.text).join(' ').replace(/\s+/g, ' ')).toBe(REPORT.split(/\n/).filter((l) => !/^#{1,6} /.test(l) || l.includes('code')).join(' ').replace(/\s+/g, ' ').trim());
});

test('a paragraph with no breaks is cut at sentence ends; one with no sentence ends is cut hard', () => {
  const sentences = splitSections('Word word word word. '.repeat(400));
  expect(sentences.length).toBeGreaterThan(3);
  for (const s of sentences) expect(s.text.endsWith('.')).toBe(true);
  const solid = splitSections('x'.repeat(9_000));
  expect(solid.map((s) => s.text).join('')).toBe('x'.repeat(9_000));
});

test('the outline lists each heading once, indented by depth, and is bounded', () => {
  expect(outlineOf(splitSections(REPORT))).toBe('- Transport\n  - Cycling\n- Budget\n  - Water');
  const many = splitSections(Array.from({ length: 500 }, (_, i) => `# Heading number ${i}\n\ntext`).join('\n\n'));
  const outline = outlineOf(many, 300);
  expect(outline.length).toBeLessThanOrEqual(310);
  expect(outline.endsWith('- …')).toBe(true);
});

test('terms: lowercase words in any script without stopwords, plurals folded, Chinese in character pairs', () => {
  expect(termsOf('What are the prices of the Kettles?')).toEqual(termsOf('price kettle'));
  expect(termsOf('What are the prices of the Kettles?')).toHaveLength(2);
  for (const forms of [['prices', 'price', 'priced'], ['reports', 'reported', 'reporting'], ['boxes', 'box'], ['stories', 'story']]) {
    expect(new Set(forms.flatMap(termsOf)).size).toBe(1);
  }
  expect(termsOf('Wie hoch ist der Preis? Čeština a ĎÁBEL')).toEqual([...termsOf('hoch Preis'), 'čeština', 'ďábel']);
  expect(termsOf('北京大学')).toEqual(['北京', '京大', '大学']);
});

test('BM25 ranks the section that holds the rare words of the question first', () => {
  const sections = splitSections(REPORT);
  const scores = scoreSections(sections, 'How full was the reservoir after the drought?');
  const best = scores.indexOf(Math.max(...scores));
  expect(sections[best]!.text).toContain('82 percent');
  expect(scoreSections(sections, 'the of and')).toEqual(sections.map(() => 0));
});

test('a question about the end of a long page gets that section within the budget, with the start, in page order', () => {
  const sections = splitSections(REPORT);
  const selection = selectSections(sections, 'How full was the reservoir after the drought?', 2_000);
  expect(selection.matched).toBe(true);
  expect(selection.sections.some((s) => s.text.includes('82 percent'))).toBe(true);
  expect(selection.sections[0]!.index).toBe(0);
  expect(selection.sections.map((s) => s.index)).toEqual([...selection.sections.map((s) => s.index)].sort((a, b) => a - b));
  const sent = selection.sections.reduce((n, s) => n + s.text.length + labelOf(s).length + 6, 0);
  expect(sent).toBeLessThanOrEqual(2_000);
  expect(selection.chars).toBeLessThan(selection.totalChars);
  // Before, the first 2,000 characters held none of it.
  expect(REPORT.slice(0, 2_000)).not.toContain('82 percent');
});

test('a question that matches nothing gets the page from its start, as far as the budget goes', () => {
  const sections = splitSections(REPORT);
  const selection = selectSections(sections, 'zeppelin', 3_000);
  expect(selection.matched).toBe(false);
  expect(selection.sections.map((s) => s.index)).toEqual(selection.sections.map((_, i) => i));
});

test('splitting and ranking are linear: a 300 KB page of one paragraph, and 300 KB of headings, take moments', () => {
  for (const page of ['word '.repeat(60_000), '# h\n'.repeat(75_000), `${'a'.repeat(150_000)} ${'b '.repeat(75_000)}`]) {
    const started = performance.now();
    selectSections(splitSections(page), 'word h b question', 11_500);
    expect(performance.now() - started).toBeLessThan(1_500);
  }
});
