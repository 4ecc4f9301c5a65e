/**
 * Workflow plans when things go wrong, in real Firefox against the scripted model: a step's tab
 * closed mid-run (a partial answer that says what is missing, no tab left behind), a permission
 * question inside a step answered in the sidebar (a denial fails only that step), Stop ending
 * every step and model call, and an extension reload mid-plan (interrupted, then Resume without
 * replaying finished steps). Replies are chosen by each request's content, never by order.
 */
import { agentHarness } from '../support/agent-harness';
import { waitFor } from '../support/firefox';
import { elementId } from '../support/page-model';
import { planModel, readThenReturn, stepRequests, toolResults, type StepReply } from '../support/plan-model';
import { answerTable, cardStatus, cardSteps, cell, compareStep, openShops, openUrls, planRecords, serveShops, shopUrl } from '../support/plan-e2e';
import { portRequest, SidebarDriver } from '../support/sidebar-driver';

const MODEL = 'qwen2.5:3b';
const h = agentHarness({ models: [{ name: MODEL, tools: true, contextLength: 32768 }], provider: { kind: 'ollama', model: MODEL } });

beforeAll(() => serveShops(h));

async function approve(request: string): Promise<void> {
  await h.sidebar.send(`/plan ${request}`);
  await cardStatus(h.sidebar.page, ['proposed']);
  await h.sidebar.press('[data-testid="plan-run"]');
}

test('a step whose tab is closed mid-run fails with a reason; the answer says what is missing; no tab is left behind', async () => {
  const shops = await openShops(h, ['Alpha', 'Gamma']);
  const opened = shopUrl(h, 'Beta', '?opened=by-plan');
  h.llm.setFallback(
    planModel({
      plan: () => ({
        title: 'Compare the kettle on three shops',
        steps: [compareStep('a', 'Alpha', { kind: 'tab', tabId: shops.tabIds.Alpha }), compareStep('b', 'Beta', { kind: 'url', url: opened }), compareStep('g', 'Gamma', { kind: 'tab', tabId: shops.tabIds.Gamma })],
      }),
      // Gamma's step reads slowly: its tab is closed while it waits.
      steps: { Gamma: readThenReturn(4000) },
    }).reply,
  );
  await approve('Compare the kettle on these shops and on Beta');
  await waitFor(() => stepRequests(h.llm.chatRequests(), 'Gamma').length > 0, { what: 'Gamma’s step to start' });
  await shops.pages.Gamma.close();
  const status = await cardStatus(h.sidebar.page, ['done', 'failed']);
  const steps = await cardSteps(h.sidebar.page);
  expect(steps.map((s) => [s.id, s.state])).toEqual([
    ['a', 'done'],
    ['b', 'done'],
    ['g', 'failed'],
  ]);
  expect(steps[2]!.reason).toMatch(/tab/i);
  expect(status).toBeTruthy();
  const table = await answerTable(h.sidebar.page);
  expect(Number(cell(table, 'Alpha', 'price'))).toBe(shops.prices.Alpha);
  expect(Number(cell(table, 'Beta', 'price'))).toBe(34.5);
  // Gamma's row (the last: rows follow the plan) names its site, its tab being gone; its values are missing, and why.
  expect(table.rows[2]!.slice(1)).toEqual(['—', '—']);
  expect((await h.sidebar.assistantTexts()).at(-1)).toMatch(/Missing: .* — price, delivery_days: the step failed/);
  // The tab the plan opened for Beta is closed again; the user's own Alpha tab is still there.
  await waitFor(async () => !(await openUrls(h)).includes(opened), { what: 'the plan’s tab to close' });
  expect(await openUrls(h)).toContain(shopUrl(h, 'Alpha'));
});

test('a permission question inside a step is answered in the sidebar; the denied step alone fails', async () => {
  const shops = await openShops(h, ['Alpha', 'Beta']);
  const addToBasket: StepReply = (request, turn) => {
    if (turn === 0) return { toolCalls: [{ name: 'read_page', arguments: {} }] };
    if (turn === 1) return { toolCalls: [{ name: 'click', arguments: { id: elementId(request, 'button', 'Add to basket'), reason: 'add the kettle to the basket' } }] };
    const last = toolResults(request).at(-1) ?? '';
    return /did not allow|denied/i.test(last) ? { text: 'I was not allowed to add the kettle to the basket.' } : { toolCalls: [{ name: 'done', arguments: { summary: 'Added the kettle to the basket.' } }] };
  };
  const steps = (shop: 'Alpha' | 'Beta', id: string, extra: object) => ({ id, goal: `Add the kettle to the basket on ${shop}`, tab: { kind: 'tab', tabId: shops.tabIds[shop] }, dependsOn: [], fields: [], may: [], ...extra });
  // The plan lists no interaction: each click is asked about, Alpha's first (Beta waits for it).
  h.llm.setFallback(planModel({ plan: () => ({ title: 'Add the kettle to both baskets', steps: [steps('Alpha', 'a', {}), steps('Beta', 'b', { dependsOn: ['a'] })] }), fallback: addToBasket }).reply);
  await approve('Add the kettle to the basket on both shops');

  const first = await h.sidebar.readQuestion('click');
  expect(first.reason).toContain('add the kettle to the basket');
  // While the question waits, the card says the step waits for the user's permission.
  await waitFor(async () => (await cardSteps(h.sidebar.page)).find((s) => s.id === 'a')?.state === 'asking', { what: 'step a shown as asking' });
  await h.sidebar.answerPermission('click', 'allow-once');
  await waitFor(() => stepRequests(h.llm.chatRequests(), 'on Beta').some((r) => toolResults(r).length === 1), { what: 'Beta’s step to read its page' });
  await h.sidebar.readQuestion('click');
  await h.sidebar.answerPermission('click', 'deny');
  await cardStatus(h.sidebar.page, ['done', 'failed']);
  expect((await cardSteps(h.sidebar.page)).map((s) => [s.id, s.state])).toEqual([
    ['a', 'done'],
    ['b', 'failed'],
  ]);
  expect(await shops.pages.Alpha.$eval('#basket', (el) => el.textContent)).toBe('In your basket: 1');
  expect(await shops.pages.Beta.$eval('#basket', (el) => el.textContent)).toBe('Your basket is empty');
});

test('Stop during a plan ends every step and every model call at once', async () => {
  const shops = await openShops(h);
  h.llm.setFallback(
    planModel({
      plan: () => ({ title: 'Compare the kettle on three shops', steps: (['Alpha', 'Beta', 'Gamma'] as const).map((shop, i) => compareStep(`s${i}`, shop, { kind: 'tab', tabId: shops.tabIds[shop] })) }),
      // Every step's model thinks for ever.
      fallback: () => ({ fault: 'hang' }),
    }).reply,
  );
  await approve('Compare the kettle on these three shops');
  await waitFor(() => ['Alpha', 'Beta', 'Gamma'].every((shop) => stepRequests(h.llm.chatRequests(), shop).length === 1), { what: 'three steps waiting on the model' });
  await h.sidebar.page.waitForSelector('[data-testid="plan-stop"]');
  await h.sidebar.press('[data-testid="plan-stop"]');
  await cardStatus(h.sidebar.page, ['stopped'], 10_000);
  expect((await cardSteps(h.sidebar.page)).filter((s) => ['waiting', 'running', 'asking', 'paused'].includes(s.state))).toEqual([]);
  // Every model call was dropped by the extension (the server never answered them).
  await waitFor(() => h.llm.chatRequests().every((r) => r.endedAt !== undefined), { timeoutMs: 5_000, what: 'every model call to end' });
  expect((await portRequest(h.sidebar.page, { type: 'runs/list' })).value).toEqual([]);
  const calls = h.llm.chatRequests().length;
  await new Promise((r) => setTimeout(r, 1500));
  expect(h.llm.chatRequests()).toHaveLength(calls);
  expect(await h.sidebar.page.$('[data-testid="plan-stop"]')).toBeNull();
});

// Last in the file: it restarts the extension, and the harness's sidebar page goes with it.
test('an extension reload mid-plan leaves it interrupted with Resume; Resume goes on without replaying finished steps', async () => {
  const shops = await openShops(h);
  let hang = true;
  h.llm.setFallback(
    planModel({
      plan: () => ({
        title: 'Compare, then the third',
        steps: [
          compareStep('a', 'Alpha', { kind: 'tab', tabId: shops.tabIds.Alpha }),
          compareStep('b', 'Beta', { kind: 'tab', tabId: shops.tabIds.Beta }),
          compareStep('g', 'Gamma', { kind: 'tab', tabId: shops.tabIds.Gamma }, { dependsOn: ['a', 'b'] }),
        ],
      }),
      steps: { Gamma: (request, turn) => (hang ? { fault: 'hang' } : readThenReturn()(request, turn)) },
    }).reply,
  );
  await approve('Compare the kettle on these three shops, Gamma last');
  await waitFor(() => stepRequests(h.llm.chatRequests(), 'Gamma').length === 1, { timeoutMs: 30_000, what: 'Gamma’s step to wait on the model' });
  const finished = { Alpha: stepRequests(h.llm.chatRequests(), 'Alpha').length, Beta: stepRequests(h.llm.chatRequests(), 'Beta').length };
  expect(finished).toEqual({ Alpha: 2, Beta: 2 });
  // Let the step transitions be stored, then restart the extension mid-plan.
  await new Promise((r) => setTimeout(r, 800));
  await h.sidebar.page.evaluate(() => void (globalThis as unknown as { browser: { runtime: { reload(): void } } }).browser.runtime.reload());
  await waitFor(async () => h.sidebar.page.isClosed() || !(await h.sidebar.page.evaluate(() => document.querySelector('[data-testid="composer"]') !== null).catch(() => false)), { what: 'the old sidebar page to go' });

  const sidebar = await SidebarDriver.open(h.ff);
  h.track(sidebar.page);
  await cardStatus(sidebar.page, ['interrupted'], 20_000);
  expect((await cardSteps(sidebar.page)).map((s) => [s.id, s.state])).toEqual([
    ['a', 'done'],
    ['b', 'done'],
    ['g', 'waiting'],
  ]);
  hang = false;
  await sidebar.press('[data-testid="plan-resume"]');
  await cardStatus(sidebar.page, ['done'], 30_000);
  // Finished steps were not asked again; Gamma's ran anew.
  expect({ Alpha: stepRequests(h.llm.chatRequests(), 'Alpha').length, Beta: stepRequests(h.llm.chatRequests(), 'Beta').length }).toEqual(finished);
  // Gamma's: the call the reload cut off, then its read and its return.
  expect(stepRequests(h.llm.chatRequests(), 'Gamma').map((r) => toolResults(r).length)).toEqual([0, 0, 1]);
  const table = await answerTable(sidebar.page);
  for (const shop of ['Alpha', 'Beta', 'Gamma'] as const) expect(Number(cell(table, shop, 'price'))).toBe(shops.prices[shop]);
  expect((await planRecords(sidebar.page))[0]!.status).toBe('done');
});
