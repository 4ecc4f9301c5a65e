/**
 * An upgrade from the storage layout FoxAgent wrote before the store layer (version 0: no
 * `schemaVersion`). `test/fixtures/storage/v0-storage-dump.json` was written by running that
 * version's own stores (settings, conversations, policies, sensitive sites, audit log, text-mode
 * cache, the sidebar's draft) against memory storage; everything in it must load, unchanged.
 */
import { background } from '../../support/fake-extension';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConversationStore } from '../../../src/background/conversations';
import { ModeCache } from '../../../src/background/llm/capabilities';
import { AuditLog } from '../../../src/background/permissions/audit-log';
import { PolicyStore } from '../../../src/background/permissions/policies';
import type { Conversation } from '../../../src/shared/conversation';
import { loadSettings } from '../../../src/shared/settings-store';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { DEFAULT_VOICE_SETTINGS } from '../../../src/shared/voice';
import { KEYS, MIGRATIONS, SCHEMA_VERSION, Store, type StoreProblem } from '../../../src/shared/store';
import { useDraft } from '../../../src/sidebar/stores/draft';
import { MemoryStorage } from '../../support/memory-storage';

const dump = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/storage/v0-storage-dump.json'), 'utf8')) as Record<string, unknown>;
const stored = <T>(key: string) => structuredClone(dump[key]) as T;

async function upgraded() {
  const storage = new MemoryStorage();
  await storage.set(structuredClone(dump));
  const problems: StoreProblem[] = [];
  const store = new Store(storage, { migrations: MIGRATIONS, report: (p) => problems.push(p) });
  return { storage, store, problems };
}

test('the dump is the old layout: no version, every key of every store', () => {
  expect(dump[KEYS.schemaVersion]).toBeUndefined();
  const keys = Object.keys(dump);
  for (const key of [KEYS.settings, KEYS.conversationIndex, KEYS.activeConversation, KEYS.unfinishedConversations, KEYS.auditIndex, KEYS.policies, KEYS.sensitiveSites, KEYS.textToolModels, KEYS.draft]) expect(keys).toContain(key);
  expect(keys.filter((k) => k.startsWith('conversation:'))).toHaveLength(2);
  expect(keys.filter((k) => k.startsWith('audit:'))).toHaveLength(2);
});

test('after the upgrade every store loads what the old version stored, and nothing is reported', async () => {
  const { store, problems } = await upgraded();

  // Settings, with the key and the base URL it is bound to.
  // Fields added to the settings since then take their defaults (no context windows, tool sets or image settings set by the user; voice and plans as shipped).
  expect(await loadSettings(store)).toEqual({ ...(stored(KEYS.settings) as object), modelContext: {}, modelToolTier: {}, modelVision: {}, voice: DEFAULT_VOICE_SETTINGS, plans: DEFAULT_SETTINGS.plans });
  expect((await loadSettings(store)).provider).toMatchObject({ kind: 'openai-compatible', apiKey: 'sk-test-0123456789', keyFor: 'http://127.0.0.1:1234/v1' });

  // Conversations: the index, the open one, each conversation whole.
  const conversations = new ConversationStore(store);
  const index = stored<{ id: string }[]>(KEYS.conversationIndex);
  expect(await conversations.list()).toEqual(index);
  expect((await conversations.list()).map((s) => s.title)).toEqual(['Pizza', 'Train to Lyon']);
  const active = await conversations.active();
  expect(active.id).toBe(dump[KEYS.activeConversation]);
  expect(active).toEqual(stored(KEYS.conversation(active.id)));
  expect(active.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  for (const { id } of index) expect(await conversations.get(id)).toEqual(stored(KEYS.conversation(id)));

  // Permission rules and sensitive sites.
  const policies = new PolicyStore(store);
  expect(await policies.list()).toEqual(stored(KEYS.policies));
  expect(await policies.find('https://shop.example', 'click', 'interact')).toMatchObject({ policy: 'allow' });
  expect(await policies.sensitiveSites()).toEqual(['https://bank.example', 'https://mail.example']);

  // The audit log: all 60 entries, oldest first, across both segments.
  const entries = [...stored<unknown[]>(KEYS.auditSegment(0)), ...stored<unknown[]>(KEYS.auditSegment(1))];
  expect(entries).toHaveLength(60);
  expect(await new AuditLog(store).list()).toEqual(entries);

  // What was learnt about models.
  expect(await new ModeCache(store).modeOf(ModeCache.keyOf('ollama', 'http://127.0.0.1:11434', 'phi3:mini'))).toBe('xml');

  expect(problems).toEqual([]);
});

test('the upgrade rewrites nothing: storage holds the old data and the version, and a second start changes nothing', async () => {
  const { storage, store } = await upgraded();
  await store.ready;
  expect(Object.fromEntries(storage.data)).toEqual({ ...dump, [KEYS.schemaVersion]: SCHEMA_VERSION });
  await new Store(storage, { migrations: MIGRATIONS }).ready;
  expect(Object.fromEntries(storage.data)).toEqual({ ...dump, [KEYS.schemaVersion]: 1 });
});

test('the upgraded store goes on working: the unfinished chat is repaired at start-up, and appends and saves land', async () => {
  const { storage, store } = await upgraded();
  const conversations = new ConversationStore(store, () => 1_800_000_000_000);
  const [repaired] = await conversations.recoverInterrupted();
  expect(repaired?.title).toBe('Pizza');
  expect(repaired?.messages.find((m) => m.role === 'assistant')).toMatchObject({ content: 'Opening the shop', status: 'interrupted' });
  expect(await new ConversationStore(storage).get(repaired!.id)).toEqual(repaired);

  const audit = new AuditLog(store);
  await audit.append({ id: 'new', time: 1, conversationId: 'c', tool: 'click', args: {}, origin: 'https://a.example', tier: 'interact', decision: 'allowed', decidedBy: 'user', outcome: 'done' });
  const after = await new AuditLog(storage).list();
  expect(after).toHaveLength(61);
  expect(after.at(-1)?.id).toBe('new');
});

test('the sidebar restores the draft the old version kept', async () => {
  background.storage.clear();
  for (const [key, value] of Object.entries(dump)) background.storage.set(key, structuredClone(value));
  await useDraft.getState().restore();
  expect(useDraft.getState().text).toBe('half-typed thought about Lyon');
});
