/**
 * readPage over real saved web pages (Mozilla Readability's test pages): no page throws, the
 * text is there where the article has text, the title is the article's, and a distinctive
 * passage of the expected article appears in the snapshot.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { readPage, renderSnapshotForPrompt } from '../../../src/content/dom-reader';

const { CORPUS_DIR: PAGES } = require('../../support/corpus.cjs') as { CORPUS_DIR: string };
const names = readdirSync(PAGES).filter((n) => existsSync(path.join(PAGES, n, 'source.html'))).sort();

const normalise = (s: string) =>
  s
    .replace(/\]\([^)]*\)/g, '')
    .replace(/[[\]*#|>`_]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** The longest link-free paragraph of the expected article, as a passage to look for. */
function passageOf(expectedHtml: string): string | undefined {
  const { window } = new JSDOM(expectedHtml);
  const doc = window.document;
  const paragraphs = Array.from(doc.querySelectorAll('p'))
    .filter((p) => !p.querySelector('a, code, sup, sub, img, br'))
    .map((p) => (p.textContent ?? '').replace(/\s+/g, ' ').trim())
    .filter((t) => t.length > 60)
    .sort((a, b) => b.length - a.length);
  const best = paragraphs[0];
  window.close();
  return best ? best.slice(0, 80) : undefined;
}

const results: { name: string; title: boolean; passage: boolean | undefined; source: string }[] = [];

afterAll(() => {
  // Across the corpus most titles match exactly and the expected passage is nearly always found.
  expect(results.filter((r) => r.title).length).toBeGreaterThanOrEqual(Math.floor(results.length * 0.9));
  const withPassage = results.filter((r) => r.passage !== undefined);
  console.log(
    `readability pages: ${results.length} read without error; title = expected on ${results.filter((r) => r.title).length}; ` +
      `expected passage found on ${withPassage.filter((r) => r.passage).length} of ${withPassage.length}; ` +
      `article extractor used on ${results.filter((r) => r.source === 'readability').length}`,
  );
});

test.each(names)('%s', (name) => {
  const dir = path.join(PAGES, name);
  const source = readFileSync(path.join(dir, 'source.html'), 'utf8').trim();
  const expected = readFileSync(path.join(dir, 'expected.html'), 'utf8').trim();
  const metadata = JSON.parse(readFileSync(path.join(dir, 'expected-metadata.json'), 'utf8')) as { title: string | null; readerable: boolean };
  const dom = new JSDOM(source, { url: 'http://fakehost/test/page.html' });

  const snapshot = readPage(dom.window.document, { maxTokens: 200_000, includeInteractive: true });

  const expectedWindow = new JSDOM(expected).window;
  const expectedText = expectedWindow.document.body.textContent?.trim() ?? '';
  expectedWindow.close();
  if (expectedText.length > 0) expect(snapshot.text.length).toBeGreaterThan(0);
  const passage = passageOf(expected);
  const found = passage === undefined ? undefined : normalise(snapshot.text).includes(normalise(passage));
  const titleMatches = normalise(snapshot.title) === normalise(metadata.title ?? '');
  results.push({ name, title: titleMatches, passage: found, source: snapshot.source });

  // Where the article extractor ran, its text is the expected article's, and its title is the
  // expected one, allowing for the site-name trimming that differs between extractor versions.
  if (snapshot.source === 'readability') {
    const [got, want] = [normalise(snapshot.title), normalise(metadata.title ?? snapshot.title)];
    expect(got.includes(want) || want.includes(got)).toBe(true);
    if (want) expect(got.length).toBeGreaterThan(0);
    if (passage) expect(normalise(snapshot.text)).toContain(normalise(passage));
  } else {
    // Otherwise the visible text still carries the page: the passage, if the page shows it.
    expect(snapshot.title).toBe((dom.window.document.title || snapshot.title).replace(/\s+/g, ' ').trim());
  }
  // Elements are numbered 1… and nothing is written into the page (ids live in the page agent).
  expect(snapshot.elements.map((e) => e.id)).toEqual(snapshot.elements.map((_, i) => i + 1));
  expect(dom.window.document.querySelector('[data-foxagent-id]')).toBeNull();

  // With the default budget of 3,000 tokens, what the model reads fits it (≈ 4 characters a token).
  const budgeted = renderSnapshotForPrompt(readPage(dom.window.document));
  expect(budgeted.length).toBeLessThanOrEqual(3000 * 4);
  dom.window.close();
});
