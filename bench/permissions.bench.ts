/**
 * What the permission gate costs per tool call, on the path every call takes when no question is
 * asked: facts (origin, start origin, target), the policy lookup and the escalation checks, which
 * scan the page text the model has seen (~12 KB, a full snapshot) for values the user never
 * wrote. Baseline in the same run: a gate that allows everything at once. The audit append is
 * timed apart, on a log already at its 2,000-entry bound.
 */
import { z } from 'zod';
import type { GateScope } from '../src/background/permissions/gate';
import { AuditLog, MAX_AUDIT_ENTRIES } from '../src/background/permissions/audit-log';
import { PolicyStore } from '../src/background/permissions/policies';
import { PolicyGate } from '../src/background/permissions/policy-gate';
import { PermissionPrompter } from '../src/background/permissions/prompter';
import { defineTool, type Risk } from '../src/background/tools/registry';
import { MemoryStorage } from '../test/support/memory-storage';
import { LONG_PROSE } from './fixtures';
import { fmt, measure, printTable } from './lib';

const tool = (name: string, risk: Risk) => defineTool({ name, description: name, input: z.object({}), risk, timeoutMs: 1000, run: async () => ({ ok: true, content: '' }) });
const PAGE_TEXT = `${LONG_PROSE}\n${LONG_PROSE}`.slice(0, 12_000);
const ORIGIN = 'https://shop.example';

async function main() {
  const storage = new MemoryStorage();
  const store = new PolicyStore(storage);
  await store.set({ origin: ORIGIN, subject: 'click', policy: 'allow' });
  await store.set({ origin: ORIGIN, subject: 'fill', policy: 'allow' });
  const audit = new AuditLog(storage);
  const gate = new PolicyGate({
    store,
    audit,
    prompter: new PermissionPrompter(() => undefined, 60_000),
    tab: async () => ({ url: `${ORIGIN}/`, windowId: 1 }),
    inspect: async () => ({ tag: 'input', type: 'text', name: 'Your name' }),
  });
  const task = { startTabId: 1, openedTabs: new Set<number>() };
  const scope: GateScope = { conversationId: 'c', tabId: 1, task, context: () => ({ userText: 'Subscribe me as Ada Lovelace, ada@example.com', pageText: PAGE_TEXT }) };
  const signal = new AbortController().signal;
  const call = (t: ReturnType<typeof tool>, args: Record<string, unknown>) => ({ tool: t, args, call: { id: 'x', name: t.name, arguments: args } });
  const allowAll = async () => ({ allowed: true as const, by: 'policy' as const });

  const cases = [
    { label: 'read_page (read: allowed)', c: call(tool('read_page', 'read'), {}) },
    { label: 'click (rule: allow)', c: call(tool('click', 'interact'), { id: 12 }) },
    { label: 'fill with the user’s words (rule: allow)', c: call(tool('fill', 'interact'), { id: 3, text: 'Ada Lovelace' }) },
  ];
  const rows = [];
  for (const { label, c } of cases) {
    const verdict = await gate.decide(c, scope, () => undefined, signal);
    if (!verdict.allowed) throw new Error(`${label} was not allowed: the bench measures the path without a question`);
    const g = await measure(() => gate.decide(c, scope, () => undefined, signal), { runs: 2000, warmup: 200 });
    const b = await measure(() => allowAll(), { runs: 2000, warmup: 200 });
    rows.push({ call: label, 'gate median': fmt(g.median), 'gate p95': fmt(g.p95), 'allow-all median': fmt(b.median), 'allow-all p95': fmt(b.p95) });
  }
  printTable(`PolicyGate.decide per call, no question asked (page text ${PAGE_TEXT.length.toLocaleString('en')} chars; baseline: a gate that allows at once)`, rows);

  let n = 0;
  const entry = () => ({ id: `a${++n}`, time: n, conversationId: 'c', tool: 'click', args: { id: 12 }, origin: ORIGIN, tier: 'interact' as const, decision: 'allowed' as const, decidedBy: 'policy' as const, outcome: 'done' as const });
  for (let i = 0; i < MAX_AUDIT_ENTRIES; i++) await audit.append(entry());
  const a = await measure(() => audit.append(entry()), { runs: 500, warmup: 50 });
  // Ten calls settling at once (a burst of quick tool calls): the appends share writes.
  const burst = await measure(() => Promise.all(Array.from({ length: 10 }, () => audit.append(entry()))), { runs: 200, warmup: 20 });
  printTable(`AuditLog.append on a full log (${MAX_AUDIT_ENTRIES.toLocaleString('en')} entries; in-memory storage with structured cloning, as storage.local copies)`, [
    { operation: 'one append (+ roll off), awaited', median: fmt(a.median), p95: fmt(a.p95), runs: a.runs },
    { operation: '10 appends at once', median: fmt(burst.median), p95: fmt(burst.p95), runs: burst.runs },
  ]);
}

void main();
