/** The scripted server's transcription endpoints: what they accept, refuse, record and answer. */
import { encodeWav } from '../../../src/background/voice/wav';
import { oggOpus, tone, webmOpus } from '../../support/audio-files';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ lifetimeMs: 60_000 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function form(file: Uint8Array | undefined, filename: string, fields: Record<string, string>, type = 'audio/ogg'): FormData {
  const body = new FormData();
  if (file) body.append('file', new Blob([new Uint8Array(file)], { type }), filename);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

const post = (path: string, body: FormData | string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { method: 'POST', body, headers });
const transcribe = (file: Uint8Array | undefined, filename: string, fields: Record<string, string> = { model: 'whisper-1' }, headers: Record<string, string> = {}) => post('/v1/audio/transcriptions', form(file, filename, fields), headers);

test('an Ogg/Opus upload: fields, file and container facts recorded, the scripted transcript returned', async () => {
  server.scriptTranscription({ text: 'open the news' });
  const file = oggOpus(2);
  const reply = await transcribe(file, 'recording.ogg', { model: 'whisper-1', language: 'en', response_format: 'json' });
  expect(reply.status).toBe(200);
  expect(await reply.json()).toEqual({ text: 'open the news' });
  const [upload] = server.uploads;
  expect(upload!.fields).toEqual({ model: 'whisper-1', language: 'en', response_format: 'json' });
  expect(upload!.file!.filename).toBe('recording.ogg');
  expect(upload!.file!.contentType).toBe('audio/ogg');
  expect(Buffer.compare(upload!.file!.bytes, file)).toBe(0);
  expect(upload!.container).toMatchObject({ container: 'ogg', codec: 'opus', channels: 1, preSkip: 312, inputSampleRate: 48_000 });
  expect(upload!.container!.durationSec).toBeCloseTo(2, 3);
  expect(upload!.problems).toEqual([]);
});

test('WebM/Opus: the duration from cluster timecodes (live recording) or from the Duration element', async () => {
  await transcribe(webmOpus(3), 'recording.webm');
  await transcribe(webmOpus(1.5, { duration: true }), 'recording.webm');
  const [live, finished] = server.uploads;
  expect(live!.container).toMatchObject({ container: 'webm', codec: 'opus', docType: 'webm', channels: 1, durationFrom: 'clusters' });
  expect(live!.container!.durationSec).toBeCloseTo(3, 2);
  expect(finished!.container).toMatchObject({ durationFrom: 'Duration' });
  expect(finished!.container!.durationSec).toBeCloseTo(1.5, 3);
  expect(server.uploads.map((u) => u.problems)).toEqual([[], []]);
});

test('whisper.cpp /inference: a 16 kHz mono WAV accepted; another rate refused when the test asks for 16 kHz mono', async () => {
  server.setTranscriptionRules({ wav16kMono: true });
  server.scriptTranscription({ text: 'hello there' });
  const ok = await post('/inference', form(encodeWav(tone(1.25, 16_000), 16_000), 'recording.wav', { response_format: 'json' }, 'audio/wav'));
  expect(await ok.json()).toEqual({ text: 'hello there' });
  expect(server.uploads[0]!.container).toEqual({ container: 'wav', codec: 'pcm', sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataBytes: 40_000, durationSec: 1.25 });
  const refused = await post('/inference', form(encodeWav(tone(1, 44_100), 44_100), 'recording.wav', {}, 'audio/wav'));
  expect(refused.status).toBe(400);
  expect((await refused.json()).error).toMatch(/16 kHz mono/);
  const ogg = await post('/inference', form(oggOpus(1), 'recording.ogg', {}));
  expect(ogg.status).toBe(400);
  expect((await ogg.json()).error).toMatch(/failed to read WAV/);
});

test('refusals a real server makes, each recorded with its reason', async () => {
  const broken = oggOpus(1);
  broken[broken.length - 1]! ^= 0xff; // the last page's CRC no longer matches
  const cases: [Promise<Response>, RegExp][] = [
    [transcribe(broken, 'a.ogg'), /wrong CRC/],
    [transcribe(webmOpus(1, { codec: 'A_VORBIS' }), 'a.webm'), /not A_OPUS/],
    [transcribe(Buffer.from('ID3\x03 an mp3 pretending'), 'a.ogg'), /not an Ogg, WebM or WAV/],
    [transcribe(oggOpus(1), 'a.ogg', { language: 'en' }), /model parameter/],
    [transcribe(oggOpus(1), 'audio', { model: 'whisper-1' }), /does not end in ogg/],
    [transcribe(webmOpus(1), 'a.ogg'), /does not end in webm/],
    [transcribe(undefined, 'a.ogg'), /no file part/],
    [transcribe(oggOpus(0.02), 'a.ogg'), /too short/],
    [post('/v1/audio/transcriptions', JSON.stringify({ model: 'whisper-1' }), { 'content-type': 'application/json' }), /not multipart/],
  ];
  for (const [reply] of cases) expect((await reply).status).toBe(400);
  expect(server.uploads).toHaveLength(cases.length);
  cases.forEach(([, reason], i) => expect(server.uploads[i]!.problems.join(' ')).toMatch(reason));
  const body = await (await transcribe(broken, 'a.ogg')).json();
  expect(body.error.message).toMatch(/^Invalid file format\. Supported formats:/);
});

test('the model rule: another model is refused', async () => {
  server.setTranscriptionRules({ model: 'whisper-large-v3-turbo' });
  expect((await transcribe(oggOpus(1), 'a.ogg', { model: 'whisper-1' })).status).toBe(400);
  expect((await transcribe(oggOpus(1), 'a.ogg', { model: 'whisper-large-v3-turbo' })).status).toBe(200);
});

test('scripted faults: 401, 413, 415, 500, an empty transcript, broken and foreign JSON, a dropped connection, a hang', async () => {
  server.scriptTranscription({ fault: 'unauthorized' }, { fault: 'too_large' }, { fault: 'unsupported_format' }, { fault: 'server_error' }, { text: '' }, { fault: 'malformed_json' }, { fault: 'wrong_shape' });
  const statuses: number[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < 7; i++) {
    const reply = await transcribe(oggOpus(1), 'a.ogg');
    statuses.push(reply.status);
    bodies.push(await reply.text());
  }
  expect(statuses).toEqual([401, 413, 415, 500, 200, 200, 200]);
  expect(JSON.parse(bodies[0]!).error.message).toMatch(/API key/);
  expect(JSON.parse(bodies[4]!)).toEqual({ text: '' });
  expect(() => JSON.parse(bodies[5]!)).toThrow();
  expect(JSON.parse(bodies[6]!).text).toBeUndefined();

  server.scriptTranscription({ fault: 'refused' });
  await expect(transcribe(oggOpus(1), 'a.ogg')).rejects.toThrow(/fetch failed/);

  server.scriptTranscription({ fault: 'hang' });
  const started = Date.now();
  await expect(fetch(`${server.url}/v1/audio/transcriptions`, { method: 'POST', body: form(oggOpus(1), 'a.ogg', { model: 'm' }), signal: AbortSignal.timeout(300) })).rejects.toThrow();
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(server.uploads).toHaveLength(9);
});

test('a reply computed from the upload, and the text and verbose_json formats', async () => {
  server.setTranscriptionFallback((upload) => ({ text: `${upload.container!.container} ${upload.container!.durationSec.toFixed(1)}s` }));
  expect(await (await transcribe(webmOpus(2), 'a.webm', { model: 'm', response_format: 'text' })).text()).toBe('webm 2.0s');
  const verbose = await (await transcribe(oggOpus(1), 'a.ogg', { model: 'm', response_format: 'verbose_json', language: 'de' })).json();
  expect(verbose).toMatchObject({ task: 'transcribe', language: 'de', text: 'ogg 1.0s' });
  expect(verbose.duration).toBeCloseTo(1, 3);
});

test('with an API key: the OpenAI-style endpoint wants it as a Bearer token', async () => {
  const keyed = await startLlmServer({ apiKey: 'sk-voice', lifetimeMs: 20_000 });
  try {
    keyed.scriptTranscription({ text: 'first' }, { text: 'second' });
    const url = `${keyed.url}/v1/audio/transcriptions`;
    const without = await fetch(url, { method: 'POST', body: form(oggOpus(1), 'a.ogg', { model: 'm' }) });
    const wrong = await fetch(url, { method: 'POST', body: form(oggOpus(1), 'a.ogg', { model: 'm' }), headers: { authorization: 'Bearer sk-other' } });
    const right = await fetch(url, { method: 'POST', body: form(oggOpus(1), 'a.ogg', { model: 'm' }), headers: { authorization: 'Bearer sk-voice' } });
    expect([without.status, wrong.status, right.status]).toEqual([401, 401, 200]);
    expect(await right.json()).toEqual({ text: 'first' });
    expect(keyed.uploads.map((u) => u.headers.authorization)).toEqual([undefined, 'Bearer sk-other', 'Bearer sk-voice']);
  } finally {
    await keyed.close();
  }
});
