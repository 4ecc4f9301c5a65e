/**
 * The page reader in real Firefox ESR, over the saved real-world pages: snapshot time through
 * the extension's own path (the background's message to the injected page agent), snapshot size
 * in tokens (characters / 4) against the page's raw HTML, and what the always-injected content
 * script costs a page load, against the same build without it (both browsers run side by side,
 * pages alternating).
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Page } from 'puppeteer-core';
import { startFixtureServer } from '../test/support/fixture-server';
import { launchFirefox, type FoxAgentBrowser } from '../test/support/firefox';
import { corpusDir, fmt, printTable, stats } from './lib';

// The bench runs from the project root (bundled elsewhere, so not relative to this file).
const DIST_DIR = path.resolve(process.cwd(), 'dist');
const READ_RUNS = 3;
const LOAD_PAGES = 25;
/** Each phase stops starting new pages after this long (the bench should take about 2.5 minutes). */
const READ_BUDGET_MS = 70_000;
const LOAD_BUDGET_MS = 70_000;
const PAGE_TIMEOUT_MS = 10_000;

/** The same build with no content script in its manifest. */
function buildWithoutContentScript(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'foxagent-no-cs-'));
  cpSync(DIST_DIR, dir, { recursive: true });
  const manifestPath = path.join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  delete manifest.content_scripts;
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return dir;
}

interface ReadResult {
  ms: number[];
  rendered: number;
  error?: string;
}

/** The page reader bundled as a script for `tabs.executeScript({ code })`, ending in its result. */
function readerScript(): string {
  const built = esbuild.buildSync({ entryPoints: [path.resolve(process.cwd(), 'bench/support/read-in-page.ts')], bundle: true, format: 'iife', write: false, target: 'firefox128' });
  return `${built.outputFiles[0]!.text}\n;globalThis.__foxagentBench;`;
}

/**
 * Runs the reader in the page's content-script world (as the page agent does) from an extension
 * page: the time is readPage plus rendering, measured inside the page.
 */
function readInPage(ext: Page, url: string, code: string): Promise<ReadResult> {
  return ext.evaluate(
    async (pageUrl, script, runs, limitMs) => {
      type Tabs = { query(q: object): Promise<{ id: number; url: string }[]>; executeScript(id: number, d: object): Promise<{ ms: number; chars: number }[]> };
      const tabs = (globalThis as unknown as { browser: { tabs: Tabs } }).browser.tabs;
      const tab = (await tabs.query({})).find((t) => t.url === pageUrl);
      if (!tab) return { ms: [], rendered: 0, error: 'tab not found' };
      const ms: number[] = [];
      let rendered = 0;
      for (let i = 0; i <= runs; i++) {
        // A saved page's own scripts can keep it busy: give up on such a page rather than wait.
        const timeout = new Promise<undefined[]>((resolve) => setTimeout(() => resolve([undefined]), limitMs));
        const [result] = await Promise.race([tabs.executeScript(tab.id, { code: script, frameId: 0 }), timeout]);
        if (!result) return { ms, rendered, error: `no result within ${limitMs} ms` };
        rendered = result.chars;
        if (i > 0) ms.push(result.ms); // the first run warms up
      }
      return { ms, rendered };
    },
    url,
    code,
    READ_RUNS,
    PAGE_TIMEOUT_MS,
  );
}

/** Navigates and returns the page's own load time (navigation start to load event end). */
async function loadTime(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
  return page.evaluate(() => {
    const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return nav ? nav.loadEventEnd - nav.startTime : NaN;
  });
}

const signed = (ms: number) => `${ms >= 0 ? '+' : '−'}${fmt(Math.abs(ms))}`;

async function main() {
  const PAGES_DIR = corpusDir('the real-Firefox page bench');
  if (!PAGES_DIR) return;
  if (!existsSync(path.join(DIST_DIR, 'manifest.json'))) throw new Error('Build first: npm run build');
  const names = readdirSync(PAGES_DIR).filter((n) => existsSync(path.join(PAGES_DIR, n, 'source.html'))).sort();
  const site = await startFixtureServer({ dir: PAGES_DIR });
  const bare = buildWithoutContentScript();
  const browsers: FoxAgentBrowser[] = [];
  try {
    const [withCs, withoutCs] = await Promise.all([launchFirefox({ extensionDir: DIST_DIR }), launchFirefox({ extensionDir: bare })]);
    browsers.push(withCs, withoutCs);

    // 1. Snapshot time and size.
    const ext = await withCs.openExtensionPage('options.html');
    const code = readerScript();
    const tab = await withCs.browser.newPage();
    const times: number[] = [];
    const tokens: number[] = [];
    const ratios: number[] = [];
    const failures: string[] = [];
    let read = 0;
    const readStart = Date.now();
    for (const name of names) {
      if (Date.now() - readStart > READ_BUDGET_MS) break;
      const url = `${site.url}/${name}/source.html`;
      await tab.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS }).catch(() => undefined);
      const result = await readInPage(ext, url, code).catch((e: unknown) => ({ ms: [], rendered: 0, error: String(e) }) as ReadResult);
      if (result.error) {
        failures.push(`${name}: ${result.error}`);
        continue;
      }
      read++;
      times.push(...result.ms);
      const htmlTokens = statSync(path.join(PAGES_DIR, name, 'source.html')).size / 4;
      tokens.push(result.rendered / 4);
      ratios.push(htmlTokens / (result.rendered / 4));
    }
    if (failures.length) console.log(`Not read: ${failures.slice(0, 5).join('; ')}${failures.length > 5 ? ` and ${failures.length - 5} more` : ''}`);
    if (!times.length) throw new Error('No page could be read.');
    const t = stats(times);
    const k = stats(tokens);
    const r = stats(ratios);
    printTable(`Snapshot in real Firefox (the page agent's reader, in the content-script world), ${read} of ${names.length} pages, ${READ_RUNS} runs each after a warm-up`, [
      { what: 'snapshot time', median: fmt(t.median), p95: fmt(t.p95) },
      { what: 'snapshot size, tokens', median: Math.round(k.median), p95: Math.round(k.p95) },
      { what: 'raw HTML ÷ snapshot size', median: `${r.median.toFixed(1)}×`, p95: `${r.p95.toFixed(1)}×` },
    ]);

    // 2. Page-load cost of the content script: the same pages in both browsers, alternating.
    const [a, b] = await Promise.all([withCs.browser.newPage(), withoutCs.browser.newPage()]);
    const loads = { with: [] as number[], without: [] as number[] };
    /** Per page: median load with, minus median load without (paired, so page-to-page spread cancels). */
    const diffs: number[] = [];
    const sample = names.filter((_, i) => i % Math.max(1, Math.floor(names.length / LOAD_PAGES)) === 0).slice(0, LOAD_PAGES);
    let measured = 0;
    const loadStart = Date.now();
    for (const [i, name] of sample.entries()) {
      if (Date.now() - loadStart > LOAD_BUDGET_MS) break;
      const url = `${site.url}/${name}/source.html`;
      // Warm both caches, then measure; alternate which goes first.
      await Promise.all([loadTime(a, url), loadTime(b, url)]).catch(() => undefined);
      const order = i % 2 === 0 ? ([['with', a], ['without', b]] as const) : ([['without', b], ['with', a]] as const);
      const mine = { with: [] as number[], without: [] as number[] };
      for (let round = 0; round < 3; round++) {
        for (const [key, page] of order) {
          const ms = await loadTime(page, url).catch(() => NaN);
          if (Number.isFinite(ms)) mine[key].push(ms);
        }
      }
      if (!mine.with.length || !mine.without.length) continue;
      loads.with.push(...mine.with);
      loads.without.push(...mine.without);
      diffs.push(stats(mine.with).median - stats(mine.without).median);
      measured++;
    }
    const w = stats(loads.with);
    const wo = stats(loads.without);
    const size = (f: string) => `${(statSync(path.join(DIST_DIR, f)).size / 1024).toFixed(1)} KiB`;
    printTable(`Page load with the always-injected content script vs the same build without it, ${measured} pages`, [
      { build: 'without content script (baseline)', 'load median': fmt(wo.median), 'load p95': fmt(wo.p95) },
      { build: 'with content script', 'load median': fmt(w.median), 'load p95': fmt(w.p95) },
      { build: 'paired difference per page', 'load median': signed(stats(diffs).median), 'load p95': signed(stats(diffs).p95) },
    ]);
    console.log(`content.js (always injected): ${size('content.js')}; page-agent.js (injected on first use): ${size('page-agent.js')}`);
  } finally {
    await Promise.all(browsers.map((x) => x.close().catch(() => undefined)));
    await site.close();
    rmSync(bare, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
