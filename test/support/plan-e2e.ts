/**
 * What the plan e2e files share: the three shop fixtures (served from `test/fixtures/shops/`),
 * their tabs' ids, the prices the pages really show (read from each page's own markup), the plan
 * a comparison asks for, and reading the plan card, its record and the answer table.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { PlanRecord } from '../../src/shared/plan';
import type { OpenTab } from '../../src/shared/protocol';
import type { AgentHarness } from './agent-harness';
import { waitFor } from './firefox';
import { portRequest } from './sidebar-driver';

export const SHOPS = ['Alpha', 'Beta', 'Gamma'] as const;
export type Shop = (typeof SHOPS)[number];

const SHOPS_DIR = path.resolve(__dirname, '../fixtures/shops');

/** Serves the shops at /shops/<name>.html on the harness's fixture server. */
export function serveShops(h: AgentHarness): void {
  for (const shop of SHOPS) h.site.page(`/shops/${shop.toLowerCase()}.html`, readFileSync(path.join(SHOPS_DIR, `${shop.toLowerCase()}.html`), 'utf8'));
}

export const shopUrl = (h: AgentHarness, shop: Shop, query = '') => `${h.site.url}/shops/${shop.toLowerCase()}.html${query}`;

/** The price each page really shows, read from its own markup: JSON-LD, microdata, plain text. */
const REAL_PRICE: Record<Shop, (page: Page) => Promise<number>> = {
  Alpha: (page) => page.$eval('script[type="application/ld+json"]', (el) => Number((JSON.parse(el.textContent ?? '{}') as { offers: { price: string } }).offers.price)),
  Beta: (page) => page.$eval('[itemprop="price"]', (el) => Number(el.getAttribute('content'))),
  Gamma: (page) => page.evaluate(() => Number(/Price today: EUR (\d+\.\d{2})/.exec(document.body.innerText)?.[1])),
};

export interface OpenShops {
  pages: Record<Shop, Page>;
  tabIds: Record<Shop, number>;
  prices: Record<Shop, number>;
}

/** Opens the shops in tabs of their own; gives their tab ids and the prices the pages show. */
export async function openShops(h: AgentHarness, shops: readonly Shop[] = SHOPS): Promise<OpenShops> {
  const pages = {} as Record<Shop, Page>;
  for (const shop of shops) pages[shop] = await h.openPage(shopUrl(h, shop));
  const tabs = (await portRequest(h.sidebar.page, { type: 'tabs/list' })).value as OpenTab[];
  const tabIds = {} as Record<Shop, number>;
  const prices = {} as Record<Shop, number>;
  for (const shop of shops) {
    const tab = tabs.find((t) => t.url === shopUrl(h, shop));
    if (!tab) throw new Error(`No tab for ${shop} in ${JSON.stringify(tabs)}`);
    tabIds[shop] = tab.id;
    prices[shop] = await REAL_PRICE[shop](pages[shop]);
  }
  return { pages, tabIds, prices };
}

export const goalFor = (shop: string) => `Find the kettle's price and delivery time on ${shop}`;
export const PRICE_FIELDS = [
  { name: 'price', type: 'number' },
  { name: 'delivery_days', type: 'number' },
];

/** A comparison step on a shop's open tab (`propose_plan` arguments). */
export const compareStep = (id: string, shop: string, tab: object, extra: object = {}) => ({ id, goal: goalFor(shop), tab, dependsOn: [], fields: PRICE_FIELDS, may: [], ...extra });

/** The card's status once it is one of `statuses`. */
export async function cardStatus(page: Page, statuses: readonly string[], timeoutMs = 60_000): Promise<string> {
  return waitFor(
    () => page.$eval('[data-testid="plan-card"]', (el, wanted) => (wanted.includes(el.getAttribute('data-status') ?? '') ? el.getAttribute('data-status') : null), statuses as string[]).catch(() => null),
    { timeoutMs, what: `the plan card to be ${statuses.join(' or ')}` },
  );
}

/** Each step of the card: its id, state and reason. */
export function cardSteps(page: Page): Promise<{ id: string; state: string; reason: string }[]> {
  return page.$$eval('[data-testid="plan-card"] [data-testid="plan-step"]', (els) =>
    els.map((el) => ({ id: el.getAttribute('data-step') ?? '', state: el.getAttribute('data-state') ?? '', reason: el.querySelector('[data-testid="step-reason"]')?.textContent ?? '' })),
  );
}

/** The open chat's plans, as the background keeps them. */
export async function planRecords(page: Page): Promise<PlanRecord[]> {
  const conversation = (await portRequest(page, { type: 'conversation/get' })).value as { id: string };
  return (await portRequest(page, { type: 'plan/list', conversationId: conversation.id })).value as PlanRecord[];
}

/** The last answer's table: its header and rows of cell texts. */
export async function answerTable(page: Page): Promise<{ header: string[]; rows: string[][] }> {
  return waitFor(
    () =>
      page.$$eval('[data-testid="message-assistant"] table', (tables) => {
        const table = tables.at(-1) as HTMLTableElement | undefined;
        if (!table) return null;
        const cells = (row: HTMLTableRowElement) => Array.from(row.cells).map((c) => c.textContent?.trim() ?? '');
        return { header: cells(table.tHead!.rows[0]!), rows: Array.from(table.tBodies[0]?.rows ?? []).map(cells) };
      }),
    { timeoutMs: 30_000, what: 'the answer table' },
  );
}

/** A row's value in the column `name`, by the shop named in its source cell. */
export function cell(table: { header: string[]; rows: string[][] }, shop: string, name: string): string | undefined {
  const column = table.header.indexOf(name);
  return table.rows.find((row) => row[0]?.includes(shop))?.[column];
}

/** The URLs of every open tab. */
export async function openUrls(h: AgentHarness): Promise<string[]> {
  return Promise.all((await h.ff.browser.pages()).map((p) => p.url()));
}

/** Sets a controlled text field's value from script, as a user's typing would (React sees the input event). */
export async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.$eval(
    selector,
    (el, value) => {
      const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    text,
  );
}
