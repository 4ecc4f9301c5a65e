/**
 * Tab messages and wall time per click and per page read in real Firefox ESR: the real TabAgent
 * and PageReader, calling the background's own `browser.tabs`, against the built page agent in a
 * real tab. Before: the TabAgent checking the tab and pinging before every request
 * (`verifyEveryRequest`); after: one session per document. Each mode has its own tab with the
 * same page, and both run in the same browser, alternating.
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { startFixtureServer } from '../test/support/fixture-server';
import { launchFirefox } from '../test/support/firefox';
import { fmt, printTable, stats } from './lib';
import type { ModeResult } from './support/page-messages-in-extension';

const DIST_DIR = path.resolve(process.cwd(), process.env.FOXAGENT_DIST || 'dist');
const ROUNDS = 60;
const WARMUP = 5;

const items = Array.from({ length: 40 }, (_, i) => `<li><a href="/item/${i}">Item ${i}</a> <button>Add ${i} to cart</button></li>`).join('');
const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
  <button id="more">Show more</button><h1>Products</h1><p>${'A paragraph about the products on offer. '.repeat(30)}</p>
  <ul>${items}</ul>
</body></html>`;

function driverScript(): string {
  const built = esbuild.buildSync({ entryPoints: [path.resolve(process.cwd(), 'bench/support/page-messages-in-extension.ts')], bundle: true, format: 'iife', write: false, target: 'firefox128' });
  return built.outputFiles[0]!.text;
}

async function main() {
  if (!existsSync(path.join(DIST_DIR, 'manifest.json'))) throw new Error('Build first: npm run build');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'foxagent-page-messages-'));
  writeFileSync(path.join(dir, 'shop.html'), HTML);
  const site = await startFixtureServer({ dir });
  const firefox = await launchFirefox({ extensionDir: DIST_DIR });
  try {
    const ext = await firefox.openExtensionPage('options.html');
    await ext.evaluate(driverScript());
    const urls = { before: `${site.url}/shop.html?before`, after: `${site.url}/shop.html?after` };
    for (const url of Object.values(urls)) await (await firefox.browser.newPage()).goto(url, { waitUntil: 'load' });
    const results = await ext.evaluate(
      async (u, rounds, warmup) => {
        const g = globalThis as unknown as {
          browser: { tabs: { query(q: object): Promise<{ id: number; url: string }[]> } };
          __foxagentPageMessages: (ids: Record<'before' | 'after', number>, r: number, w: number) => Promise<Record<'before' | 'after', ModeResult>>;
        };
        const all = await g.browser.tabs.query({});
        const id = (url: string) => {
          const tab = all.find((t) => t.url === url);
          if (!tab) throw new Error(`no tab for ${url}`);
          return tab.id;
        };
        return g.__foxagentPageMessages({ before: id(u.before), after: id(u.after) }, rounds, warmup);
      },
      urls,
      ROUNDS,
      WARMUP,
    );
    const rows: Record<string, string>[] = [];
    for (const op of ['read', 'click'] as const) {
      for (const mode of ['before', 'after'] as const) {
        const r = results[mode][op];
        const t = stats(r.ms);
        rows.push({
          what: op === 'read' ? 'page read' : 'click (inspect, act, read after)',
          build: mode === 'before' ? 'before: check and ping every request (baseline)' : 'after: one session per document',
          'tabs.sendMessage': (r.sendMessage / ROUNDS).toFixed(1),
          'tabs.get': (r.get / ROUNDS).toFixed(1),
          'time median': fmt(t.median),
          'time p95': fmt(t.p95),
        });
      }
    }
    printTable(`Page-layer messages and time per operation in real Firefox, ${ROUNDS} of each after ${WARMUP} untimed, same run`, rows);
  } finally {
    await firefox.close().catch(() => undefined);
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
