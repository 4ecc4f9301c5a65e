import { createHandlers, type HandlerDeps } from '../../../src/background/message-handler';
import { AuditLog } from '../../../src/background/permissions/audit-log';
import { evaluate, type CallFacts } from '../../../src/background/permissions/engine';
import { PolicyStore } from '../../../src/background/permissions/policies';
import { siteOrigin } from '../../../src/shared/permissions';
import { MemoryStorage } from '../../support/memory-storage';

describe('what a user types as a site', () => {
  test.each([
    ['*', '*'],
    ['bank.example', 'https://bank.example'],
    [' https://bank.example/login?x=1 ', 'https://bank.example'],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1:8080'],
    ['FILE:', 'file:'],
  ])('%j means %j', (input, origin) => expect(siteOrigin(input)).toBe(origin));

  test.each(['', 'http://', 'not a site at all'])('%j is refused with how to write it', (input) => {
    expect(() => siteOrigin(input)).toThrow(/not a site address: write it like https:\/\/example\.org/);
  });
});

describe('the options page’s requests', () => {
  const setup = () => {
    const storage = new MemoryStorage();
    const policies = new PolicyStore(storage);
    const audit = new AuditLog(storage);
    const handlers = createHandlers({ policies, audit } as unknown as HandlerDeps);
    return { storage, policies, audit, handlers };
  };

  test('a rule is added with its site normalised, replaces the same rule, and is revoked', async () => {
    const { handlers, storage } = setup();
    await handlers['policies/set']({ type: 'policies/set', origin: 'shop.example/cart', subject: 'click', policy: 'allow' });
    const rules = await handlers['policies/set']({ type: 'policies/set', origin: 'https://shop.example', subject: 'click', policy: 'deny' });
    expect(rules).toEqual([expect.objectContaining({ origin: 'https://shop.example', subject: 'click', policy: 'deny' })]);
    // Persisted: a new store (the next browser session) sees it.
    expect(await new PolicyStore(storage).list()).toEqual(rules);
    expect(await handlers['policies/remove']({ type: 'policies/remove', origin: 'https://shop.example', subject: 'click' })).toEqual([]);
  });

  test('sensitive actions cannot be allowed in advance, on any site', async () => {
    const { handlers } = setup();
    for (const subject of ['tier:sensitive', 'submit_form']) {
      for (const origin of ['*', 'https://bank.example']) {
        await expect(handlers['policies/set']({ type: 'policies/set', origin, subject, policy: 'allow' })).rejects.toThrow(/always asked/);
      }
    }
    await expect(handlers['policies/set']({ type: 'policies/set', origin: '*', subject: 'tier:sensitive', policy: 'deny' })).resolves.toHaveLength(1);
  });

  test('a site marked sensitive makes every action there sensitive', async () => {
    const { handlers, policies } = setup();
    const sites = await handlers['sensitive-sites/set']({ type: 'sensitive-sites/set', origins: ['bank.example', ' ', 'https://bank.example/accounts', 'http://127.0.0.1:9000'] });
    expect(sites).toEqual(['https://bank.example', 'http://127.0.0.1:9000']);
    await handlers['policies/set']({ type: 'policies/set', origin: 'https://bank.example', subject: 'click', policy: 'allow' });
    const facts: CallFacts = { tool: 'click', risk: 'interact', args: { id: 1 }, origin: 'https://bank.example', startOrigin: 'https://bank.example', userText: 'pay', pageText: '' };
    expect(await evaluate(facts, policies)).toMatchObject({ tier: 'sensitive', policy: 'ask', canAllowAlways: false });
  });

  test('the audit log is listed newest first, filtered, and cleared', async () => {
    const { handlers, audit } = setup();
    const entry = { conversationId: 'c', args: {}, origin: 'https://a.example', tier: 'interact' as const, decidedBy: 'user' as const, outcome: 'done' as const };
    await audit.append({ ...entry, id: '1', time: 1, tool: 'click', decision: 'allowed' });
    await audit.append({ ...entry, id: '2', time: 2, tool: 'fill', decision: 'denied', outcome: 'denied' });
    expect((await handlers['audit/list']({ type: 'audit/list' })).map((e) => e.tool)).toEqual(['fill', 'click']);
    expect((await handlers['audit/list']({ type: 'audit/list', filter: { decision: 'denied' } })).map((e) => e.tool)).toEqual(['fill']);
    expect((await handlers['audit/list']({ type: 'audit/list', filter: { tool: 'CLI', origin: 'A.EXAMPLE' } })).map((e) => e.tool)).toEqual(['click']);
    await handlers['audit/clear']({ type: 'audit/clear' });
    expect(await handlers['audit/list']({ type: 'audit/list' })).toEqual([]);
  });
});
