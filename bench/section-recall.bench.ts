/**
 * Recall of section ranking on the real-page corpus (../shared/fixtures/readability-pages): for
 * each page whose readable text does not fit the question budget, a question is built from a
 * sentence in the last third of the text (every other content word of it, so not the sentence
 * itself), and we check whether the text that would be sent contains that sentence. Ranked: the
 * sections BM25 picks within the budget (rank.ts). Baseline in the same run: the first N
 * characters, N being the same budget, as questions were answered before. Also the time to split
 * and rank a page, median and p95.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { JSDOM } from 'jsdom';
import { readPage } from '../src/content/dom-reader';
import { selectSections } from '../src/background/page/rank';
import { splitSections } from '../src/background/page/sections';
import { corpusDir, fmt, printTable, stats } from './lib';

/** What the question path could send of a page before (about 3,000 tokens), and what a 4k-token context leaves. */
const BUDGETS = [11_500, 4_000];
const FULL_PAGE_TOKENS = 200_000;

interface Probe {
  page: string;
  sentence: string;
  question: string;
  text: string;
}

/** A sentence late in the text, long enough to be about something; the same one on every run. */
function probeOf(page: string, text: string): Probe | undefined {
  const start = Math.floor(text.length * 0.66);
  const sentences = text
    .slice(start)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length >= 10 && s.length < 400 && !s.startsWith('|'));
  if (!sentences.length) return undefined;
  const sentence = sentences[hash(page) % sentences.length]!;
  const words = sentence.match(/[\p{L}\p{N}]{4,}/gu) ?? [];
  const picked = words.filter((_, i) => i % 2 === 1).slice(0, 6);
  if (picked.length < 3) return undefined;
  return { page, sentence, question: `What does the page say about ${picked.join(' ')}?`, text };
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

/** Whether `sent` holds the sentence (its middle, so that a cut at either end does not count against it). */
function holds(sent: string, sentence: string): boolean {
  const middle = sentence.slice(Math.floor(sentence.length / 4), Math.floor((sentence.length * 3) / 4));
  return sent.includes(middle);
}

function main(): void {
  const dir = corpusDir('the section-recall bench');
  if (!dir) return;
  const probes: Probe[] = [];
  let fits = 0;
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name, 'source.html');
    let html: string;
    try {
      html = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const dom = new JSDOM(html, { url: 'http://fakehost/test/page.html' });
    try {
      const text = readPage(dom.window.document, { maxTokens: FULL_PAGE_TOKENS, includeInteractive: false }).text;
      if (text.length <= BUDGETS[0]!) fits++;
      else {
        const probe = probeOf(name, text);
        if (probe) probes.push(probe);
      }
    } finally {
      dom.window.close();
    }
  }

  for (const budget of BUDGETS) {
    let ranked = 0;
    let firstN = 0;
    const times: number[] = [];
    const shares: number[] = [];
    for (const probe of probes) {
      const started = performance.now();
      const selection = selectSections(splitSections(probe.text), probe.question, budget);
      times.push(performance.now() - started);
      shares.push(selection.chars / selection.totalChars);
      if (holds(selection.sections.map((s) => s.text).join('\n\n'), probe.sentence)) ranked++;
      if (holds(probe.text.slice(0, budget), probe.sentence)) firstN++;
    }
    const pct = (n: number) => `${((100 * n) / Math.max(1, probes.length)).toFixed(0)}% (${n}/${probes.length})`;
    const time = stats(times.length ? times : [0]);
    printTable(`Section recall at ${budget.toLocaleString('en')} characters: questions about a sentence in the last third of ${probes.length} long pages (${fits} more pages fit in ${BUDGETS[0]!.toLocaleString('en')})`, [
      { approach: 'BM25 sections (rank.ts)', recall: pct(ranked), 'page share sent (median)': `${(100 * stats(shares.length ? shares : [0]).median).toFixed(0)}%`, 'split+rank median': fmt(time.median), p95: fmt(time.p95) },
      { approach: 'first N characters (before)', recall: pct(firstN), 'page share sent (median)': '—', 'split+rank median': '—', p95: '—' },
    ]);
  }
}

main();
