/**
 * The transcription client against the scripted server over real HTTP: each provider's request
 * shape (endpoint, multipart fields, file name, headers), and every failure as its own code.
 */
import { TranscriptionError } from '../../../src/background/voice/errors';
import { createVoiceService } from '../../../src/background/voice/service';
import type { AudioFile } from '../../../src/background/voice/request';
import { encodeWav } from '../../../src/background/voice/wav';
import { serializeError } from '../../../src/background/sidebar-hub';
import { DEFAULT_VOICE_SETTINGS, type Recording, type TranscriptionErrorCode, type VoiceSettings } from '../../../src/shared/voice';
import { oggOpus, tone, webmOpus } from '../../support/audio-files';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ lifetimeMs: 60_000 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const recording = (bytes: Uint8Array, mimeType: string, durationMs = 2000): Recording => ({ audio: Buffer.from(bytes).toString('base64'), mimeType, durationMs });

function service(voice: Partial<VoiceSettings>, options: { timeoutMs?: number } = {}) {
  const converted: AudioFile[] = [];
  const settings: VoiceSettings = { ...DEFAULT_VOICE_SETTINGS, baseUrl: `${server.url}/v1`, ...voice };
  const control = createVoiceService({
    settings: async () => settings,
    fetch: (...args) => fetch(...args),
    // Node has no Web Audio: the conversion itself runs in Firefox (e2e); here it is a collaborator that says what it was given.
    toWav: async (audio) => {
      converted.push(audio);
      return encodeWav(tone(1, 16_000), 16_000);
    },
    ...(options.timeoutMs ? { timeoutMs: () => options.timeoutMs! } : {}),
  });
  return { control, converted };
}

async function codeOf(promise: Promise<unknown>): Promise<TranscriptionErrorCode | string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error instanceof TranscriptionError ? error.code : `not a TranscriptionError: ${String(error)}`;
  }
}

test('OpenAI: the Ogg recording as recording.ogg with model, language and json, the key as a Bearer token', async () => {
  server.scriptTranscription({ text: '  Open the weather page.  ' });
  const ogg = oggOpus(2);
  const { control, converted } = service({ provider: 'openai', model: 'whisper-1', language: 'de', apiKey: 'sk-voice-1' });
  expect(await control.transcribe(recording(ogg, 'audio/ogg;codecs=opus'))).toEqual({ text: 'Open the weather page.' });
  const [upload] = server.uploads;
  expect(upload!.path).toBe('/v1/audio/transcriptions');
  expect(upload!.fields).toEqual({ model: 'whisper-1', language: 'de', response_format: 'json' });
  expect(upload!.file).toMatchObject({ filename: 'recording.ogg', contentType: 'audio/ogg' });
  expect(Buffer.compare(upload!.file!.bytes, ogg)).toBe(0);
  expect(upload!.headers.authorization).toBe('Bearer sk-voice-1');
  expect(upload!.problems).toEqual([]);
  expect(converted).toEqual([]); // Opus goes as it was recorded
});

test('Groq: a WebM recording as recording.webm; no language field when it is left to the server', async () => {
  server.setTranscriptionRules({ model: 'whisper-large-v3-turbo' });
  server.scriptTranscription({ text: 'summarise this page' });
  const { control } = service({ provider: 'groq', model: 'whisper-large-v3-turbo', language: '', apiKey: 'gsk-1' });
  expect(await control.transcribe(recording(webmOpus(1.5), 'audio/webm;codecs=opus'))).toEqual({ text: 'summarise this page' });
  expect(server.uploads[0]!.fields).toEqual({ model: 'whisper-large-v3-turbo', response_format: 'json' });
  expect(server.uploads[0]!.file).toMatchObject({ filename: 'recording.webm', contentType: 'audio/webm' });
  expect(server.uploads[0]!.container).toMatchObject({ container: 'webm', codec: 'opus' });
});

test('OpenAI-compatible without a key: no Authorization header; a base URL with a trailing slash joins cleanly', async () => {
  server.scriptTranscription({ text: 'hello' });
  const { control } = service({ provider: 'openai-compatible', baseUrl: `${server.url}/v1//`, apiKey: '' });
  await control.transcribe(recording(oggOpus(1), 'audio/ogg'));
  expect(server.uploads[0]!.path).toBe('/v1/audio/transcriptions');
  expect(server.uploads[0]!.headers.authorization).toBeUndefined();
});

test('OpenAI-compatible with a WAV recording: sent as the converted 16 kHz mono WAV', async () => {
  server.setTranscriptionRules({ wav16kMono: true });
  server.scriptTranscription({ text: 'converted' });
  const espeakLike = encodeWav(tone(0.5, 22_050), 22_050);
  const { control, converted } = service({ provider: 'openai-compatible' });
  expect(await control.transcribe(recording(espeakLike, 'audio/wav'))).toEqual({ text: 'converted' });
  expect(converted.map((a) => [a.mimeType, a.bytes.length])).toEqual([['audio/wav', espeakLike.length]]);
  expect(server.uploads[0]!.file!.filename).toBe('recording.wav');
  expect(server.uploads[0]!.container).toMatchObject({ container: 'wav', sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
});

test('whisper.cpp: /inference with 16 kHz mono WAV, response_format and language, no model field', async () => {
  server.setTranscriptionRules({ wav16kMono: true });
  server.scriptTranscription({ text: 'go back' });
  const ogg = oggOpus(1);
  const { control, converted } = service({ provider: 'whisper-cpp', baseUrl: server.url, model: '', language: 'en' });
  expect(await control.transcribe(recording(ogg, 'audio/ogg;codecs=opus'))).toEqual({ text: 'go back' });
  expect(server.uploads[0]!.path).toBe('/inference');
  expect(server.uploads[0]!.fields).toEqual({ language: 'en', response_format: 'json' });
  expect(server.uploads[0]!.problems).toEqual([]);
  expect(Buffer.compare(Buffer.from(converted[0]!.bytes), ogg)).toBe(0); // the recording itself went to the conversion
});

test('the browser provider never reaches a server: voice_not_configured', async () => {
  const { control } = service({ provider: 'browser' });
  expect(await codeOf(control.transcribe(recording(oggOpus(1), 'audio/ogg')))).toBe('voice_not_configured');
  expect(server.uploads).toEqual([]);
});

test('each server fault becomes its own code, with words that say what to do', async () => {
  const { control } = service({ provider: 'openai-compatible' });
  const send = () => control.transcribe(recording(oggOpus(1), 'audio/ogg'));
  const faults: [Parameters<LlmServer['scriptTranscription']>[0], TranscriptionErrorCode][] = [
    [{ fault: 'unauthorized' }, 'voice_unauthorized'],
    [{ fault: 'too_large' }, 'voice_too_long'],
    [{ fault: 'unsupported_format' }, 'voice_unsupported_format'],
    [{ text: '' }, 'voice_empty'],
    [{ text: '   ' }, 'voice_empty'],
    [{ fault: 'malformed_json' }, 'voice_bad_response'],
    [{ fault: 'wrong_shape' }, 'voice_bad_response'],
    [{ fault: 'server_error' }, 'voice_bad_response'],
    [{ fault: 'refused' }, 'voice_unreachable'],
  ];
  for (const [reply, code] of faults) {
    server.scriptTranscription(reply);
    expect([reply, await codeOf(send())]).toEqual([reply, code]);
  }
  server.scriptTranscription({ fault: 'server_error' });
  await expect(send()).rejects.toThrow('The transcription server answered with error 500: The server had an error while processing your request.');
});

test('a 400 naming the file format is voice_unsupported_format; a 400 about something else is not', async () => {
  const { control } = service({ provider: 'openai-compatible' });
  const broken = oggOpus(1);
  broken[broken.length - 1]! ^= 0xff;
  expect(await codeOf(control.transcribe(recording(broken, 'audio/ogg')))).toBe('voice_unsupported_format');
  const { control: noModel } = service({ provider: 'openai-compatible', model: '' });
  expect(await codeOf(noModel.transcribe(recording(oggOpus(1), 'audio/ogg')))).toBe('voice_bad_response');
  expect(await codeOf(control.transcribe(recording(oggOpus(1), 'audio/x-unknown')))).toBe('voice_unsupported_format');
});

test('nothing listening: voice_unreachable, the hint naming the local server to start, or the connection for a hosted one', async () => {
  const gone = await startLlmServer();
  const url = gone.url;
  await gone.close();
  const local = service({ provider: 'openai-compatible', baseUrl: `${url}/v1` }).control;
  const error = await local.transcribe(recording(oggOpus(1), 'audio/ogg')).then(() => undefined, (e: unknown) => e as TranscriptionError);
  expect(error!.code).toBe('voice_unreachable');
  expect(error!.message).toBe(`Cannot reach the transcription server at ${url}/v1.`);
  expect(error!.hint).toBe(`Start your transcription server at ${url}/v1 or change it in Options → Voice.`);
  const hosted = service({ provider: 'openai', baseUrl: `${url}/v1`, apiKey: 'sk-1' }).control;
  const hostedError = await hosted.transcribe(recording(oggOpus(1), 'audio/ogg')).then(() => undefined, (e: unknown) => e as TranscriptionError);
  expect(hostedError!.code).toBe('voice_unreachable');
  expect(hostedError!.hint).toMatch(/internet connection/);
});

test('a server that never answers: voice_timeout after the timeout', async () => {
  server.scriptTranscription({ fault: 'hang' });
  const { control } = service({ provider: 'openai-compatible' }, { timeoutMs: 300 });
  const started = Date.now();
  const error = await control.transcribe(recording(oggOpus(1), 'audio/ogg')).then(() => undefined, (e: unknown) => e as TranscriptionError);
  expect(error!.code).toBe('voice_timeout');
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(error!.toUserError().text).toEqual({ message: { key: 'voiceErrorTimeout', args: ['1'] }, hint: { key: 'voiceHintTimeout' } });
});

test('a TranscriptionError crosses to the sidebar like an LlmError: code, English words and catalogue keys', async () => {
  server.scriptTranscription({ fault: 'too_large' });
  const { control } = service({ provider: 'openai-compatible' });
  const error = await control.transcribe(recording(oggOpus(1), 'audio/ogg')).catch((e: unknown) => e);
  expect(serializeError(error)).toEqual({
    code: 'voice_too_long',
    message: 'The recording is too long for the transcription server.',
    hint: 'Speak a shorter command, or lower the longest recording in Options → Voice.',
    text: { message: { key: 'voiceErrorTooLong' }, hint: { key: 'voiceHintTooLong' } },
  });
});

test('Test: a second of 16 kHz WAV to the server the form names; the time and what came back, silence included', async () => {
  let now = 1000;
  server.scriptTranscription((upload) => {
    now += 240;
    return { text: upload.container?.container === 'wav' ? '' : 'unexpected' };
  });
  const control = createVoiceService({ settings: async () => DEFAULT_VOICE_SETTINGS, fetch: (...a) => fetch(...a), toWav: async () => encodeWav(tone(1, 16_000), 16_000), now: () => now });
  const form: VoiceSettings = { ...DEFAULT_VOICE_SETTINGS, provider: 'openai-compatible', baseUrl: `${server.url}/v1`, model: 'Systran/faster-whisper-small' };
  expect(await control.test(form)).toEqual({ text: '', ms: 240 });
  expect(server.uploads[0]!.container).toMatchObject({ container: 'wav', sampleRate: 16_000, channels: 1, durationSec: 1 });
  expect(server.uploads[0]!.fields.model).toBe('Systran/faster-whisper-small');
  server.scriptTranscription({ fault: 'unauthorized' });
  expect(await codeOf(control.test(form))).toBe('voice_unauthorized');
});
