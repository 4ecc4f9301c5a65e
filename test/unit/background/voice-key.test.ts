/**
 * The transcription key follows the model key's rules: bound to the base URL it was saved for,
 * removed when the server changes without a new key, sent nowhere else, never given to the sidebar.
 */
import { createHandlers, dispatch, type HandlerDeps } from '../../../src/background/message-handler';
import { createVoiceService } from '../../../src/background/voice/service';
import { encodeWav } from '../../../src/background/voice/wav';
import type { UiToBgRequest } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS, type Settings } from '../../../src/shared/settings';
import { loadSettings } from '../../../src/shared/settings-store';
import { KEYS } from '../../../src/shared/store';
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from '../../../src/shared/voice';
import { oggOpus, tone } from '../../support/audio-files';
import type { LlmServer } from '../../support/llm-server';
import { useServerPair } from '../../support/server-pair';
import { MemoryStorage } from '../../support/memory-storage';

const VOICE_KEY = 'sk-voice-key-5678';
const servers = useServerPair(VOICE_KEY);

const OPTIONS = { page: '/options.html' };
const SIDEBAR = { page: '/sidebar.html' };
const RECORDING = { audio: oggOpus(1).toString('base64'), mimeType: 'audio/ogg', durationMs: 1000 };

function setup() {
  const storage = new MemoryStorage();
  const voice = createVoiceService({ settings: async () => (await loadSettings(storage)).voice, fetch: (...a) => fetch(...a), toWav: async () => encodeWav(tone(1, 16_000), 16_000) });
  const handlers = createHandlers({ settingsStore: storage, voice } as unknown as HandlerDeps);
  const request = <T,>(body: UiToBgRequest, from = OPTIONS) => dispatch(handlers, body, from) as Promise<T>;
  const settings = (patch: Partial<VoiceSettings>): Settings => ({ ...DEFAULT_SETTINGS, voice: { ...DEFAULT_VOICE_SETTINGS, provider: 'openai-compatible', ...patch } });
  return { storage, request, settings };
}

/** Every Authorization header the server received. */
const authorizations = (server: LlmServer) => server.uploads.map((u) => u.headers.authorization);

test('the sidebar never receives the transcription key; the options page does; a sidebar save keeps it', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings } = setup();
  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }) });
  const forSidebar = await request<Settings>({ type: 'settings/get' }, SIDEBAR);
  expect(JSON.stringify(forSidebar)).not.toContain(VOICE_KEY);
  expect(forSidebar.voice).toMatchObject({ baseUrl: `${oldServer.url}/v1`, apiKey: '' });
  expect(forSidebar.voice.keyFor).toBeUndefined();
  expect((await request<Settings>({ type: 'settings/get' })).voice).toMatchObject({ apiKey: VOICE_KEY, keyFor: `${oldServer.url}/v1` });
  const reply = await request<Settings>({ type: 'settings/save', settings: { ...forSidebar, voice: { ...forSidebar.voice, sendOnStop: false } } }, SIDEBAR);
  expect(JSON.stringify(reply)).not.toContain(VOICE_KEY);
  expect((await request<Settings>({ type: 'settings/get' })).voice).toMatchObject({ apiKey: VOICE_KEY, sendOnStop: false });
  expect(await request({ type: 'voice/transcribe', recording: RECORDING }, SIDEBAR)).toEqual({ text: 'OK' });
  expect(authorizations(oldServer)).toEqual([`Bearer ${VOICE_KEY}`]);
});

test('a new transcription server saved with the old key clears it, and the new server never receives it', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings, storage } = setup();
  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }) });
  const saved = await request<Settings>({ type: 'settings/save', settings: settings({ baseUrl: `${newServer.url}/v1`, apiKey: VOICE_KEY }) });
  expect(saved.voice.apiKey).toBe('');
  expect(JSON.stringify(storage.data.get(KEYS.settings))).not.toContain(VOICE_KEY);
  await request({ type: 'voice/transcribe', recording: RECORDING });
  expect(authorizations(newServer)).toEqual([undefined]);
});

test('a change of provider clears the key too; a key typed for the new server is kept and bound to it', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings } = setup();
  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }) });
  expect((await request<Settings>({ type: 'settings/save', settings: settings({ provider: 'groq', baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }) })).voice.apiKey).toBe('');
  const withNewKey = await request<Settings>({ type: 'settings/save', settings: settings({ baseUrl: `${newServer.url}/v1`, apiKey: 'sk-new-voice' }) });
  expect(withNewKey.voice).toMatchObject({ apiKey: 'sk-new-voice', keyFor: `${newServer.url}/v1` });
  await request({ type: 'voice/transcribe', recording: RECORDING });
  expect(authorizations(newServer)).toEqual(['Bearer sk-new-voice']);
});

test('the model key and the transcription key are bound separately: changing one server keeps the other key', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings } = setup();
  const both: Settings = { ...settings({ baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }), provider: { kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-model', model: 'gpt-4o-mini' } };
  await request({ type: 'settings/save', settings: both });
  const voiceMoved = await request<Settings>({ type: 'settings/save', settings: { ...both, voice: { ...both.voice, baseUrl: `${newServer.url}/v1` } } });
  expect(voiceMoved.provider.apiKey).toBe('sk-model');
  expect(voiceMoved.voice.apiKey).toBe('');
});

test('a stored key bound to another base URL is not sent', async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, storage } = setup();
  // As if storage were edited behind the options page: the key, now next to another server.
  await storage.set({ [KEYS.settings]: { ...DEFAULT_SETTINGS, voice: { ...DEFAULT_VOICE_SETTINGS, baseUrl: `${newServer.url}/v1`, apiKey: VOICE_KEY, keyFor: `${oldServer.url}/v1` } } });
  expect(await request({ type: 'voice/transcribe', recording: RECORDING })).toEqual({ text: 'OK' });
  expect(authorizations(newServer)).toEqual([undefined]);
});

test("Test: the saved key goes only to its own server; a key typed into the form goes to the form's server", async () => {
  const [oldServer, newServer] = [servers.saved(), servers.other()];
  const { request, settings } = setup();
  await request({ type: 'settings/save', settings: settings({ baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }) });
  const form = settings({ baseUrl: `${oldServer.url}/v1`, apiKey: VOICE_KEY }).voice;
  expect(await request({ type: 'voice/test', voice: form })).toMatchObject({ text: 'OK' });
  expect(authorizations(oldServer)).toEqual([`Bearer ${VOICE_KEY}`]);
  // The form points elsewhere but still shows the saved key: it is not sent there.
  await request({ type: 'voice/test', voice: { ...form, baseUrl: `${newServer.url}/v1` } });
  await request({ type: 'voice/test', voice: { ...form, baseUrl: `${newServer.url}/v1`, apiKey: 'sk-typed-now' } });
  expect(authorizations(newServer)).toEqual([undefined, 'Bearer sk-typed-now']);
});
