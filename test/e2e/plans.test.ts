/**
 * Workflow plans in real Firefox against the scripted model: a comparison over three shops with
 * different markup runs over both wire protocols, two of its steps at the same time, and its
 * answer table holds each shop's real price; the approval card's edits change what runs, and
 * Cancel runs nothing. The model's replies are chosen by what each request holds (planner or
 * step, and which step by its goal), never by order.
 */
import { agentHarness } from '../support/agent-harness';
import { waitFor } from '../support/firefox';
import type { OpenTab } from '../../src/shared/protocol';
import { overlappingSteps, planModel, readThenReturn, stepRequests } from '../support/plan-model';
import { answerTable, cardStatus, cardSteps, cell, compareStep, goalFor, openShops, openUrls, planRecords, serveShops, SHOPS, shopUrl, typeInto } from '../support/plan-e2e';
import { configure, portRequest } from '../support/sidebar-driver';
import path from 'node:path';
import { mkdirSync } from 'node:fs';

/** Screenshots of the card to be looked at, beside the other screens. */
const SCREENS = path.resolve(__dirname, '../../test-artifacts/screens');
async function shoot(name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await h.sidebar.page.bringToFront();
  await h.sidebar.page.screenshot({ path: path.join(SCREENS, `${name}.png`) as `${string}.png` });
}

const MODEL = 'qwen2.5:3b';
const h = agentHarness({ models: [{ name: MODEL, tools: true, contextLength: 32768 }], provider: { kind: 'ollama', model: MODEL } });

beforeAll(() => serveShops(h));

const WIRES = {
  ollama: () => ({ kind: 'ollama' as const, baseUrl: h.llm.url, model: MODEL }),
  openai: () => ({ kind: 'openai-compatible' as const, baseUrl: `${h.llm.url}/v1`, model: MODEL }),
};

test.each(Object.keys(WIRES) as (keyof typeof WIRES)[])('over the %s wire: a comparison plan runs two steps at once and its table holds each shop’s real price', async (wire) => {
  await configure(h.sidebar.page, WIRES[wire]());
  const shops = await openShops(h);
  const before = (await openUrls(h)).length;
  // Each step's first reply waits a little, so steps that run together are seen together.
  const model = planModel({
    plan: () => ({ title: 'Compare the kettle on three shops', steps: SHOPS.map((shop, i) => compareStep(`s${i + 1}`, shop, { kind: 'tab', tabId: shops.tabIds[shop] })) }),
    fallback: readThenReturn(700),
  });
  h.llm.setFallback(model.reply);

  await h.sidebar.press('[data-testid="plan-toggle"]');
  await h.sidebar.send('Compare the price and delivery time of this kettle on these three shops');
  await cardStatus(h.sidebar.page, ['proposed']);
  expect(h.llm.chatRequests()).toHaveLength(1);
  expect(await h.sidebar.page.$$eval('[data-testid="plan-step"] [data-testid="step-goal"]', (els) => els.map((e) => e.textContent))).toEqual(SHOPS.map(goalFor));
  if (wire === 'ollama') await shoot('plan-proposed');
  await h.sidebar.press('[data-testid="plan-run"]');
  await cardStatus(h.sidebar.page, ['done']);

  // Each shop's price in the table is the one its page shows (read by read_page, returned by the step).
  const table = await answerTable(h.sidebar.page);
  for (const shop of SHOPS) expect(Number(cell(table, shop, 'price'))).toBe(shops.prices[shop]);
  expect(SHOPS.map((shop) => Number(cell(table, shop, 'delivery_days')))).toEqual([2, 5, 1]);
  // Every step read its own page and returned once; no step was asked twice.
  for (const shop of SHOPS) expect(stepRequests(h.llm.chatRequests(), shop)).toHaveLength(2);
  // Two steps ran at the same time: on the server, and in the plan's record.
  expect(overlappingSteps(h.llm.chatRequests())).toBe(true);
  const [record] = await planRecords(h.sidebar.page);
  const spans = record!.steps.map((s) => [s.startedAt!, s.endedAt!] as const);
  expect(spans.some(([a0, a1], i) => spans.some(([b0, b1], j) => i !== j && a0 < b1 && b0 < a1))).toBe(true);
  expect((await cardSteps(h.sidebar.page)).map((s) => s.state)).toEqual(['done', 'done', 'done']);
  // The plan used the open tabs and opened none.
  expect((await openUrls(h)).length).toBe(before);

  if (wire === 'ollama') await shoot('plan-done');
  // The table's source links bring their tab to the front.
  await h.sidebar.page.$$eval('[data-testid="message-assistant"] table [data-testid="tab-link"]', (els) => (els.find((el) => el.textContent?.includes('Beta')) as HTMLElement).click());
  await waitFor(async () => ((await portRequest(h.sidebar.page, { type: 'tabs/list' })).value as OpenTab[]).find((t) => t.id === shops.tabIds.Beta)?.active, { what: 'the Beta tab in front' });
});

test('edits on the approval card change what runs: a removed step never runs, a reworded goal is what its step gets', async () => {
  const shops = await openShops(h);
  const reworded = 'Find the kettle price on Beta, the 1.7 l model only';
  h.llm.setFallback(
    planModel({ plan: () => ({ title: 'Compare the kettle on three shops', steps: SHOPS.map((shop, i) => compareStep(`s${i + 1}`, shop, { kind: 'tab', tabId: shops.tabIds[shop] })) }) }).reply,
  );
  await h.sidebar.send('/plan Compare this kettle on these three shops');
  await cardStatus(h.sidebar.page, ['proposed']);
  await h.sidebar.press('[data-testid="plan-edit"]');
  await h.sidebar.press('[data-step="s3"] [data-testid="step-remove"]');
  await typeInto(h.sidebar.page, '[data-step="s2"] [data-testid="step-goal-input"]', reworded);
  await h.sidebar.press('[data-testid="plan-run"]');
  await cardStatus(h.sidebar.page, ['done']);

  expect(stepRequests(h.llm.chatRequests(), 'Gamma')).toEqual([]);
  expect(stepRequests(h.llm.chatRequests(), 'Beta').map((r) => r.body.messages.find((m: { role: string }) => m.role === 'user').content)).toEqual([reworded, reworded]);
  const table = await answerTable(h.sidebar.page);
  expect(table.rows).toHaveLength(2);
  expect(Number(cell(table, 'Alpha', 'price'))).toBe(shops.prices.Alpha);
  expect(Number(cell(table, 'Beta', 'price'))).toBe(shops.prices.Beta);
  const [record] = await planRecords(h.sidebar.page);
  expect(record!.plan.steps.map((s) => [s.id, s.goal])).toEqual([
    ['s1', goalFor('Alpha')],
    ['s2', reworded],
  ]);
});

test('Cancel runs nothing: no step reaches the model, no tab is opened', async () => {
  const shops = await openShops(h, ['Alpha']);
  const before = await openUrls(h);
  const toOpen = shopUrl(h, 'Gamma', '?opened=by-plan');
  h.llm.setFallback(
    planModel({
      plan: () => ({ title: 'Compare two shops', steps: [compareStep('a', 'Alpha', { kind: 'tab', tabId: shops.tabIds.Alpha }), compareStep('b', 'Gamma', { kind: 'url', url: toOpen })] }),
    }).reply,
  );
  await h.sidebar.send('/plan Compare the kettle here and on Gamma');
  await cardStatus(h.sidebar.page, ['proposed']);
  await h.sidebar.press('[data-testid="plan-cancel"]');
  await cardStatus(h.sidebar.page, ['cancelled']);
  await new Promise((r) => setTimeout(r, 1500));
  expect(h.llm.chatRequests()).toHaveLength(1);
  expect(await openUrls(h)).toEqual(before);
  expect(await h.sidebar.page.$('[data-testid="plan-run"]')).toBeNull();
  expect((await planRecords(h.sidebar.page))[0]!.status).toBe('cancelled');
});
