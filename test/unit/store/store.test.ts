/**
 * The store layer on its own: typed reads, corrupt records, coalesced writes, roll-off, and the
 * layout version with its migrations.
 */
import { z } from 'zod';
import { KEYS, MIGRATIONS, RECORDS, rollOff, SCHEMA_VERSION, Store, drop, put, type Migration, type StoreProblem } from '../../../src/shared/store';
import { list, single } from '../../../src/shared/store/record';
import { MemoryStorage } from '../../support/memory-storage';

/** Memory storage that counts `set` calls and can hold each one until released. */
class SlowStorage extends MemoryStorage {
  sets: Record<string, unknown>[] = [];
  private gates: (() => void)[] = [];
  hold = false;
  /** Writes holding this key are refused, as a full storage refuses a big value. */
  refuse: string | undefined;
  override async set(items: Record<string, unknown>): Promise<void> {
    this.sets.push(items);
    if (this.hold) await new Promise<void>((resolve) => this.gates.push(resolve));
    if (this.refuse !== undefined && this.refuse in items) throw new Error('QuotaExceededError');
    return super.set(items);
  }
  release() {
    this.hold = false;
    for (const open of this.gates.splice(0)) open();
  }
}

const problemsOf = () => {
  const problems: StoreProblem[] = [];
  return { problems, report: (p: StoreProblem) => problems.push(p) };
};

describe('typed reads', () => {
  test('a record reads as its type, and absent as its fallback without a report', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    const store = new Store(storage, { report });
    expect(await store.read(RECORDS.sensitiveSites)).toEqual([]);
    expect(await store.read(RECORDS.activeConversation)).toBeUndefined();
    expect((await store.read(RECORDS.settings)).provider.kind).toBe('ollama');
    await storage.set({ [KEYS.sensitiveSites]: ['https://bank.example'], [KEYS.draft]: 'hello' });
    expect(await store.read(RECORDS.sensitiveSites)).toEqual(['https://bank.example']);
    expect(await store.read(RECORDS.draft)).toBe('hello');
    expect(problems).toEqual([]);
  });

  test('a corrupt record reads as its fallback, is reported with the key and the reason, and costs no other record', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    await storage.set({ [KEYS.draft]: { not: 'text' }, [KEYS.textToolModels]: 'garbage', [KEYS.policies]: [{ origin: '*', subject: 'click', policy: 'allow', createdAt: 1 }] });
    const store = new Store(storage, { report });
    expect(await store.read(RECORDS.draft)).toBe('');
    expect(await store.read(RECORDS.textToolModels)).toEqual({});
    expect(await store.read(RECORDS.policies)).toEqual([{ origin: '*', subject: 'click', policy: 'allow', createdAt: 1 }]);
    expect(problems).toEqual([
      { key: 'composerDraft', message: expect.stringMatching(/^unreadable, replaced by the default \(value: .+\)$/) },
      { key: 'textToolModels', message: expect.stringMatching(/^unreadable, replaced by the default/) },
    ]);
    // Nothing was written over what was stored: the corrupt value stays until the record is saved again.
    expect(storage.data.get(KEYS.draft)).toEqual({ not: 'text' });
  });

  test('an unreadable item in a list is dropped and reported; the items around it are kept', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    const rule = (subject: string) => ({ origin: 'https://shop.example', subject, policy: 'allow', createdAt: 1 });
    await storage.set({ [KEYS.policies]: [rule('click'), { origin: 5 }, rule('fill')], [KEYS.unfinishedConversations]: 'conv_1' });
    const store = new Store(storage, { report });
    expect((await store.read(RECORDS.policies)).map((r) => r.subject)).toEqual(['click', 'fill']);
    expect(await store.read(RECORDS.unfinishedConversations)).toEqual([]);
    expect(problems).toEqual([
      { key: 'permissionPolicies', message: expect.stringMatching(/^item 1 unreadable, dropped \(origin: /) },
      { key: 'unfinishedConversations', message: 'not a list (string), read as empty' },
    ]);
  });

  test('a list of many bad items is reported in a few lines', () => {
    const record = list('k', z.number());
    const { value, problems } = record.decode([...Array.from({ length: 10_000 }, () => 'x'), 7]);
    expect(value).toEqual([7]);
    expect(problems).toHaveLength(6);
    expect(problems.at(-1)).toBe('more unreadable items dropped');
  });

  test('a conversation that fails its schema reads as absent, reported under its own key', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    await storage.set({ [KEYS.conversation('bad')]: { id: 'bad', title: '', createdAt: 1, updatedAt: 1, messages: 'nope' } });
    const store = new Store(storage, { report });
    expect(await store.read(RECORDS.conversation('bad'))).toBeUndefined();
    expect(problems).toEqual([{ key: 'conversation:bad', message: 'unreadable, read as absent (messages: Invalid input: expected array, received string)' }]);
  });
});

describe('coalesced writes', () => {
  test('writes made together go out as one storage.set, and each caller hears when it landed', async () => {
    const storage = new SlowStorage();
    const store = new Store(storage);
    const writes = [store.set(RECORDS.draft, 'a'), store.set(RECORDS.sensitiveSites, ['https://a.example']), store.set(RECORDS.draft, 'b')];
    await Promise.all(writes);
    expect(storage.sets).toEqual([{ composerDraft: 'b', sensitiveSites: ['https://a.example'] }]);
    expect(storage.data.get(KEYS.draft)).toBe('b');
  });

  test('writes made while one is landing are held and go out together, last value winning; none is lost', async () => {
    const storage = new SlowStorage();
    const store = new Store(storage);
    storage.hold = true;
    const first = store.set(RECORDS.draft, 'first');
    await new Promise((r) => setTimeout(r, 0));
    expect(storage.sets).toHaveLength(1);
    const later = Array.from({ length: 20 }, (_, i) => store.set(RECORDS.draft, `typed ${i}`));
    const other = store.set(RECORDS.sensitiveSites, ['https://b.example']);
    // Reads see what is on its way.
    expect(await store.read(RECORDS.draft)).toBe('typed 19');
    storage.release();
    storage.hold = false;
    await Promise.all([first, ...later, other]);
    expect(storage.sets).toEqual([{ composerDraft: 'first' }, { composerDraft: 'typed 19', sensitiveSites: ['https://b.example'] }]);
    expect(await new Store(storage).read(RECORDS.draft)).toBe('typed 19');
  });

  test('a removal in the same write goes after the values, and a value set after a removal wins', async () => {
    const storage = new SlowStorage();
    const store = new Store(storage);
    await store.write(put(RECORDS.conversation('a'), { id: 'a', title: '', createdAt: 1, updatedAt: 1, messages: [] }), put(RECORDS.draft, 'x'));
    await store.write(drop(RECORDS.conversation('a')), drop(RECORDS.draft), put(RECORDS.draft, 'y'));
    expect(storage.data.has(KEYS.conversation('a'))).toBe(false);
    expect(storage.data.get(KEYS.draft)).toBe('y');
    expect(await store.read(RECORDS.conversation('a'))).toBeUndefined();
  });

  test('a write storage refuses rejects for its caller, is not kept, and the next write goes through', async () => {
    const storage = new SlowStorage();
    const store = new Store(storage);
    storage.refuse = KEYS.draft;
    await expect(store.set(RECORDS.draft, 'lost')).rejects.toThrow('QuotaExceededError');
    expect(await store.read(RECORDS.draft)).toBe('');
    storage.refuse = undefined;
    await store.set(RECORDS.draft, 'kept');
    expect(storage.data.get(KEYS.draft)).toBe('kept');
  });

  test('one caller’s refused change costs the others in the same write nothing: theirs are tried alone and land', async () => {
    const storage = new SlowStorage();
    const store = new Store(storage);
    storage.refuse = KEYS.conversation('big');
    const before = store.set(RECORDS.sensitiveSites, ['https://a.example']);
    const big = store.write(put(RECORDS.conversation('big'), { id: 'big', title: '', createdAt: 1, updatedAt: 1, messages: [] }), put(RECORDS.activeConversation, 'big'));
    const after = store.set(RECORDS.draft, 'typed');
    await expect(big).rejects.toThrow('QuotaExceededError');
    await expect(Promise.all([before, after])).resolves.toBeDefined();
    expect(storage.sets[0]).toEqual(expect.objectContaining({ sensitiveSites: ['https://a.example'], composerDraft: 'typed' }));
    expect(storage.data.get(KEYS.sensitiveSites)).toEqual(['https://a.example']);
    expect(storage.data.get(KEYS.draft)).toBe('typed');
    // The refused caller's changes are not kept, not even the part storage would have taken.
    expect(storage.data.has(KEYS.conversation('big'))).toBe(false);
    expect(storage.data.has(KEYS.activeConversation)).toBe(false);
  });

  test('a page follows a record another context writes, and stops when it unsubscribes', () => {
    const listeners = new Set<(changes: Record<string, unknown>, area: string) => void>();
    const changes = { addListener: (l: never) => listeners.add(l), removeListener: (l: never) => listeners.delete(l) };
    const store = new Store(new MemoryStorage(), { changes });
    const seen: string[] = [];
    const stop = store.watch(RECORDS.settings, () => seen.push('settings'));
    const fire = (c: Record<string, unknown>, area = 'local') => [...listeners].forEach((l) => l(c, area));
    fire({ composerDraft: {} });
    fire({ settings: {} }, 'sync');
    fire({ settings: {} });
    stop();
    fire({ settings: {} });
    expect(seen).toEqual(['settings']);
  });
});

describe('roll-off', () => {
  test('a bounded collection keeps the newest and says what rolled off', () => {
    expect(rollOff([5, 4, 3, 2, 1], 3)).toEqual({ kept: [5, 4, 3], dropped: [2, 1] });
    expect(rollOff([1], 3)).toEqual({ kept: [1], dropped: [] });
  });
});

describe('layout version and migrations', () => {
  const at = (storage: MemoryStorage) => storage.data.get(KEYS.schemaVersion);

  test('data with no version (written before the store layer) is brought to the current version, unchanged', async () => {
    const storage = new MemoryStorage();
    await storage.set({ [KEYS.draft]: 'kept', [KEYS.sensitiveSites]: ['https://bank.example'] });
    const before = new Map(storage.data);
    const store = new Store(storage, { migrations: MIGRATIONS });
    expect(await store.read(RECORDS.draft)).toBe('kept');
    expect(at(storage)).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(1);
    storage.data.delete(KEYS.schemaVersion);
    expect(storage.data).toEqual(before);
  });

  test('migrations run in order from the stored version, each recorded as it ends, before any read', async () => {
    const storage = new MemoryStorage();
    const ran: number[] = [];
    const step = (to: number, run: Migration['run']): Migration => ({ to, what: `step ${to}`, run: async (area) => (ran.push(to), run(area)) });
    const migrations = [
      step(1, async () => undefined),
      // 1 → 2: the draft becomes an object; 2 → 3: and gets a second field.
      step(2, async (area) => area.set({ [KEYS.draft]: { text: (await area.get(KEYS.draft))[KEYS.draft] } })),
      step(3, async (area) => area.set({ [KEYS.draft]: { ...((await area.get(KEYS.draft))[KEYS.draft] as object), at: 0 } })),
    ];
    await storage.set({ [KEYS.schemaVersion]: 1, [KEYS.draft]: 'old' });
    const store = new Store(storage, { migrations });
    const draftV3 = single(KEYS.draft, z.object({ text: z.string(), at: z.number() }), () => ({ text: '', at: 0 }));
    expect(await store.read(draftV3)).toEqual({ text: 'old', at: 0 });
    expect(ran).toEqual([2, 3]);
    expect(at(storage)).toBe(3);
    // Opened again: nothing more to do.
    await new Store(storage, { migrations }).ready;
    expect(ran).toEqual([2, 3]);
  });

  test('a migration that fails is reported, keeps the version it failed from, and is tried again at the next start', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    let fail = true;
    const migrations: Migration[] = [
      { to: 1, what: 'nothing', run: async () => undefined },
      { to: 2, what: 'split the drafts', run: async (area) => { if (fail) throw new Error('disk on fire'); await area.set({ [KEYS.draft]: 'migrated' }); } },
    ];
    await storage.set({ [KEYS.draft]: 'old' });
    const store = new Store(storage, { migrations, report });
    expect(await store.read(RECORDS.draft)).toBe('old');
    expect(at(storage)).toBe(1);
    expect(problems).toEqual([{ key: 'schemaVersion', message: 'stays at 1: the migration to 2 (split the drafts) failed: disk on fire' }]);
    fail = false;
    expect(await new Store(storage, { migrations, report }).read(RECORDS.draft)).toBe('migrated');
    expect(at(storage)).toBe(2);
  });

  test('data from a newer FoxAgent is left as it is, read as far as it can be, and reported', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    await storage.set({ [KEYS.schemaVersion]: 7, [KEYS.draft]: 'from the future' });
    const store = new Store(storage, { migrations: MIGRATIONS, report });
    expect(await store.read(RECORDS.draft)).toBe('from the future');
    expect(at(storage)).toBe(7);
    expect(problems[0]?.message).toMatch(/^is 7: written by a newer FoxAgent \(this one knows up to 1\)/);
  });

  test('a version that is not a number is reported and nothing is migrated', async () => {
    const storage = new MemoryStorage();
    const { problems, report } = problemsOf();
    await storage.set({ [KEYS.schemaVersion]: 'one' });
    await new Store(storage, { migrations: MIGRATIONS, report }).ready;
    expect(at(storage)).toBe('one');
    expect(problems[0]?.message).toBe('is "one", not a version: no migration was run');
  });

  test('writes wait for the migration: none lands on the old layout', async () => {
    const storage = new SlowStorage();
    let release!: () => void;
    const migrations: Migration[] = [{ to: 1, what: 'slow', run: () => new Promise<void>((r) => (release = r)) }];
    const store = new Store(storage, { migrations });
    const write = store.set(RECORDS.draft, 'after');
    await new Promise((r) => setTimeout(r, 5));
    expect(storage.sets).toEqual([]);
    release();
    await write;
    expect(storage.sets).toEqual([{ schemaVersion: 1 }, { composerDraft: 'after' }]);
  });
});
