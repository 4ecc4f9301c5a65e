/**
 * Snapshot time and size of `readPage` under jsdom, on the real saved pages in
 * ../shared/fixtures/readability-pages (Mozilla Readability's test pages), with default options
 * (3,000-token budget, interactive elements included). Each page is parsed once, then read once
 * untimed and 3 times timed; figures are over all pages. Baseline in the same run: the naive
 * approach, `document.body.textContent`, its time and its size. Tokens are estimated as chars / 4,
 * as readPage's budget does. Parsing the HTML into jsdom is not counted. All 104 pages take about
 * 80 s on 2 cores; past 90 s no further page is started, and the table title says so.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { JSDOM } from 'jsdom';
import { readPage, renderSnapshotForPrompt } from '../src/content/dom-reader';
import { corpusDir, fmt, printTable, stats } from './lib';

const RUNS = 3;
const WARMUP = 1;
const BUDGET_TOKENS = 3000;
/** Stop starting new pages after this long, so the bench stays short on a slow machine. */
const TIME_LIMIT_MS = 90_000;

interface PageResult {
  name: string;
  readMs: number[];
  chars: number;
  elements: number;
  textContentMs: number[];
  textContentChars: number;
}

function timed<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const value = fn();
  return [value, performance.now() - start];
}

function benchPage(name: string, html: string): PageResult {
  const dom = new JSDOM(html, { url: 'http://fakehost/test/page.html' });
  const doc = dom.window.document;
  try {
    const readMs: number[] = [];
    const textContentMs: number[] = [];
    let chars = 0;
    let elements = 0;
    let textContentChars = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const [snapshot, ms] = timed(() => readPage(doc));
      const [text, textMs] = timed(() => doc.body?.textContent ?? '');
      chars = renderSnapshotForPrompt(snapshot).length;
      elements = snapshot.elements.length;
      textContentChars = text.length;
      if (i >= WARMUP) {
        readMs.push(ms);
        textContentMs.push(textMs);
      }
    }
    return { name, readMs, chars, elements, textContentMs, textContentChars };
  } finally {
    dom.window.close();
  }
}

const tokens = (chars: number) => Math.round(chars / 4);

function main() {
  const dir = corpusDir('the page-reader bench');
  if (!dir) return;
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'source.html')))
    .map((e) => e.name)
    .sort();

  const started = performance.now();
  const results: PageResult[] = [];
  for (const name of names) {
    if (performance.now() - started > TIME_LIMIT_MS) break;
    results.push(benchPage(name, readFileSync(path.join(dir, name, 'source.html'), 'utf8')));
  }

  const read = stats(results.flatMap((r) => r.readMs));
  const naive = stats(results.flatMap((r) => r.textContentMs));
  const size = stats(results.map((r) => r.chars));
  const naiveSize = stats(results.map((r) => r.textContentChars));
  const elements = stats(results.map((r) => r.elements));
  const fits = results.filter((r) => tokens(r.chars) <= BUDGET_TOKENS).length;
  const naiveFits = results.filter((r) => tokens(r.textContentChars) <= BUDGET_TOKENS).length;
  const share = (n: number) => `${Math.round((100 * n) / results.length)}% (${n} of ${results.length})`;
  const subset = results.length < names.length ? `, the first ${results.length} of ${names.length} pages (time limit)` : `, all ${results.length} pages`;

  printTable(`readPage under jsdom: ${RUNS} timed runs per page after ${WARMUP} warm-up${subset}`, [
    {
      what: 'baseline: body.textContent',
      'median time': fmt(naive.median),
      'p95 time': fmt(naive.p95),
      'median chars': naiveSize.median,
      'p95 chars': naiveSize.p95,
      'median tokens': tokens(naiveSize.median),
      'p95 tokens': tokens(naiveSize.p95),
      'median elements': '-',
      [`fits ${BUDGET_TOKENS} tokens`]: share(naiveFits),
    },
    {
      what: 'readPage (size: renderSnapshotForPrompt)',
      'median time': fmt(read.median),
      'p95 time': fmt(read.p95),
      'median chars': size.median,
      'p95 chars': size.p95,
      'median tokens': tokens(size.median),
      'p95 tokens': tokens(size.p95),
      'median elements': elements.median,
      [`fits ${BUDGET_TOKENS} tokens`]: share(fits),
    },
  ]);
  const over = results.filter((r) => tokens(r.chars) > BUDGET_TOKENS).sort((a, b) => b.chars - a.chars);
  if (over.length) console.log(`Snapshots over ${BUDGET_TOKENS} tokens: ${over.length}; largest: ${over.slice(0, 5).map((r) => `${r.name} (${tokens(r.chars)})`).join(', ')}`);
}

main();
