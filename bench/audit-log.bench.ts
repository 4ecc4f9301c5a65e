/**
 * What one audit append costs, in time and in bytes handed to storage, on a log already at its
 * bound: with small arguments (a click), and with a 20 KB argument (a long `fill`, a URL with a
 * big query string), the case where rewriting the whole log on every append hurt most.
 * The log starts full, as stored by the version that kept one array. Baseline in the same run:
 * one `storage.set` of the entry alone.
 */
import { AuditLog, MAX_AUDIT_ENTRIES, type AuditEntry } from '../src/background/permissions/audit-log';
import { MemoryStorage } from '../test/support/memory-storage';
import { fmt, measure, printTable } from './lib';

/** Storage that counts the bytes of every write, as serialised JSON. */
class CountingStorage extends MemoryStorage {
  bytes = 0;
  override async set(items: Record<string, unknown>): Promise<void> {
    this.bytes += JSON.stringify(items).length;
    return super.set(items);
  }
}

const ORIGIN = 'https://shop.example';
let n = 0;
const entry = (args: Record<string, unknown>): AuditEntry => ({
  id: `a${++n}`, time: n, conversationId: 'c', tool: 'fill', args, origin: ORIGIN, tier: 'interact', decision: 'allowed', decidedBy: 'policy', outcome: 'done',
});

async function run(label: string, args: () => Record<string, unknown>) {
  const storage = new CountingStorage();
  // A full log as the previous version stored it (one array); the log reads it as it starts.
  await storage.set({ auditLog: Array.from({ length: MAX_AUDIT_ENTRIES }, () => entry(args())) });
  const audit = new AuditLog(storage);
  await audit.append(entry(args()));
  storage.bytes = 0;
  const timed = await measure(() => audit.append(entry(args())), { runs: 100, warmup: 10 });
  const perAppend = storage.bytes / (timed.runs + 10);
  const baselineStorage = new CountingStorage();
  const baseline = await measure(() => baselineStorage.set({ one: entry(args()) }), { runs: 100, warmup: 10 });
  const stored = [...storage.data.values()].reduce((sum: number, v) => sum + JSON.stringify(v).length, 0);
  return {
    arguments: label,
    'append median': fmt(timed.median),
    'append p95': fmt(timed.p95),
    'bytes written / append': Math.round(perAppend).toLocaleString('en'),
    'log size stored': `${(stored / 1024).toFixed(0)} KB`,
    'one-entry set median': fmt(baseline.median),
  };
}

async function main() {
  const rows = [
    await run('click { id: 12 }', () => ({ id: 12 })),
    await run('fill, 20 KB text', () => ({ id: 3, text: 'x'.repeat(20_000) })),
    await run('navigate, URL with a 20 KB query', () => ({ url: `https://shop.example/search?q=${'y'.repeat(20_000)}#top` })),
  ];
  printTable(`AuditLog.append on a full log (${MAX_AUDIT_ENTRIES.toLocaleString('en')} entries stored first; in-memory storage with structured cloning)`, rows);
}

void main();
