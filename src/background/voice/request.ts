/**
 * The transcription request each provider wants: its endpoint under the base URL, its multipart
 * fields, and whether the audio must first become 16 kHz mono WAV. Pure: settings and audio in,
 * URL and form out.
 */
import type { VoiceProviderKind, VoiceSettings } from '../../shared/voice';
import { notConfigured, unsupportedFormat } from './errors';

/** Audio as it is sent: its bytes and its MIME type (`audio/ogg;codecs=opus`, `audio/webm`, `audio/wav`). */
export interface AudioFile {
  bytes: Uint8Array<ArrayBuffer>;
  mimeType: string;
}

interface ProviderSpec {
  path: string;
  /** Sends the `model` field. */
  model: boolean;
  /** Which audio must be converted to 16 kHz mono WAV first. */
  wav: 'always' | 'wav-only';
}

const OPENAI_STYLE: ProviderSpec = { path: '/audio/transcriptions', model: true, wav: 'wav-only' };

/**
 * `browser` recognition runs in the sidebar, never here. OpenAI-style servers take Opus as it was
 * recorded; a WAV recording is sent as 16 kHz mono WAV (what Whisper models hear, and a third of
 * 48 kHz stereo). whisper.cpp's server reads 16 kHz mono WAV only.
 */
const PROVIDERS: Record<VoiceProviderKind, ProviderSpec | undefined> = {
  openai: OPENAI_STYLE,
  groq: OPENAI_STYLE,
  'openai-compatible': OPENAI_STYLE,
  'whisper-cpp': { path: '/inference', model: false, wav: 'always' },
  browser: undefined,
};

/** The file name ending servers decide the format by (OpenAI reads it from the name). */
const EXTENSIONS: Record<string, string> = { 'audio/ogg': 'ogg', 'audio/webm': 'webm', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mp4': 'm4a', 'audio/mpeg': 'mp3', 'audio/flac': 'flac' };

/** `audio/ogg;codecs=opus` → `audio/ogg`. */
export const baseType = (mimeType: string) => mimeType.split(';')[0]!.trim().toLowerCase();

export function fileNameFor(mimeType: string): string {
  const extension = Object.hasOwn(EXTENSIONS, baseType(mimeType)) ? EXTENSIONS[baseType(mimeType)] : undefined;
  if (!extension) throw unsupportedFormat(mimeType);
  return `recording.${extension}`;
}

function specOf(provider: VoiceProviderKind): ProviderSpec {
  const spec = PROVIDERS[provider];
  if (!spec) throw notConfigured();
  return spec;
}

/** Whether this provider needs the audio as 16 kHz mono WAV before sending. */
export function needsWav(provider: VoiceProviderKind, mimeType: string): boolean {
  const spec = specOf(provider);
  return spec.wav === 'always' || fileNameFor(mimeType).endsWith('.wav');
}

/** Joined as the model providers join theirs: the base URL without trailing slashes, then the path. */
export function endpointOf(voice: Pick<VoiceSettings, 'provider' | 'baseUrl'>): string {
  return `${voice.baseUrl.trim().replace(/\/+$/, '')}${specOf(voice.provider).path}`;
}

/** The request for `audio` (already converted when {@link needsWav} said so); the key only when given. */
export function transcriptionRequest(voice: VoiceSettings, audio: AudioFile, apiKey: string): { url: string; init: RequestInit } {
  const spec = specOf(voice.provider);
  const form = new FormData();
  form.append('file', new Blob([audio.bytes], { type: baseType(audio.mimeType) }), fileNameFor(audio.mimeType));
  if (spec.model) form.append('model', voice.model);
  if (voice.language.trim()) form.append('language', voice.language.trim());
  form.append('response_format', 'json');
  return { url: endpointOf(voice), init: { method: 'POST', body: form, headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} } };
}
