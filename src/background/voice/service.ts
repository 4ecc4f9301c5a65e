/**
 * The background's VoiceControl: transcribes recordings with the saved transcription settings,
 * and runs the options page's Test with the settings in its form. Keys follow the same rule as
 * the model key: sent only to the base URL they were saved for.
 */
import { keyBoundTo, sameBaseUrl } from '../../shared/settings';
import type { Recording, VoiceSettings } from '../../shared/voice';
import { transcribeAudio, type TranscribeDeps } from './client';
import type { VoiceControl } from './control';
import { emptyTranscript, unsupportedFormat } from './errors';
import { encodeWav, WHISPER_RATE } from './wav';

export interface VoiceServiceDeps extends Omit<TranscribeDeps, 'timeoutMs'> {
  /** The saved transcription settings (with the key: the background owns it). */
  settings(): Promise<VoiceSettings>;
  /** How long the server may take for a recording of this length (default: 30 s plus three times its length, at most 2 min). */
  timeoutMs?(durationMs: number): number;
  now?(): number;
}

const defaultTimeout = (durationMs: number) => Math.min(120_000, 30_000 + 3 * durationMs);

/** The saved key, when it was saved for the base URL these settings name; '' otherwise. */
function boundKey(voice: VoiceSettings): string {
  return voice.apiKey && sameBaseUrl(keyBoundTo(voice), voice.baseUrl) ? voice.apiKey : '';
}

function decodeBase64(audio: string, mimeType: string): Uint8Array<ArrayBuffer> {
  try {
    return Uint8Array.from(atob(audio), (c) => c.charCodeAt(0));
  } catch {
    throw unsupportedFormat(mimeType);
  }
}

/** The Test's sound: a second of a soft falling tone, as 16 kHz mono WAV (every provider reads WAV). */
export function testClip(): Uint8Array<ArrayBuffer> {
  const samples = new Float32Array(WHISPER_RATE);
  for (let i = 0; i < samples.length; i++) samples[i] = 0.2 * Math.sin((2 * Math.PI * (440 - (220 * i) / samples.length) * i) / WHISPER_RATE) * (1 - i / samples.length);
  return encodeWav(samples, WHISPER_RATE);
}

export function createVoiceService(deps: VoiceServiceDeps): VoiceControl {
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? defaultTimeout;
  return {
    async transcribe(recording: Recording, signal?: AbortSignal) {
      const voice = await deps.settings();
      const audio = { bytes: decodeBase64(recording.audio, recording.mimeType), mimeType: recording.mimeType };
      const text = await transcribeAudio(voice, boundKey(voice), audio, { ...deps, timeoutMs: timeoutMs(recording.durationMs) }, signal);
      if (!text) throw emptyTranscript();
      return { text };
    },
    async test(voice: VoiceSettings) {
      // A key typed into the form goes to the address beside it; the saved key only to the server it was saved for.
      const saved = await deps.settings();
      const key = !voice.apiKey ? '' : voice.apiKey !== saved.apiKey ? voice.apiKey : boundKey({ ...saved, baseUrl: voice.baseUrl });
      const started = now();
      const text = await transcribeAudio(voice, key, { bytes: testClip(), mimeType: 'audio/wav' }, { ...deps, timeoutMs: timeoutMs(1000) });
      return { text, ms: Math.round(now() - started) };
    },
  };
}
