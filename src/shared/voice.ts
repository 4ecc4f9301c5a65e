/**
 * Voice commands: the transcription providers the user can choose, their presets, and the
 * settings. Audio goes only to the transcription server configured here.
 */
import { z } from 'zod';

/**
 * `openai`, `groq`, `openai-compatible`: an OpenAI-style `/v1/audio/transcriptions` endpoint
 * (speaches and faster-whisper servers are `openai-compatible`); `whisper-cpp`: a whisper.cpp
 * server's `/inference`; `browser`: the browser's own `SpeechRecognition`, where it has one.
 */
export const VoiceProviderKindSchema = z.enum(['openai', 'groq', 'openai-compatible', 'whisper-cpp', 'browser']);
export type VoiceProviderKind = z.infer<typeof VoiceProviderKindSchema>;

export const VOICE_PRESETS: Record<VoiceProviderKind, { baseUrl: string; model: string; needsKey: boolean }> = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', needsKey: true },
  groq: { baseUrl: 'https://api.groq.com/openai/v1', model: 'whisper-large-v3-turbo', needsKey: true },
  'openai-compatible': { baseUrl: 'http://127.0.0.1:8000/v1', model: 'Systran/faster-whisper-small', needsKey: false },
  'whisper-cpp': { baseUrl: 'http://127.0.0.1:8080', model: '', needsKey: false },
  browser: { baseUrl: 'http://127.0.0.1', model: '', needsKey: false },
};

export const VoiceSettingsSchema = z.object({
  provider: VoiceProviderKindSchema.default('openai-compatible'),
  baseUrl: z.string().url().default(VOICE_PRESETS['openai-compatible'].baseUrl),
  apiKey: z.string().default(''),
  /** The base URL the key was saved for; the background sends the key nowhere else (as for the model key). */
  keyFor: z.string().optional(),
  model: z.string().max(300).default(VOICE_PRESETS['openai-compatible'].model),
  /** ISO 639-1 code (`en`, `de`), or '' to let the server detect it. */
  language: z.string().max(10).default(''),
  /** Send the transcript as a message as soon as the user stops talking. */
  sendOnStop: z.boolean().default(true),
  /** Read final answers aloud (speechSynthesis). */
  spokenReplies: z.boolean().default(false),
  /** A recording stops by itself after this many seconds. */
  maxSeconds: z.number().int().min(5).max(300).default(60),
  /** …and after this many seconds of trailing silence (0: never). */
  silenceSeconds: z.number().min(0).max(10).default(2),
});
export type VoiceSettings = z.infer<typeof VoiceSettingsSchema>;

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = VoiceSettingsSchema.parse({});

/** Why a transcription failed: each has its own message, and the recording is kept with Retry. */
export const TranscriptionErrorCodeSchema = z.enum([
  'voice_not_configured',
  'voice_unreachable',
  'voice_unauthorized',
  'voice_too_long',
  'voice_unsupported_format',
  'voice_empty',
  'voice_bad_response',
  'voice_timeout',
]);
export type TranscriptionErrorCode = z.infer<typeof TranscriptionErrorCodeSchema>;

/** A recording as the sidebar sends it to the background: base64 audio, at most about 20 MB. */
export const RecordingSchema = z.object({
  audio: z.string().min(1).max(28_000_000),
  mimeType: z.string().max(100),
  durationMs: z.number().min(0).max(600_000),
});
export type Recording = z.infer<typeof RecordingSchema>;
