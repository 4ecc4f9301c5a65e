/**
 * One transcription: converts the audio when the provider wants WAV, posts it, and reads the
 * transcript, turning every failure into a TranscriptionError with its own code.
 */
import { z } from 'zod';
import type { VoiceSettings } from '../../shared/voice';
import { Deadline } from '../llm/deadline';
import { isAbortError, isNetworkError } from '../llm/errors';
import { badResponse, fromStatus, timedOut, TranscriptionError, unreachable } from './errors';
import { needsWav, transcriptionRequest, type AudioFile } from './request';

export interface TranscribeDeps {
  fetch: typeof fetch;
  /** The audio as 16 kHz mono 16-bit WAV (the browser decodes and resamples it). */
  toWav(audio: AudioFile): Promise<Uint8Array<ArrayBuffer>>;
  /** How long the server may take. */
  timeoutMs: number;
}

const TranscriptSchema = z.object({ text: z.string() });
/** How much of a server's error body is read and quoted. */
const MAX_SAID = 300;

/** The server's own words from an error body: an OpenAI-style `{error: {message}}`, whisper.cpp's `{error}`, or the text. */
function saidIn(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: unknown }).error;
    const message = typeof error === 'string' ? error : (error as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') return message.trim().slice(0, MAX_SAID);
  } catch {
    // not JSON: the text itself
  }
  return body.trim().slice(0, MAX_SAID);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The transcript the server heard ('' when it heard nothing), trimmed. */
export async function transcribeAudio(voice: VoiceSettings, apiKey: string, recorded: AudioFile, deps: TranscribeDeps, signal?: AbortSignal): Promise<string> {
  const ctx = { provider: voice.provider, baseUrl: voice.baseUrl, mimeType: recorded.mimeType };
  const audio: AudioFile = needsWav(voice.provider, recorded.mimeType) ? { bytes: await deps.toWav(recorded), mimeType: 'audio/wav' } : recorded;
  const { url, init } = transcriptionRequest(voice, audio, apiKey);
  const deadline = new Deadline(signal ?? new AbortController().signal, deps.timeoutMs);
  try {
    const response = await deps.fetch(url, { ...init, signal: deadline.signal });
    const body = await response.text();
    if (!response.ok) throw fromStatus(response.status, saidIn(body), ctx);
    const parsed = TranscriptSchema.safeParse(parseJson(body));
    if (!parsed.success) throw badResponse(ctx);
    return parsed.data.text.trim();
  } catch (error) {
    if (error instanceof TranscriptionError) throw error;
    if (deadline.timedOut) throw timedOut(deps.timeoutMs);
    if (isAbortError(error) || signal?.aborted) throw error;
    if (isNetworkError(error)) throw unreachable(ctx);
    throw error;
  } finally {
    deadline.dispose();
  }
}
