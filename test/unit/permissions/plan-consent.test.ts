/**
 * Approving a plan is a consent for that plan only: its steps' interactions on the sites it
 * listed go through without asking; everything else still asks (a page that moved to another
 * site, sensitive fields and sites, a plan that listed only reads, tab tools, back and forward),
 * deny rules still win, and the grant reaches no other plan and no normal chat.
 */
import { AuditLog } from '../../../src/background/permissions/audit-log';
import type { GateScope } from '../../../src/background/permissions/gate';
import { PolicyStore } from '../../../src/background/permissions/policies';
import { PolicyGate, type TabFacts } from '../../../src/background/permissions/policy-gate';
import { PermissionPrompter } from '../../../src/background/permissions/prompter';
import type { TargetInfo } from '../../../src/background/permissions/tiers';
import { createToolRegistry, type ToolDeps } from '../../../src/background/tools';
import type { PlanGrant, TaskState } from '../../../src/background/tools/registry';
import type { BgToUiEvent } from '../../../src/shared/protocol';
import { MemoryStorage } from '../../support/memory-storage';

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used in this test')) });
const registry = createToolRegistry({ agent: unused, reader: unused, tabs: unused } as unknown as ToolDeps);
const BUTTON: TargetInfo = { tag: 'button', role: 'button', name: 'Show delivery options' };

function setup(target: TargetInfo = BUTTON) {
  const storage = new MemoryStorage();
  const events: BgToUiEvent[] = [];
  const prompter = new PermissionPrompter((e) => events.push(e), 5000);
  const store = new PolicyStore(storage);
  const audit = new AuditLog(storage);
  const tabs: Record<number, TabFacts> = {
    1: { url: 'https://shop.example/kettle', title: 'Kettle', windowId: 1 },
    2: { url: 'https://other-shop.example/kettle', title: 'Kettle elsewhere', windowId: 1 },
  };
  const gate = new PolicyGate({ store, prompter, audit, tab: async (id) => tabs[id], inspect: async () => target });
  const asked = () => events.filter((e) => e.type === 'permission/requested').length;
  /** The call as the tool's schema leaves it, decided; a question is refused (and counted). */
  const decide = async (name: string, args: Record<string, unknown>, task: TaskState) => {
    const call = { id: `c-${Math.random()}`, name, arguments: args };
    const checked = registry.validate(call);
    if (!checked.ok) throw new Error(checked.error);
    const scope: GateScope = { conversationId: 'conv-1', tabId: task.tabId, task, context: () => ({ userText: 'Compare the kettle on these shops', pageText: 'Kettle, 1.7 l' }) };
    const before = asked();
    // A question is refused as soon as it is asked.
    const refuse = () => void setTimeout(() => prompter.list().forEach((r) => prompter.answer(r.id, 'reject_once')), 0);
    const verdict = await gate.decide({ tool: checked.tool, args: checked.args, call }, scope, refuse, new AbortController().signal);
    gate.settled({ tool: checked.tool, args: checked.args, call }, scope, verdict, { status: verdict.allowed ? 'done' : 'denied' });
    return { allowed: verdict.allowed, asked: asked() > before };
  };
  return { store, audit, tabs, decide };
}

const grant = (may: PlanGrant['may'] extends ReadonlySet<infer T> ? T[] : never, sites = ['https://shop.example']): PlanGrant => ({ sites: new Set(sites), may: new Set(may) });
const step = (g: PlanGrant | undefined, tabId = 1, planStep = { planId: 'plan-1', stepId: 'a' }): TaskState => ({ tabId, startTabId: tabId, openedTabs: new Set(), allowedTabs: new Set([tabId]), ...(g ? { planGrant: g, planStep } : {}) });

test("a step's listed interaction on a listed site runs without asking, and the audit log names the plan and step", async () => {
  const t = setup();
  const task = step(grant(['interact']));
  expect(await t.decide('click', { id: 4 }, task)).toMatchObject({ allowed: true, asked: false });
  expect(await t.decide('scroll', { direction: 'down' }, task)).toMatchObject({ allowed: true, asked: false });
  await new Promise((r) => setTimeout(r, 20));
  const entries = await t.audit.list({});
  expect(entries.map((e) => [e.tool, e.planId, e.stepId, e.decidedBy])).toEqual([
    ['click', 'plan-1', 'a', 'policy'],
    ['scroll', 'plan-1', 'a', 'policy'],
  ]);
});

test('a step whose page moved to another site asks there', async () => {
  const t = setup();
  const task = step(grant(['interact']));
  t.tabs[1] = { url: 'https://evil.example/landing', title: 'Win', windowId: 1 };
  expect(await t.decide('click', { id: 4 }, task)).toMatchObject({ allowed: false, asked: true });
});

test('sensitive actions still ask: a password field, a payment form, a site the user marked sensitive', async () => {
  for (const target of [
    { tag: 'input', type: 'password', name: 'Password' },
    { tag: 'button', role: 'button', name: 'Pay now', formHasPayment: true },
  ] as TargetInfo[]) {
    const t = setup(target);
    expect(await t.decide('click', { id: 4 }, step(grant(['interact', 'navigate'])))).toMatchObject({ allowed: false, asked: true });
  }
  const t = setup();
  await t.store.setSensitiveSites(['https://shop.example']);
  expect(await t.decide('click', { id: 4 }, step(grant(['interact'])))).toMatchObject({ allowed: false, asked: true });
});

test('a plan that listed only reads, or only interaction, covers nothing more', async () => {
  const t = setup();
  expect(await t.decide('click', { id: 4 }, step(grant([])))).toMatchObject({ asked: true });
  expect(await t.decide('navigate', { url: 'https://shop.example/delivery' }, step(grant(['interact'])))).toMatchObject({ asked: true });
  expect(await t.decide('read_page', {}, step(grant([])))).toMatchObject({ allowed: true, asked: false });
});

test('navigate covers loads within the listed sites only; back, forward and tab tools still ask', async () => {
  const t = setup();
  const task = step(grant(['navigate']));
  expect(await t.decide('navigate', { url: 'https://shop.example/delivery' }, task)).toMatchObject({ allowed: true, asked: false });
  expect(await t.decide('navigate', { url: 'https://evil.example/' }, task)).toMatchObject({ allowed: false, asked: true });
  // Another site the plan listed is still a move to another site: the engine asks.
  const both = step(grant(['navigate'], ['https://shop.example', 'https://other-shop.example']));
  expect(await t.decide('navigate', { url: 'https://other-shop.example/kettle' }, both)).toMatchObject({ asked: true });
  expect(await t.decide('go_back', {}, task)).toMatchObject({ asked: true });
  expect(await t.decide('open_tab', { url: 'https://shop.example/x' }, task)).toMatchObject({ asked: true });
  expect(await t.decide('click', { id: 4 }, task)).toMatchObject({ asked: true });
});

test("a deny rule still wins over the plan's consent", async () => {
  const t = setup();
  await t.store.set({ origin: 'https://shop.example', subject: 'click', policy: 'deny' });
  expect(await t.decide('click', { id: 4 }, step(grant(['interact'])))).toMatchObject({ allowed: false, asked: false });
});

test('the consent reaches no other plan and no normal chat on the same site', async () => {
  const t = setup();
  const planned = step(grant(['interact']));
  expect(await t.decide('click', { id: 4 }, planned)).toMatchObject({ allowed: true, asked: false });
  // A normal chat's task on the same tab: no grant, it asks.
  expect(await t.decide('click', { id: 4 }, step(undefined))).toMatchObject({ allowed: false, asked: true });
  // Another plan that listed another site, on this site: it asks.
  const other = step(grant(['interact'], ['https://other-shop.example']), 1, { planId: 'plan-2', stepId: 'a' });
  expect(await t.decide('click', { id: 4 }, other)).toMatchObject({ allowed: false, asked: true });
});
