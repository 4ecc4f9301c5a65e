/**
 * Tab messages and wall time per click and per page read in real Firefox ESR: the real TabAgent
 * and PageReader, calling the background's own `browser.tabs`, against the built page agent in a
 * real tab. Before: the TabAgent checking the tab and pinging before every request
 * (`verifyEveryRequest`); after: one session per document. Each mode has its own tab with the
 * same page, and both run in the same browser, alternating.
 */
import { fmt, printTable, stats } from './lib';
import { inFirefox } from './support/in-firefox';
import type { ModeResult } from './support/page-messages-in-extension';

const ROUNDS = 60;
const WARMUP = 5;

const items = Array.from({ length: 40 }, (_, i) => `<li><a href="/item/${i}">Item ${i}</a> <button>Add ${i} to cart</button></li>`).join('');
const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
  <button id="more">Show more</button><h1>Products</h1><p>${'A paragraph about the products on offer. '.repeat(30)}</p>
  <ul>${items}</ul>
</body></html>`;

async function main() {
  await inFirefox({ html: HTML, driver: 'page-messages-in-extension.ts' }, async ({ firefox, ext, pageUrl }) => {
    const urls = { before: `${pageUrl}?before`, after: `${pageUrl}?after` };
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
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
