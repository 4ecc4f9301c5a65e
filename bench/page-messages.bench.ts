/**
 * Tab messages and wall time per click and per page read, through the real background page layer
 * (TabAgent, PageReader, PageCache) and the real page agent (createPageAgent, run under jsdom),
 * joined by a counting stand-in for `browser.tabs` that copies each message as the browser would
 * (structured clone) and validates it as the page agent's listener does. Before: the TabAgent in
 * its old mode, which checks the tab and pings before every request (`verifyEveryRequest`). After:
 * one session per tab and document. Both run in the same process, alternating.
 *
 * The counts are exact for the page layer. The times are this path's own cost in Node, without
 * the browser's message passing, which each saved message would also save; the permission gate's
 * own `tabs.get` (one per checked call) is outside this path and the same before and after.
 */
import { JSDOM } from 'jsdom';
import { performance } from 'node:perf_hooks';
import { createPageAgent } from '../src/content/agent';
import { PageCache } from '../src/background/page/page-cache';
import { PageReader } from '../src/background/page/page-reader';
import { TabAgent, type TabsApi } from '../src/background/page/tab-agent';
import { ContentRequestSchema, type ContentReply } from '../src/shared/content-protocol';
import { fmt, printTable, stats } from './lib';

const ROUNDS = 300;
const WARMUP = 30;
const TAB = 1;

const items = Array.from({ length: 40 }, (_, i) => `<li><a href="/item/${i}">Item ${i}</a> <button>Add ${i} to cart</button></li>`).join('');
const HTML = `<!doctype html><html lang="en"><head><title>Shop</title></head><body>
  <button id="more">Show more</button><h1>Products</h1><p>${'A paragraph about the products on offer. '.repeat(30)}</p>
  <ul>${items}</ul>
  <form aria-label="Search"><input name="q" aria-label="Search"><button type="button">Search</button></form>
</body></html>`;

interface Counts {
  sendMessage: number;
  get: number;
  executeScript: number;
}

/** A tab holding a jsdom document; the page agent is "injected" by executeScript. */
function tab() {
  const dom = new JSDOM(HTML, { url: 'https://shop.example/', pretendToBeVisual: true });
  let mutations = 0;
  new dom.window.MutationObserver(() => mutations++).observe(dom.window.document, { childList: true, subtree: true, attributes: true, characterData: true });
  let agent: ReturnType<typeof createPageAgent> | undefined;
  const counts: Counts = { sendMessage: 0, get: 0, executeScript: 0 };
  const tabs: TabsApi = {
    async get(id) {
      counts.get++;
      return { id, url: dom.window.location.href, status: 'complete' };
    },
    async executeScript() {
      counts.executeScript++;
      agent ??= createPageAgent(dom.window.document, { mutations: () => mutations });
      return [];
    },
    async sendMessage(_id, message) {
      counts.sendMessage++;
      if (!agent) throw new Error('Could not establish connection. Receiving end does not exist.');
      const parsed = ContentRequestSchema.safeParse(structuredClone(message));
      if (!parsed.success) return undefined;
      const page = agent;
      const reply = await page.handle(parsed.data).then(
        (value): ContentReply => ({ doc: page.doc, value }),
        (error: unknown): ContentReply => ({ doc: page.doc, error: { code: 'page_error', message: String(error) } }),
      );
      return structuredClone(reply);
    },
  };
  return { tabs, counts };
}

/** One setup: a TabAgent in the given mode, the reader over it, one tab. */
function setup(verifyEveryRequest: boolean) {
  const { tabs, counts } = tab();
  const agent = new TabAgent(tabs, { verifyEveryRequest });
  const reader = new PageReader(agent, new PageCache());
  return { agent, reader, counts };
}
type Setup = ReturnType<typeof setup>;

/** A page read when the page changed since the last one: the cache cannot answer it. */
async function read(s: Setup) {
  s.reader.invalidate(TAB);
  await s.reader.read(TAB, {}, 'bench');
}

/** A click as the click tool does it (on [1], "Show more"): the gate's inspection, the action, and the fresh view after. */
async function click(s: Setup) {
  const args = { id: 1 };
  await s.agent.inspect(TAB, { tool: 'click', args });
  await s.agent.act(TAB, args, { action: 'click', id: 1 });
  s.reader.invalidate(TAB);
  await s.reader.read(TAB, { maxTokens: 1200 }, 'bench');
}

async function run(s: Setup, op: (s: Setup) => Promise<void>) {
  const before = { ...s.counts };
  const start = performance.now();
  await op(s);
  const ms = performance.now() - start;
  return { ms, sendMessage: s.counts.sendMessage - before.sendMessage, get: s.counts.get - before.get };
}

async function main() {
  const modes = { before: setup(true), after: setup(false) };
  // The first contact (tab check, injection) is the same in both; measure what follows it.
  for (const s of Object.values(modes)) await read(s);
  const rows: Record<string, string | number>[] = [];
  for (const [opName, op] of [
    ['page read', read],
    ['click (inspect, act, read after)', click],
  ] as const) {
    const samples = { before: [] as number[], after: [] as number[] };
    const counts = { before: { sendMessage: 0, get: 0 }, after: { sendMessage: 0, get: 0 } };
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      for (const mode of i % 2 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const r = await run(modes[mode], op);
        if (i < WARMUP) continue;
        samples[mode].push(r.ms);
        counts[mode].sendMessage += r.sendMessage;
        counts[mode].get += r.get;
      }
    }
    for (const mode of ['before', 'after'] as const) {
      const t = stats(samples[mode]);
      rows.push({
        what: opName,
        build: mode === 'before' ? 'before: check and ping every request (baseline)' : 'after: one session per document',
        'tabs.sendMessage': (counts[mode].sendMessage / ROUNDS).toFixed(1),
        'tabs.get': (counts[mode].get / ROUNDS).toFixed(1),
        'time median': fmt(t.median),
        'time p95': fmt(t.p95),
      });
    }
  }
  printTable(`Page-layer messages and time per operation, ${ROUNDS} of each after ${WARMUP} untimed, same run (Node, real TabAgent and page agent under jsdom)`, rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
