import type { AuditEntry } from '../../shared/permissions';

export { auditToCsv, type AuditEntry } from '../../shared/permissions';

export interface AuditStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const KEY = 'auditLog';
export const MAX_AUDIT_ENTRIES = 2000;

/** Every tool invocation, newest last; the oldest roll off past the bound. */
export class AuditLog {
  private entries: AuditEntry[] | undefined;
  /** Entries waiting for the next write. */
  private queued: AuditEntry[] = [];
  private writing: Promise<void> = Promise.resolve();
  private nextWrite: Promise<void> | undefined;

  constructor(
    private readonly storage: AuditStorage,
    private readonly max = MAX_AUDIT_ENTRIES,
  ) {}

  async list(filter: { conversationId?: string; tool?: string; origin?: string; decision?: AuditEntry['decision'] } = {}): Promise<AuditEntry[]> {
    const all = [...(await this.load()), ...this.queued];
    return all.filter(
      (e) =>
        (!filter.conversationId || e.conversationId === filter.conversationId) &&
        (!filter.tool || e.tool.includes(filter.tool.toLowerCase())) &&
        (!filter.origin || e.origin.includes(filter.origin.toLowerCase())) &&
        (!filter.decision || e.decision === filter.decision),
    );
  }

  /**
   * Adds an entry. Writes are serialised so that appends never drop each other, and one write
   * carries every entry appended while the previous one was running: the whole log is stored
   * each time, so a busy agent does not pay for it per call.
   */
  append(entry: AuditEntry): Promise<void> {
    this.queued.push(entry);
    if (!this.nextWrite) {
      this.nextWrite = this.writing.then(async () => {
        this.nextWrite = undefined;
        const all = await this.load();
        all.push(...this.queued.splice(0));
        if (all.length > this.max) all.splice(0, all.length - this.max);
        await this.storage.set({ [KEY]: all });
      });
      this.writing = this.nextWrite;
    }
    return this.nextWrite;
  }

  async clear(): Promise<void> {
    this.queued = [];
    this.entries = [];
    await this.storage.set({ [KEY]: [] });
  }

  private async load(): Promise<AuditEntry[]> {
    if (!this.entries) {
      const stored = (await this.storage.get(KEY))[KEY];
      this.entries = Array.isArray(stored) ? (stored as AuditEntry[]) : [];
    }
    return this.entries;
  }
}
