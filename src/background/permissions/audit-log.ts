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
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: AuditStorage,
    private readonly max = MAX_AUDIT_ENTRIES,
  ) {}

  async list(filter: { conversationId?: string; tool?: string; origin?: string; decision?: AuditEntry['decision'] } = {}): Promise<AuditEntry[]> {
    const all = await this.load();
    return all.filter(
      (e) =>
        (!filter.conversationId || e.conversationId === filter.conversationId) &&
        (!filter.tool || e.tool.includes(filter.tool.toLowerCase())) &&
        (!filter.origin || e.origin.includes(filter.origin.toLowerCase())) &&
        (!filter.decision || e.decision === filter.decision),
    );
  }

  append(entry: AuditEntry): Promise<void> {
    // Writes are serialised so that concurrent appends never drop each other.
    this.writing = this.writing.then(async () => {
      const all = await this.load();
      all.push(entry);
      if (all.length > this.max) all.splice(0, all.length - this.max);
      await this.storage.set({ [KEY]: all });
    });
    return this.writing;
  }

  async clear(): Promise<void> {
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
