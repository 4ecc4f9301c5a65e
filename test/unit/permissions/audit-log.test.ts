/** The audit log as stored: bounded arguments, no query strings, a size bound, and cheap appends. */
import { AuditLog, MAX_AUDIT_BYTES, MAX_AUDIT_ENTRIES, type AuditEntry } from '../../../src/background/permissions/audit-log';
import { KEYS } from '../../../src/shared/store';
import { MemoryStorage } from '../../support/memory-storage';

/** Storage that counts what each write hands over, as JSON. */
class CountingStorage extends MemoryStorage {
  writes: number[] = [];
  override async set(items: Record<string, unknown>): Promise<void> {
    this.writes.push(JSON.stringify(items).length);
    return super.set(items);
  }
  /** Everything the log keeps in storage, as JSON. */
  storedBytes(): number {
    return [...this.data.values()].reduce((sum: number, v) => sum + JSON.stringify(v).length, 0);
  }
}

let n = 0;
const entry = (args: Record<string, unknown>, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `a${++n}`, time: n, conversationId: 'c', tool: 'fill', args, origin: 'https://shop.example', tier: 'interact', decision: 'allowed', decidedBy: 'policy', outcome: 'done', ...extra,
});

test('long arguments are stored cut short, saying so', async () => {
  const storage = new MemoryStorage();
  const log = new AuditLog(storage);
  await log.append(entry({ id: 3, text: 'x'.repeat(20_000), items: Array.from({ length: 500 }, (_, i) => ({ i, note: 'y'.repeat(100) })) }));
  const [stored] = await new AuditLog(storage).list();
  expect(JSON.stringify(stored!.args).length).toBeLessThanOrEqual(2_500);
  expect(stored!.args.id).toBe(3);
  expect(String(stored!.args.text)).toMatch(/^x+…/);
  expect(String(stored!.args.text)).toMatch(/20,?000/);
});

test('URLs are stored without their query string, fragment or credentials, wherever they appear', async () => {
  const storage = new MemoryStorage();
  const log = new AuditLog(storage);
  await log.append(
    entry(
      {
        url: 'https://bank.example/transfer?to=mallory&amount=5000#confirm',
        padded: '\u00a0 https://evil.example/collect?email=ada%40example.com',
        creds: 'https://user:hunter2@host.example/a?b=c',
        text: 'see https://mail.example/reset?token=s3cret for details',
        nested: { links: ['http://a.example/p?session=abc', 'plain words'] },
        note: 'no link here?really',
      },
      { summary: 'Navigated to https://bank.example/done?receipt=123#top' },
    ),
  );
  const [stored] = await new AuditLog(storage).list();
  const json = JSON.stringify(stored);
  for (const secret of ['mallory', '5000', 'confirm', 'ada%40example.com', 'hunter2', 's3cret', 'session=abc', 'receipt=123']) expect(json).not.toContain(secret);
  expect(stored!.args.url).toBe('https://bank.example/transfer');
  expect(String(stored!.args.padded)).toContain('https://evil.example/collect');
  expect(stored!.args.text).toBe('see https://mail.example/reset for details');
  expect(stored!.args.nested).toEqual({ links: ['http://a.example/p', 'plain words'] });
  expect(stored!.args.note).toBe('no link here?really');
  expect(stored!.summary).toContain('https://bank.example/done');
});

test('the log is bounded by size as well as by count, keeping the newest', async () => {
  const storage = new CountingStorage();
  const log = new AuditLog(storage);
  const big = () => ({ text: 'z'.repeat(50_000), selector: 'w'.repeat(50_000), more: 'v'.repeat(50_000) });
  for (let i = 0; i < MAX_AUDIT_ENTRIES; i++) await log.append(entry(big(), { summary: 's'.repeat(5_000), why: 'q'.repeat(5_000) }));
  const last = entry({ text: 'newest' });
  await log.append(last);
  expect(storage.storedBytes()).toBeLessThanOrEqual(MAX_AUDIT_BYTES);
  const kept = await new AuditLog(storage).list();
  expect(kept.at(-1)?.id).toBe(last.id);
  expect(kept.length).toBeGreaterThan(100);
  expect(kept.length).toBeLessThan(MAX_AUDIT_ENTRIES);
});

test('the count bound still holds, and an append on a full log writes a small, bounded amount', async () => {
  const storage = new CountingStorage();
  const log = new AuditLog(storage);
  for (let i = 0; i < MAX_AUDIT_ENTRIES + 300; i++) await log.append(entry({ id: i, text: `value ${i}` }));
  const kept = await new AuditLog(storage).list();
  expect(kept.length).toBeLessThanOrEqual(MAX_AUDIT_ENTRIES);
  expect(kept.length).toBeGreaterThan(MAX_AUDIT_ENTRIES - 100);
  expect(kept.at(-1)?.args.id).toBe(MAX_AUDIT_ENTRIES + 299);
  // Oldest first, newest last, none lost in between.
  const ids = kept.map((e) => e.args.id as number);
  expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => ids[0]! + i));

  storage.writes = [];
  await log.append(entry({ id: 'one more', text: 'x'.repeat(20_000) }));
  const written = storage.writes.reduce((a, b) => a + b, 0);
  // Not the whole log (hundreds of KB): at most one segment and the index.
  expect(written).toBeLessThan(64 * 1024);
});

test('a log stored by the previous version is still listed, and clearing empties it', async () => {
  const storage = new MemoryStorage();
  const old = [entry({ url: 'https://a.example/?q=1' }), entry({ id: 2 })];
  await storage.set({ [KEYS.auditLegacy]: old });
  const log = new AuditLog(storage);
  await log.append(entry({ id: 3 }));
  expect((await new AuditLog(storage).list()).map((e) => e.id)).toEqual([...old.map((e) => e.id), `a${n}`]);
  await log.clear();
  expect(await new AuditLog(storage).list()).toEqual([]);
  expect([...storage.data.values()].every((v) => !Array.isArray(v) || v.length === 0)).toBe(true);
});
