import type { PlanRecord } from '../../shared/plan';
import { drop, MAX_PLANS, put, RECORDS, rollOff, storeOf, type PlanIndexEntry, type Store, type StoreOrArea } from '../../shared/store';

/**
 * Workflow plans in extension storage: one key per plan plus one index (newest first, bounded) of
 * each plan's conversation and status, which lists a conversation's plans and finds, at start-up,
 * the plans a reload cut off. Index changes go through one queue, so two plans saved at once
 * cannot write an index read before the other's change.
 */
export class PlanStore {
  private readonly store: Store;
  private index: Promise<PlanIndexEntry[]> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(storage: StoreOrArea, private readonly max = MAX_PLANS) {
    this.store = storeOf(storage);
  }

  get(id: string): Promise<PlanRecord | undefined> {
    return this.store.read(RECORDS.plan(id));
  }

  /** A conversation's plans, oldest first (the order their cards appear in). */
  async list(conversationId: string): Promise<PlanRecord[]> {
    const ids = (await this.entries()).filter((e) => e.conversationId === conversationId).map((e) => e.id);
    const records = await Promise.all(ids.reverse().map((id) => this.get(id)));
    return records.filter((r): r is PlanRecord => r !== undefined);
  }

  /** Plans whose index says they were running. */
  async running(): Promise<PlanRecord[]> {
    const ids = (await this.entries()).filter((e) => e.status === 'running').map((e) => e.id);
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records.filter((r): r is PlanRecord => r !== undefined);
  }

  /** Stores the plan (a copy, as it is now) and its index entry; the oldest plans roll off past the bound. */
  save(record: PlanRecord): Promise<void> {
    const copy = structuredClone(record);
    const work = this.queue.then(async () => {
      const entries = await this.entries();
      const entry: PlanIndexEntry = { id: copy.id, conversationId: copy.conversationId, status: copy.status, updatedAt: copy.updatedAt };
      const known = entries.findIndex((e) => e.id === copy.id);
      const next = known >= 0 ? entries.map((e, i) => (i === known ? entry : e)) : [entry, ...entries];
      const { kept, dropped } = rollOff(next, this.max);
      this.index = Promise.resolve(kept);
      // A step's progress rewrites only its plan; the index changes when a plan comes or its status does.
      const indexChanged = known < 0 || entries[known]!.status !== entry.status;
      await this.store.write(put(RECORDS.plan(copy.id), copy), ...(indexChanged ? [put(RECORDS.planIndex, kept)] : []), ...dropped.map((d) => drop(RECORDS.plan(d.id))));
    });
    this.queue = work.catch(() => undefined);
    return work;
  }

  private entries(): Promise<PlanIndexEntry[]> {
    this.index ??= this.store.read(RECORDS.planIndex);
    return this.index;
  }
}
