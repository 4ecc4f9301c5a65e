import type { AuditEntry } from '../../shared/permissions';
import { drop, MAX_AUDIT_BYTES, MAX_AUDIT_ENTRIES, put, RECORDS, storeOf, type AuditIndex, type Change, type Store, type StoreOrArea } from '../../shared/store';
import { argsForLog, textForLog } from './redact';

export { auditToCsv, type AuditEntry } from '../../shared/permissions';
export { MAX_AUDIT_BYTES, MAX_AUDIT_ENTRIES } from '../../shared/store';
/**
 * A segment is closed at this many entries (fewer for a small log, so the count bound stays
 * close: at most 1/20 of it rolls off at once) or bytes; an append rewrites only the open one.
 */
const SEGMENT_ENTRIES = 50;
const SEGMENT_BYTES = 32 * 1024;

type Index = AuditIndex;

/**
 * Every tool invocation, newest last. Entries are stored bounded (arguments cut short, URLs
 * without query strings) in segments of a few dozen: an append rewrites only the newest segment
 * and the small index, and whole oldest segments roll off past the count or size bound.
 */
export class AuditLog {
  private index: Index | undefined;
  /** Segment contents read so far (the open one always, the rest once listed). */
  private readonly contents = new Map<number, AuditEntry[]>();
  /** Entries waiting for the next write. */
  private queued: AuditEntry[] = [];
  private writing: Promise<void> = Promise.resolve();
  private nextWrite: Promise<void> | undefined;

  private readonly store: Store;

  constructor(
    storage: StoreOrArea,
    private readonly max = MAX_AUDIT_ENTRIES,
    private readonly maxBytes = MAX_AUDIT_BYTES,
  ) {
    this.store = storeOf(storage);
    this.segmentEntries = Math.max(1, Math.min(SEGMENT_ENTRIES, Math.floor(max / 20)));
  }

  private readonly segmentEntries: number;

  async list(filter: { conversationId?: string; tool?: string; origin?: string; decision?: AuditEntry['decision'] } = {}): Promise<AuditEntry[]> {
    const stored = await this.serial(async () => {
      const index = await this.loadIndex();
      const all: AuditEntry[] = [];
      for (const segment of index.segments) all.push(...(await this.segment(segment.id)));
      return all;
    });
    return [...stored, ...this.queued].filter(
      (e) =>
        (!filter.conversationId || e.conversationId === filter.conversationId) &&
        (!filter.tool || e.tool.includes(filter.tool.toLowerCase())) &&
        (!filter.origin || e.origin.includes(filter.origin.toLowerCase())) &&
        (!filter.decision || e.decision === filter.decision),
    );
  }

  /**
   * Adds an entry, bounded for storage. Writes are serialised so that appends never drop each
   * other, and one write carries every entry appended while the previous one was running.
   */
  append(entry: AuditEntry): Promise<void> {
    this.queued.push(boundForLog(entry));
    if (!this.nextWrite) {
      this.nextWrite = this.serial(async () => {
        this.nextWrite = undefined;
        await this.save(this.queued.splice(0));
      });
    }
    return this.nextWrite;
  }

  clear(): Promise<void> {
    this.queued = [];
    return this.serial(async () => {
      const index = await this.loadIndex();
      const ids = index.segments.map((s) => s.id);
      this.index = { next: index.next, segments: [] };
      this.contents.clear();
      await this.store.write(put(RECORDS.auditIndex, this.index), ...ids.map((id) => drop(RECORDS.auditSegment(id))));
    });
  }

  private async save(entries: AuditEntry[]): Promise<void> {
    const index = await this.loadIndex();
    const segments = index.segments.map((s) => ({ ...s }));
    let next = index.next;
    const changed = new Map<number, AuditEntry[]>();
    for (const entry of entries) {
      const bytes = JSON.stringify(entry).length + 1;
      let open = segments.at(-1);
      if (!open || open.count >= this.segmentEntries || (open.count > 0 && open.bytes + bytes > SEGMENT_BYTES)) {
        open = { id: next++, count: 0, bytes: 2 };
        segments.push(open);
        changed.set(open.id, []);
      }
      const content = changed.get(open.id) ?? [...(await this.segment(open.id))];
      content.push(entry);
      changed.set(open.id, content);
      open.count += 1;
      open.bytes += bytes;
    }
    // Whole oldest segments roll off past either bound; the newest always stays.
    const indexBytes = () => JSON.stringify({ next, segments }).length;
    const dropped: number[] = [];
    const total = (key: 'count' | 'bytes') => segments.reduce((sum, s) => sum + s[key], 0);
    while (segments.length > 1 && (total('count') > this.max || total('bytes') + indexBytes() > this.maxBytes)) dropped.push(segments.shift()!.id);
    const writes: Change[] = [put(RECORDS.auditIndex, { next, segments })];
    for (const [id, content] of changed) if (!dropped.includes(id)) writes.push(put(RECORDS.auditSegment(id), content));
    await this.store.write(...writes, ...dropped.map((id) => drop(RECORDS.auditSegment(id))));
    this.index = { next, segments };
    for (const [id, content] of changed) this.contents.set(id, content);
    for (const id of dropped) this.contents.delete(id);
  }

  private async segment(id: number): Promise<AuditEntry[]> {
    let content = this.contents.get(id);
    if (!content) {
      content = await this.store.read(RECORDS.auditSegment(id));
      this.contents.set(id, content);
    }
    return content;
  }

  private async loadIndex(): Promise<Index> {
    if (this.index) return this.index;
    const stored = await this.store.read(RECORDS.auditIndex);
    if (stored) {
      this.index = stored;
      return stored;
    }
    this.index = { next: 0, segments: [] };
    // The single array the log was before it had segments: moved into segments once, bounded like new entries.
    const legacy = await this.store.read(RECORDS.auditLegacy);
    if (legacy.length) {
      await this.save(legacy.map(boundForLog));
      await this.store.remove(RECORDS.auditLegacy);
    }
    return this.index;
  }

  /** Runs `task` after every write and read queued before it. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writing.then(task, task);
    this.writing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

/** An entry as stored: arguments bounded and URLs bare, and the free-text fields cut short. */
function boundForLog(entry: AuditEntry): AuditEntry {
  return {
    ...entry,
    args: argsForLog(entry.args),
    ...(entry.summary !== undefined ? { summary: textForLog(entry.summary, 200) } : {}),
    ...(entry.why !== undefined ? { why: textForLog(entry.why, 300) } : {}),
  };
}
