/**
 * The API key stays with the server it was saved for: cleared when the provider or base URL
 * changes, never sent to another server, and never handed to any page but the options page.
 */
import { ChatService } from '../../../src/background/chat-service';
import { ConversationStore } from '../../../src/background/conversations';
import { createHandlers, dispatch, type HandlerDeps } from '../../../src/background/message-handler';
import { createSessionFactory } from '../../../src/background/provider-resolver';
import type { UiToBgRequest } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/settings';
import { allowAll, pageWorld } from '../../support/agent-fixtures';
import type { LlmServer } from '../../support/llm-server';
import { useServerPair } from '../../support/server-pair';
import { KEYS } from '../../../src/shared/store';
import { MemoryStorage } from '../../support/memory-storage';

const OLD_KEY = 'sk-old-server-key-1234';
const servers = useServerPair(OLD_KEY);

const OPTIONS = { page: '/options.html' };
const SIDEBAR = { page: '/sidebar.html' };

function setup() {
  const storage = new MemoryStorage();
  const sessions = createSessionFactory(storage);
  const store = new ConversationStore(storage);
  const chat = new ChatService({ store, emit: () => undefined, session: sessions.session, tools: pageWorld().tools, gate: allowAll, saveIntervalMs: 0 });
  const handlers = createHandlers({ chat, conversations: store, settingsStore: storage, currentProvider: sessions.provider } as unknown as HandlerDeps);
  const request = <T,>(body: UiToBgRequest, from = OPTIONS) => dispatch(handlers, body, from) as Promise<T>;
  const settings = (provider: Partial<Settings['provider']>): Settings => ({ ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, kind: 'openai-compatible', model: 'llama3.2:3b', ...provider } });
  return { storage, sessions, store, chat, request, settings };
}

/** Every header value any request to `server` carried. */
const headerText = (server: LlmServer) => JSON.stringify(server.requests.map((r) => r.headers));

test('the sidebar never receives the key; the options page does', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings } = setup();
  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: OLD_KEY }) });
  const forSidebar = await request<Settings>({ type: 'settings/get' }, SIDEBAR);
  expect(JSON.stringify(forSidebar)).not.toContain(OLD_KEY);
  expect(forSidebar.provider.baseUrl).toBe(`${oldServer.url}/v1`);
  // A page that does not say where it is from is not the options page either.
  expect(JSON.stringify(await request({ type: 'settings/get' }, { page: '' }))).not.toContain(OLD_KEY);
  expect((await request<Settings>({ type: 'settings/get' })).provider.apiKey).toBe(OLD_KEY);
  // A save from the sidebar (which has no key) answers without it, and does not wipe it.
  const reply = await request<Settings>({ type: 'settings/save', settings: { ...forSidebar, stepLimit: 7 } }, SIDEBAR);
  expect(JSON.stringify(reply)).not.toContain(OLD_KEY);
  expect((await request<Settings>({ type: 'settings/get' })).provider).toMatchObject({ apiKey: OLD_KEY });
  expect((await request<Settings>({ type: 'settings/get' })).stepLimit).toBe(7);
});

test('a new base URL saved with the old key clears it, and the new server never receives the old key', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings, storage } = setup();
  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: OLD_KEY }) });
  expect((await request<{ id: string }[]>({ type: 'models/list' })).length).toBeGreaterThan(0);
  expect(headerText(oldServer)).toContain(OLD_KEY);

  // The form still holds the old key when the user points it elsewhere.
  const saved = await request<Settings>({ type: 'settings/save', settings: settings({ baseUrl: `${newServer.url}/v1`, apiKey: OLD_KEY }) });
  expect(saved.provider.apiKey).toBe('');
  expect(JSON.stringify(storage.data.get(KEYS.settings))).not.toContain(OLD_KEY);
  await request({ type: 'models/list' });
  expect(newServer.requests.length).toBeGreaterThan(0);
  expect(headerText(newServer)).not.toContain(OLD_KEY);
});

test('a change of provider clears the key too; a key typed for the new server is kept', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings } = setup();
  await request({ type: 'settings/save', settings: settings({ kind: 'openai-compatible', baseUrl: `${oldServer.url}/v1`, apiKey: OLD_KEY }) });
  const sameUrlOtherKind = await request<Settings>({ type: 'settings/save', settings: settings({ kind: 'openai', baseUrl: `${oldServer.url}/v1`, apiKey: OLD_KEY }) });
  expect(sameUrlOtherKind.provider.apiKey).toBe('');

  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: OLD_KEY }) });
  const withNewKey = await request<Settings>({ type: 'settings/save', settings: settings({ baseUrl: `${newServer.url}/v1`, apiKey: 'sk-new-key' }) });
  expect(withNewKey.provider.apiKey).toBe('sk-new-key');
  await request({ type: 'models/list' });
  expect(headerText(newServer)).toContain('sk-new-key');
});

test('a stored key bound to another base URL is refused, not sent', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, storage, chat, store } = setup();
  // As if storage were edited behind the options page: the old key, now next to the new server.
  await storage.set({ [KEYS.settings]: { ...DEFAULT_SETTINGS, provider: { kind: 'openai-compatible', baseUrl: `${newServer.url}/v1`, apiKey: OLD_KEY, keyFor: `${oldServer.url}/v1`, model: 'llama3.2:3b' } } });
  await expect(request({ type: 'models/list' })).rejects.toMatchObject({ code: 'key_mismatch' });
  const conversation = await store.create();
  await chat.send(conversation.id, 'hello');
  for (let i = 0; i < 200 && chat.isRunning(conversation.id); i++) await new Promise((r) => setTimeout(r, 5));
  expect((await store.get(conversation.id))?.messages.at(-1)).toMatchObject({ role: 'assistant', error: { code: 'key_mismatch', hint: expect.stringMatching(/options/i) } });
  expect(headerText(newServer)).not.toContain(OLD_KEY);
});
