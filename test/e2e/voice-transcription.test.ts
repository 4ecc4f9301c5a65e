/**
 * Transcription in real Firefox: the background page's own client and WAV conversion send
 * audio to the scripted server. Real speech (espeak-ng) is heard by a real recogniser
 * (pocketsphinx) behind the server's endpoints; a real MediaRecorder recording arrives as a
 * valid Opus container with its true duration.
 */
import type { Page } from 'puppeteer-core';
import { DEFAULT_SETTINGS, type Settings } from '../../src/shared/settings';
import { DEFAULT_VOICE_SETTINGS, type Recording, type VoiceSettings } from '../../src/shared/voice';
import { launchFirefox, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { portRequest } from '../support/sidebar-driver';
import { recognise, speak, speechToolsPresent } from '../support/speech';

let ff: FoxAgentBrowser;
let server: LlmServer;
let page: Page;
let speech = false;
beforeAll(async () => {
  speech = await speechToolsPresent();
  server = await startLlmServer({ lifetimeMs: 5 * 60_000 });
  ff = await launchFirefox();
  page = await ff.openExtensionPage('options.html');
});
afterAll(async () => {
  await ff?.close();
  await server?.close();
});
beforeEach(() => server.reset());

async function useVoice(voice: Partial<VoiceSettings>): Promise<void> {
  const settings: Settings = { ...DEFAULT_SETTINGS, voice: { ...DEFAULT_VOICE_SETTINGS, ...voice } };
  await page.evaluate(async (s) => {
    await (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser.storage.local.set({ settings: s });
  }, settings);
}

const transcribe = (recording: Recording) => portRequest(page, { type: 'voice/transcribe', recording });

const SENTENCE = 'open the weather forecast for tomorrow';
const CONTENT_WORDS = ['weather', 'forecast', 'tomorrow'];
const heard = (text: string) => CONTENT_WORDS.filter((w) => text.toLowerCase().includes(w));

describe('real speech through a real recogniser', () => {
  beforeEach(() => {
    server.setTranscriptionRules({ wav16kMono: true });
    server.setTranscriptionFallback(async (upload) => ({ text: await recognise(upload.file!.bytes) }));
  });

  test.each([
    ['whisper.cpp', { provider: 'whisper-cpp' as const, baseUrl: '', model: '' }, '/inference'],
    ['an OpenAI-compatible server', { provider: 'openai-compatible' as const, baseUrl: '/v1', model: 'pocketsphinx-en-us' }, '/v1/audio/transcriptions'],
  ])('espeak-ng speech, converted to 16 kHz WAV in the background page, is heard by pocketsphinx through %s', async (_name, voice, path) => {
    if (!speech) return;
    const wav = await speak(SENTENCE);
    await useVoice({ ...voice, baseUrl: `${server.url}${voice.baseUrl}`, language: 'en' });
    const reply = await transcribe({ audio: wav.toString('base64'), mimeType: 'audio/wav', durationMs: 2500 });
    expect(reply.error).toBeUndefined();
    const text = (reply.value as { text: string }).text;
    expect({ text, heard: heard(text).length >= 2 }).toEqual({ text, heard: true });
    const [upload] = server.uploads;
    expect(upload!.path).toBe(path);
    expect(upload!.problems).toEqual([]);
    // The espeak file is 22 050 Hz; what arrived is the same speech at 16 kHz mono, its length kept.
    const spoken = (wav.readUInt32LE(40) / 2) / 22_050;
    expect(upload!.container).toMatchObject({ container: 'wav', sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
    expect(Math.abs(upload!.container!.durationSec - spoken)).toBeLessThan(0.01);
  }, 60_000);
});

describe('a real Firefox recording', () => {
  /** Records `ms` of Firefox's fake microphone (a tone) with MediaRecorder, as base64 and its type. */
  const record = (ms: number, mimeType: string) =>
    page.evaluate(
      async (duration, type) => {
        const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
        const recorder = new MediaRecorder(stream, { mimeType: type });
        const chunks: Blob[] = [];
        recorder.ondataavailable = (e) => chunks.push(e.data);
        const stopped = new Promise((resolve) => (recorder.onstop = resolve));
        recorder.start();
        await new Promise((r) => setTimeout(r, duration));
        recorder.stop();
        await stopped;
        stream.getTracks().forEach((t) => t.stop());
        const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return { audio: btoa(binary), mimeType: recorder.mimeType };
      },
      ms,
      mimeType,
    );

  test.each([['audio/ogg;codecs=opus', 'ogg'], ['audio/webm;codecs=opus', 'webm']] as const)('%s goes as recorded to an OpenAI-style server: a valid Opus container of the recorded length', async (type, container) => {
    server.scriptTranscription({ text: 'recorded' });
    await useVoice({ provider: 'openai-compatible', baseUrl: `${server.url}/v1` });
    const recording = await record(1500, type);
    expect(recording.mimeType).toMatch(new RegExp(`^audio/${container}`));
    expect((await transcribe({ ...recording, durationMs: 1500 })).value).toEqual({ text: 'recorded' });
    const [upload] = server.uploads;
    expect(upload!.problems).toEqual([]);
    expect(upload!.file!.filename).toBe(`recording.${container}`);
    expect(upload!.container).toMatchObject({ container, codec: 'opus' });
    expect(upload!.container!.durationSec).toBeGreaterThan(1.0);
    expect(upload!.container!.durationSec).toBeLessThan(2.2);
  }, 30_000);

  test('an Ogg/Opus recording decoded and resampled for whisper.cpp: 16 kHz mono WAV of the same length', async () => {
    server.setTranscriptionRules({ wav16kMono: true });
    server.scriptTranscription({ text: 'tone' });
    await useVoice({ provider: 'whisper-cpp', baseUrl: server.url, model: '' });
    const recording = await record(1500, 'audio/ogg;codecs=opus');
    expect((await transcribe({ ...recording, durationMs: 1500 })).value).toEqual({ text: 'tone' });
    const [upload] = server.uploads;
    expect(upload!.problems).toEqual([]);
    expect(upload!.container).toMatchObject({ container: 'wav', sampleRate: 16_000, channels: 1 });
    expect(upload!.container!.durationSec).toBeGreaterThan(1.0);
    expect(upload!.container!.durationSec).toBeLessThan(2.2);
    // The fake microphone's tone survives the conversion: the samples are not silence.
    const samples = upload!.file!.bytes.subarray(44);
    let peak = 0;
    for (let i = 0; i + 1 < samples.length; i += 2) peak = Math.max(peak, Math.abs(samples.readInt16LE(i)));
    expect(peak).toBeGreaterThan(1000);
  }, 30_000);

  test('a server fault reaches the page as its code with words and catalogue keys', async () => {
    server.scriptTranscription({ fault: 'too_large' });
    await useVoice({ provider: 'openai-compatible', baseUrl: `${server.url}/v1` });
    const recording = await record(500, 'audio/ogg;codecs=opus');
    expect((await transcribe({ ...recording, durationMs: 500 })).error).toEqual({
      code: 'voice_too_long',
      message: 'The recording is too long for the transcription server.',
      hint: 'Speak a shorter command, or lower the longest recording in Options → Voice.',
      text: { message: { key: 'voiceErrorTooLong' }, hint: { key: 'voiceHintTooLong' } },
    });
  }, 30_000);
});

describe("the options page's Voice section", () => {
  test('Test sends the background-made test sound to the server in the form, unsaved, and shows the time and the words', async () => {
    await useVoice({});
    const options = await ff.openExtensionPage('options.html');
    try {
      await options.waitForSelector('[data-testid="voice-section"] [data-testid="voice-base-url"]');
      server.setTranscriptionRules({ model: 'Systran/faster-whisper-tiny' });
      server.scriptTranscription({ text: 'Thank you.', delayMs: 120 });
      const setValue = (testId: string, value: string) =>
        options.$eval(`[data-testid="voice-section"] [data-testid="${testId}"]`, (input, v) => {
          const el = input as HTMLInputElement;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, v);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        }, value);
      await setValue('voice-base-url', `${server.url}/v1`);
      await setValue('voice-model', 'Systran/faster-whisper-tiny');
      await options.$eval('[data-testid="voice-test"]', (b) => (b as HTMLButtonElement).click());
      await options.waitForFunction(() => document.querySelector('[data-testid="voice-status"]')?.getAttribute('data-state') === 'tested', { timeout: 15_000 });
      const shown = await options.$eval('[data-testid="voice-status"]', (s) => s.textContent);
      const ms = Number(/answered in (\d+) ms/.exec(shown ?? '')?.[1]);
      expect(shown).toMatch(/^The server answered in \d+ ms: “Thank you\.”$/);
      expect(ms).toBeGreaterThanOrEqual(120);
      const [upload] = server.uploads;
      expect(upload!.problems).toEqual([]);
      expect(upload!.fields.model).toBe('Systran/faster-whisper-tiny');
      expect(upload!.container).toMatchObject({ container: 'wav', sampleRate: 16_000, channels: 1, durationSec: 1 });
      // Nothing was saved: the stored voice settings still name the default server.
      const storedVoice = await options.evaluate(async () => ((await (globalThis as unknown as { browser: { storage: { local: { get(k: string): Promise<{ settings: { voice: { baseUrl: string } } }> } } } }).browser.storage.local.get('settings')).settings.voice.baseUrl));
      expect(storedVoice).toBe(DEFAULT_VOICE_SETTINGS.baseUrl);
    } finally {
      await options.close();
    }
  }, 30_000);
});
