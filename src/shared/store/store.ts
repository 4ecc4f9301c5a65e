import type { StoreRecord } from './record';
import { runMigrations, type Migration } from './migrations';

/** The storage surface the store needs; `browser.storage.local` satisfies it. */
export interface StorageArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

type ChangeListener = (changes: Record<string, unknown>, areaName: string) => void;
/** `browser.storage.onChanged`: lets a page follow a record another context writes. */
export interface StorageChanges {
  addListener(listener: ChangeListener): void;
  removeListener(listener: ChangeListener): void;
}

/** Something wrong with what storage held, as reported: which key, and what was done about it. */
export interface StoreProblem {
  key: string;
  message: string;
}

export interface StoreOptions {
  /** Run the layout migrations before the first read or write; only the background does. */
  migrations?: readonly Migration[];
  changes?: StorageChanges;
  report?: (problem: StoreProblem) => void;
}

/** One change in a write: a record's new value, or its removal. */
export type Change = { key: string; value: unknown } | { key: string; remove: true };
export const put = <T>(record: StoreRecord<T>, value: T): Change => ({ key: record.key, value });
export const drop = (record: StoreRecord<unknown>): Change => ({ key: record.key, remove: true });

const REMOVED = Symbol('removed');
type Pending = Map<string, unknown>;

/** One caller's changes in a coalesced write, and how to tell it the outcome. */
interface Group {
  changes: Change[];
  resolve(): void;
  reject(error: unknown): void;
}

const warn = (problem: StoreProblem) => console.warn(`FoxAgent storage: “${problem.key}” ${problem.message}`);

/**
 * The one way into extension storage. Reads are typed and checked (a corrupt record is reported
 * and read as its fallback; it never throws). Writes are coalesced: every change made while the
 * previous write is still landing (or in the same tick) goes out as one `storage.set`, in order,
 * and each caller's promise settles when its change has landed, or rejects with storage's error.
 * When storage refuses a coalesced write (full), each caller's changes are tried again on their
 * own, in order, so one caller's refused write costs no other caller theirs. Reads see changes
 * still on their way. Migrations, when given, run before anything else.
 */
export class Store {
  /** Changes not yet handed to storage. */
  private pending: Pending = new Map();
  /** Changes handed to storage whose write has not finished. */
  private landing: Pending = new Map();
  /** The callers whose changes wait in `pending`. */
  private groups: Group[] | undefined;
  /** The end of the last write queued; never rejects. */
  private last: Promise<void>;
  private readonly report: (problem: StoreProblem) => void;
  readonly ready: Promise<void>;

  constructor(
    private readonly area: StorageArea,
    private readonly options: StoreOptions = {},
  ) {
    this.report = options.report ?? warn;
    this.ready = options.migrations ? runMigrations(area, options.migrations, this.report) : Promise.resolve();
    this.last = this.ready;
  }

  async read<T>(record: StoreRecord<T>): Promise<T> {
    await this.ready;
    const { value, problems } = record.decode(await this.raw(record.key));
    for (const message of problems) this.report({ key: record.key, message });
    return value;
  }

  set<T>(record: StoreRecord<T>, value: T): Promise<void> {
    return this.write(put(record, value));
  }

  remove(record: StoreRecord<unknown>): Promise<void> {
    return this.write(drop(record));
  }

  /** Applies the changes together (one `storage.set`, then the removals), coalesced with others. */
  write(...changes: Change[]): Promise<void> {
    for (const change of changes) this.pending.set(change.key, 'remove' in change ? REMOVED : change.value);
    return new Promise<void>((resolve, reject) => {
      if (!this.groups) {
        const groups: Group[] = (this.groups = []);
        this.last = this.last.then(() => this.flush(groups));
      }
      this.groups.push({ changes, resolve, reject });
    });
  }

  /** Calls `listener` when another context (or this one) changes the record. */
  watch(record: StoreRecord<unknown>, listener: () => void): () => void {
    const changes = this.options.changes;
    if (!changes) return () => undefined;
    const onChanged: ChangeListener = (changed, areaName) => {
      if (areaName === 'local' && record.key in changed) listener();
    };
    changes.addListener(onChanged);
    return () => changes.removeListener(onChanged);
  }

  private async raw(key: string): Promise<unknown> {
    for (const changes of [this.pending, this.landing]) {
      if (changes.has(key)) {
        const value = changes.get(key);
        return value === REMOVED ? undefined : value;
      }
    }
    return (await this.area.get(key))[key];
  }

  private async flush(groups: Group[]): Promise<void> {
    this.groups = undefined;
    this.landing = this.pending;
    this.pending = new Map();
    try {
      await this.apply(this.landing);
      for (const group of groups) group.resolve();
    } catch (error) {
      if (groups.length === 1) groups[0]!.reject(error);
      else for (const group of groups) await this.apply(new Map(group.changes.map((c) => [c.key, 'remove' in c ? REMOVED : c.value]))).then(group.resolve, group.reject);
    } finally {
      this.landing = new Map();
    }
  }

  /** One `storage.set` with every value, then the removals. */
  private async apply(changes: Pending): Promise<void> {
    const sets: Record<string, unknown> = {};
    const removals: string[] = [];
    for (const [key, value] of changes) {
      if (value === REMOVED) removals.push(key);
      else sets[key] = value;
    }
    if (Object.keys(sets).length) await this.area.set(sets);
    for (const key of removals) await this.area.remove(key);
  }
}

/** A store over an area: the one given, or a raw area wrapped in a store of its own (tests). */
export type StoreOrArea = Store | StorageArea;
export const storeOf = (storage: StoreOrArea): Store => (storage instanceof Store ? storage : new Store(storage));
