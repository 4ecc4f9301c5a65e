import type { Recording, VoiceSettings } from '../../shared/voice';

/** Transcription with the configured server. Failures are `TranscriptionError`s with a code of their own. */
export interface VoiceControl {
  transcribe(recording: Recording, signal?: AbortSignal): Promise<{ text: string }>;
  /** The options page's Test: a short sound sent to the server as these (unsaved) settings describe it. */
  test(voice: VoiceSettings): Promise<{ text: string; ms: number }>;
}
