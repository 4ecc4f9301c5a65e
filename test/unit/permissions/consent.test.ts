/**
 * The gate decides on exactly what will run, and a consent lasts exactly as long as its button
 * says: arguments are normalised by the tool's schema before the gate sees them, a destination it
 * cannot read counts as another site, switch_tab says where it goes, restricted pages are refused
 * before any question, "Allow once" is one call, and "for this task" is one tool on one site in
 * one task.
 */
import { AuditLog } from '../../../src/background/permissions/audit-log';
import { PolicyStore } from '../../../src/background/permissions/policies';
import { PolicyGate, type TabFacts } from '../../../src/background/permissions/policy-gate';
import { PermissionPrompter } from '../../../src/background/permissions/prompter';
import type { GateScope } from '../../../src/background/permissions/gate';
import type { TargetInfo } from '../../../src/background/permissions/tiers';
import { createToolRegistry, type ToolDeps } from '../../../src/background/tools';
import type { TaskState } from '../../../src/background/tools/registry';
import type { BgToUiEvent, Decision } from '../../../src/shared/protocol';
import { answerNext as answerQuestion } from '../../support/answer-next';
import { MemoryStorage } from '../../support/memory-storage';

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used in this test')) });
const registry = createToolRegistry({ agent: unused, reader: unused, tabs: unused } as unknown as ToolDeps);

const TABS: Record<number, TabFacts> = {
  1: { url: 'https://shop.example/cart', title: 'Your cart', windowId: 1 },
  2: { url: 'https://shop.example/orders', title: 'Orders', windowId: 1 },
  3: { url: 'https://mail.example/inbox', title: 'Inbox (3)', windowId: 1 },
  4: { url: 'https://bank.example/', title: 'Bank', windowId: 2 },
  5: { url: 'about:addons', title: 'Add-ons Manager', windowId: 1 },
};

function setup({ inspect = async () => ({ tag: 'button', role: 'button', name: 'Show more' }) as TargetInfo | undefined } = {}) {
  const storage = new MemoryStorage();
  const events: BgToUiEvent[] = [];
  const prompter = new PermissionPrompter((e) => events.push(e), 5000);
  const store = new PolicyStore(storage);
  const gate = new PolicyGate({
    store,
    prompter,
    audit: new AuditLog(storage),
    tab: async (tabId) => TABS[tabId],
    inspect,
  });
  const requests = () => events.flatMap((e) => (e.type === 'permission/requested' ? [e.request] : []));
  const answerNext = (decision: Decision) => answerQuestion(prompter, decision);
  return { store, gate, requests, answerNext };
}

const newTask = (tabId = 1): TaskState => ({ tabId, startTabId: tabId, openedTabs: new Set() });

/** Validates the call with the real tool's schema, then asks the gate about what would run. */
async function decide(gate: PolicyGate, name: string, args: Record<string, unknown>, task: TaskState, conversationId = 'conv-1') {
  const call = { id: `c-${Math.random()}`, name, arguments: args };
  const checked = registry.validate(call);
  if (!checked.ok) return { invalid: checked.error };
  const scope: GateScope = { conversationId, tabId: task.tabId, task, context: () => ({ userText: 'Tidy up my cart', pageText: 'Welcome to the shop.' }) };
  return gate.decide({ tool: checked.tool, args: checked.args, call }, scope, () => undefined, new AbortController().signal);
}

describe('navigation: the gate sees the URL that will load', () => {
  test.each([
    ['leading spaces', '   https://evil.example/?q=secret'],
    ['a leading non-breaking space', '\u00a0https://evil.example/?q=secret'],
    ['a leading tab and newline', '\t\nhttps://evil.example/?q=secret'],
    ['a zero-width space', '\u200bhttps://evil.example/'],
    ['no scheme', ' evil.example/steal'],
    ['a backslash host trick', 'https://evil.example\\@shop.example/'],
  ])('a URL with %s still asks as another site, even after an allowed interaction', async (_case, url) => {
    const { gate, requests, answerNext } = setup();
    const task = newTask();
    void answerNext('allow_once');
    await decide(gate, 'scroll', { direction: 'down' }, task);
    const asked = answerNext('reject_once');
    expect(await decide(gate, 'navigate', { url }, task)).toMatchObject({ allowed: false });
    expect((await asked).why).toMatch(/another site \(https:\/\/evil\.example\)/);
    expect(requests()).toHaveLength(2);
  });

  test('the URL that runs is the normalised one the gate judged', () => {
    const checked = registry.validate({ id: 'c', name: 'navigate', arguments: { url: '\u00a0 shop.example/a b ' } });
    expect(checked).toMatchObject({ ok: true, args: { url: 'https://shop.example/a%20b' } });
  });

  test.each([['javascript:alert(1)'], ['data:text/html,hi'], ['file:///etc/passwd'], ['about:config'], ['https://'], ['/relative/path']])('%s is refused by the schema with a reason the model can act on', async (url) => {
    const { gate, requests } = setup();
    const result = await decide(gate, 'navigate', { url }, newTask());
    expect(result).toMatchObject({ invalid: expect.stringMatching(/url: .*(http|full)/i) });
    expect(requests()).toHaveLength(0);
  });
});

describe('switch_tab says where it goes', () => {
  test('a tab on another site is judged as that site, and the question names its title and site', async () => {
    const { gate, store, answerNext } = setup();
    await store.set({ origin: 'https://shop.example', subject: 'switch_tab', policy: 'allow' });
    const asked = answerNext('reject_once');
    expect(await decide(gate, 'switch_tab', { tab_id: 3 }, newTask())).toMatchObject({ allowed: false });
    const request = await asked;
    expect(request.target).toBe('tab “Inbox (3)” on https://mail.example');
    expect(request.why).toMatch(/another site \(https:\/\/mail\.example\)/);
  });

  test('a tab on the same site is an ordinary interaction there', async () => {
    const { gate, store } = setup();
    await store.set({ origin: 'https://shop.example', subject: 'switch_tab', policy: 'allow' });
    expect(await decide(gate, 'switch_tab', { tab_id: 2 }, newTask())).toEqual({ allowed: true, by: 'policy' });
  });

  test('a tab in another window asks even where switching is allowed, and says why', async () => {
    const { gate, store, answerNext } = setup();
    await store.set({ origin: '*', subject: 'switch_tab', policy: 'allow' });
    const asked = answerNext('reject_once');
    await decide(gate, 'switch_tab', { tab_id: 4 }, newTask());
    expect((await asked).why).toMatch(/another window/);
  });

  test('a tab that does not exist is refused without a question', async () => {
    const { gate, requests } = setup();
    expect(await decide(gate, 'switch_tab', { tab_id: 99 }, newTask())).toMatchObject({ allowed: false, by: 'policy', reason: expect.stringMatching(/no open tab/) });
    expect(requests()).toHaveLength(0);
  });
});

describe('pages FoxAgent cannot act on are refused before any question', () => {
  test.each([['click', { id: 1 }], ['fill', { id: 1, text: 'x' }], ['press_key', { key: 'Enter' }], ['scroll', {}]])('%s on about:addons', async (tool, args) => {
    const { gate, requests } = setup();
    const verdict = await decide(gate, tool, args, newTask(5));
    expect(verdict).toMatchObject({ allowed: false, by: 'policy', reason: expect.stringMatching(/cannot read or act on about: pages/) });
    expect(requests()).toHaveLength(0);
  });
});

describe('"Allow once" is this one call', () => {
  test('an allowed scroll does not allow the clicks, fills, keys, navigation and tab switches after it', async () => {
    const { gate, requests, answerNext } = setup();
    const task = newTask();
    void answerNext('allow_once');
    expect(await decide(gate, 'scroll', { direction: 'down' }, task)).toMatchObject({ allowed: true, by: 'user' });
    for (const [tool, args] of [
      ['click', { id: 4 }],
      ['fill', { id: 5, text: 'Tidy up my cart' }],
      ['press_key', { key: 'Enter', id: 5 }],
      ['navigate', { url: 'https://shop.example/checkout' }],
      ['switch_tab', { tab_id: 2 }],
      ['scroll', { direction: 'up' }],
    ] as const) {
      const asked = answerNext('reject_once');
      expect(await decide(gate, tool, args as Record<string, unknown>, task)).toMatchObject({ allowed: false, by: 'user' });
      expect((await asked).tool).toBe(tool);
    }
    expect(requests()).toHaveLength(7);
  });
});

describe('"Allow <tool> on <site> for this task"', () => {
  test('is offered for interactions, never for navigation, tab tools or sensitive actions', async () => {
    const { gate, answerNext } = setup();
    const offered: Record<string, boolean | undefined> = {};
    for (const [tool, args] of [
      ['click', { id: 4 }],
      ['navigate', { url: 'https://shop.example/checkout' }],
      ['switch_tab', { tab_id: 2 }],
      ['submit_form', { id: 4 }],
    ] as const) {
      const asked = answerNext('reject_once');
      await decide(gate, tool, args as Record<string, unknown>, newTask());
      offered[tool] = (await asked).canAllowTask;
    }
    expect(offered).toEqual({ click: true, navigate: false, switch_tab: false, submit_form: false });
  });

  test('covers that tool on that site in that task only', async () => {
    const { gate, requests, answerNext } = setup();
    const task = newTask();
    void answerNext('allow_task');
    expect(await decide(gate, 'click', { id: 4 }, task)).toMatchObject({ allowed: true, by: 'user' });
    expect(await decide(gate, 'click', { id: 7 }, task)).toEqual({ allowed: true, by: 'policy' });
    expect(requests()).toHaveLength(1);
    // Another tool, the same tool in the next task, or on another site: asked again.
    for (const [tool, args, inTask] of [
      ['fill', { id: 5, text: 'Tidy up my cart' }, task],
      ['click', { id: 4 }, newTask()],
    ] as const) {
      const asked = answerNext('reject_once');
      await decide(gate, tool, args as Record<string, unknown>, inTask);
      await asked;
    }
    const elsewhere = answerNext('reject_once');
    await decide(gate, 'click', { id: 4 }, { ...task, tabId: 3 });
    await elsewhere;
    expect(requests()).toHaveLength(4);
  });
});

test('an element the page layer cannot check is refused with its reason, before any question', async () => {
  const { gate, requests } = setup({
    inspect: async () => {
      throw new Error('There is no element [4] in the latest read of the page.');
    },
  });
  const verdict = await decide(gate, 'click', { id: 4 }, newTask());
  expect(verdict).toMatchObject({ allowed: false, by: 'policy', reason: expect.stringMatching(/could not check the element.*no element \[4\]/) });
  expect(requests()).toHaveLength(0);
});

describe('a link or form that leads to another site is a navigation there', () => {
  test('a click on a link to another site asks even where clicks are allowed, and says where it leads', async () => {
    const { gate, store, answerNext } = setup({ inspect: async () => ({ tag: 'a', role: 'link', name: 'Read more', leadsTo: 'https://evil.example/collect?email=ada%40example.com' }) });
    await store.set({ origin: 'https://shop.example', subject: 'click', policy: 'allow' });
    const asked = answerNext('reject_once');
    expect(await decide(gate, 'click', { id: 4 }, newTask())).toMatchObject({ allowed: false, by: 'user' });
    expect((await asked).why).toMatch(/another site \(https:\/\/evil\.example\)/);
  });

  test('a link within the site stays an allowed click', async () => {
    const { gate, store } = setup({ inspect: async () => ({ tag: 'a', role: 'link', name: 'Orders', leadsTo: 'https://shop.example/orders' }) });
    await store.set({ origin: 'https://shop.example', subject: 'click', policy: 'allow' });
    expect(await decide(gate, 'click', { id: 4 }, newTask())).toEqual({ allowed: true, by: 'policy' });
  });
});

test('normalising a URL stays linear on a 300 KB run of spaces inside it', () => {
  const started = performance.now();
  const checked = registry.validate({ id: 'c', name: 'navigate', arguments: { url: `https://shop.example/${' '.repeat(300_000)}x` } });
  expect(checked.ok).toBe(true);
  expect(performance.now() - started).toBeLessThan(2_000);
});
