/**
 * The scripted server's transcription endpoints: OpenAI-style `POST /v1/audio/transcriptions`
 * (as OpenAI, Groq, speaches and faster-whisper servers speak it) and whisper.cpp's
 * `POST /inference`. Each upload is parsed from its multipart body and checked the way a real
 * server would refuse it (the model field, a file whose name and container agree, a valid
 * Ogg/WebM Opus or WAV container, a plausible duration), recorded for assertions, and answered
 * with a scripted transcript or fault.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseAudioContainer, type ContainerFacts } from './audio-containers';
import { boundaryOf, parseMultipart } from './multipart';
import { openAiError, sendJson } from './openai-wire';
import { sleep } from './types';

export type TranscriptionApi = 'openai' | 'whisper-cpp';

export type TranscriptionFault =
  | 'unauthorized'
  /** 413, as a server refusing a file over its size limit. */
  | 'too_large'
  /** 415, as a server that cannot take this kind of audio. */
  | 'unsupported_format'
  | 'server_error'
  /** Never answers; close() ends the socket. */
  | 'hang'
  /** Drops the connection without a reply, as a server that went away does. */
  | 'refused'
  /** A 200 whose body is cut-off JSON. */
  | 'malformed_json'
  /** A 200 with JSON of another shape (no `text`). */
  | 'wrong_shape';

export interface ScriptedTranscription {
  /** The transcript ('' for a server that heard nothing). */
  text?: string;
  fault?: TranscriptionFault;
  delayMs?: number;
}

export interface RecordedUpload {
  api: TranscriptionApi;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The text fields of the form (model, language, response_format…). */
  fields: Record<string, string>;
  file?: { filename?: string; contentType?: string; bytes: Buffer };
  /** What the file's container says, when it parsed. */
  container?: ContainerFacts;
  /** Why the server refused the upload (empty: accepted). */
  problems: string[];
  at: number;
}

export type TranscriptionScript = ScriptedTranscription | ((upload: RecordedUpload) => ScriptedTranscription | Promise<ScriptedTranscription>);

export interface TranscriptionRules {
  /** The only model the OpenAI-style endpoint knows (any non-empty model when unset). */
  model?: string;
  /** The file must be 16 kHz mono 16-bit PCM WAV (as a whisper.cpp server without conversion wants). */
  wav16kMono?: boolean;
  /** Longest accepted recording, in seconds (default 600). */
  maxDurationSec?: number;
}

export const TRANSCRIPTION_PATHS: Record<string, TranscriptionApi> = { '/v1/audio/transcriptions': 'openai', '/inference': 'whisper-cpp' };

/** File name endings a server accepts for each container, as OpenAI decides the format by the name. */
const EXTENSIONS: Record<ContainerFacts['container'], readonly string[]> = { ogg: ['ogg', 'oga', 'opus'], webm: ['webm'], wav: ['wav'] };
const OPENAI_FORMATS = "['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']";

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads and checks one upload: the problems list says what a real server would refuse. */
function inspect(api: TranscriptionApi, req: IncomingMessage, path: string, body: Buffer, rules: TranscriptionRules): RecordedUpload {
  const upload: RecordedUpload = { api, path, headers: { ...req.headers }, fields: {}, problems: [], at: Date.now() };
  const boundary = boundaryOf(req.headers['content-type']);
  if (!boundary) {
    upload.problems.push(`the body is not multipart/form-data (content-type ${req.headers['content-type'] ?? 'none'})`);
    return upload;
  }
  try {
    for (const part of parseMultipart(body, boundary)) {
      if (part.name === 'file' && part.filename !== undefined) upload.file = { filename: part.filename, contentType: part.contentType, bytes: part.data };
      else upload.fields[part.name] = part.data.toString('utf8');
    }
  } catch (error) {
    upload.problems.push(String((error as Error).message));
    return upload;
  }
  if (api === 'openai' && !upload.fields.model) upload.problems.push('you must provide a model parameter');
  if (api === 'openai' && upload.fields.model && rules.model && upload.fields.model !== rules.model) upload.problems.push(`model ${upload.fields.model} does not exist`);
  if (!upload.file) {
    upload.problems.push('no file part with a filename');
    return upload;
  }
  const parsed = parseAudioContainer(upload.file.bytes);
  if (!parsed.ok) {
    upload.problems.push(`Invalid file format: ${parsed.problem}`);
    return upload;
  }
  const facts = (upload.container = parsed.facts);
  const extension = /\.([a-z0-9]{1,5})$/i.exec(upload.file.filename ?? '')?.[1]?.toLowerCase();
  if (api === 'openai' && !EXTENSIONS[facts.container].includes(extension ?? '')) upload.problems.push(`Invalid file format: the name "${upload.file.filename}" does not end in ${EXTENSIONS[facts.container].join(' or ')}`);
  if (api === 'whisper-cpp' && facts.container !== 'wav') upload.problems.push('failed to read WAV file');
  if (rules.wav16kMono && (facts.container !== 'wav' || facts.sampleRate !== 16_000 || facts.channels !== 1 || facts.bitsPerSample !== 16)) upload.problems.push('WAV file must be 16 kHz mono 16-bit PCM');
  if (!(facts.durationSec > 0.05)) upload.problems.push(`Audio file is too short (${facts.durationSec.toFixed(3)} s)`);
  if (facts.durationSec > (rules.maxDurationSec ?? 600)) upload.problems.push(`Audio file is too long (${facts.durationSec.toFixed(1)} s)`);
  return upload;
}

function fail(res: ServerResponse, api: TranscriptionApi, status: number, message: string, type = 'invalid_request_error'): void {
  if (api === 'openai') openAiError(res, status, message, type, null);
  else sendJson(res, status, { error: message });
}

function answer(res: ServerResponse, upload: RecordedUpload, text: string): void {
  const format = upload.fields.response_format ?? 'json';
  if (format === 'text') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'access-control-allow-origin': '*' });
    res.end(text);
    return;
  }
  const duration = upload.container?.durationSec ?? 0;
  if (format === 'verbose_json') return sendJson(res, 200, { task: 'transcribe', language: upload.fields.language || 'english', duration, text, segments: [{ id: 0, start: 0, end: duration, text }] });
  sendJson(res, 200, { text });
}

const FAULTS: Record<Exclude<TranscriptionFault, 'hang' | 'refused' | 'malformed_json' | 'wrong_shape'>, [number, string, string]> = {
  unauthorized: [401, 'Incorrect API key provided: sk-***.', 'invalid_request_error'],
  too_large: [413, 'Maximum content size limit (26214400) exceeded.', 'invalid_request_error'],
  unsupported_format: [415, 'Unsupported Media Type', 'invalid_request_error'],
  server_error: [500, 'The server had an error while processing your request.', 'server_error'],
};

export interface TranscriptionEndpoints {
  uploads: RecordedUpload[];
  script(...replies: TranscriptionScript[]): void;
  setFallback(reply: TranscriptionScript): void;
  setRules(rules: TranscriptionRules): void;
  reset(): void;
  handle(api: TranscriptionApi, path: string, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function transcriptionEndpoints(options: { apiKey?: string } = {}): TranscriptionEndpoints {
  const uploads: RecordedUpload[] = [];
  let queue: TranscriptionScript[] = [];
  let fallback: TranscriptionScript = { text: 'OK' };
  let rules: TranscriptionRules = {};

  const handle = async (api: TranscriptionApi, path: string, req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const upload = inspect(api, req, path, body, rules);
    uploads.push(upload);
    if (api === 'openai' && options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return fail(res, api, ...FAULTS.unauthorized);
    if (upload.problems.length) {
      const message = upload.problems[0]!.startsWith('Invalid file format') && api === 'openai' ? `Invalid file format. Supported formats: ${OPENAI_FORMATS}` : upload.problems.join('; ');
      return fail(res, api, 400, message);
    }
    const script = queue.shift() ?? fallback;
    const reply = typeof script === 'function' ? await script(upload) : script;
    if (reply.delayMs) await sleep(reply.delayMs);
    switch (reply.fault) {
      case undefined:
        return answer(res, upload, reply.text ?? '');
      case 'hang':
        return;
      case 'refused':
        req.socket.destroy();
        return;
      case 'malformed_json':
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end('{"text": "Hel');
        return;
      case 'wrong_shape':
        return sendJson(res, 200, { results: [{ transcript: reply.text ?? 'OK' }] });
      default:
        return fail(res, api, ...FAULTS[reply.fault]);
    }
  };

  return {
    uploads,
    script: (...replies) => void queue.push(...replies),
    setFallback: (reply) => void (fallback = reply),
    setRules: (next) => void (rules = next),
    reset: () => {
      uploads.length = 0;
      queue = [];
      fallback = { text: 'OK' };
      rules = {};
    },
    handle,
  };
}
