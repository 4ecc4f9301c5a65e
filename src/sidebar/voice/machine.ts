/**
 * The voice recorder's states and the only moves between them, as a pure function. The
 * controller performs the effects (microphone, MediaRecorder, transcription) and reports what
 * happened as events; a move the state does not allow leaves the state as it is.
 *
 *   idle → requesting → recording → stopping → transcribing → idle
 *                  ↘ error        ↘ (cancel) idle          ↘ error, the recording kept: Retry / Discard
 */
import type { Recording } from '../../shared/voice';

/** Why voice input failed; `message`/`hint` are already in the user's words. */
export interface VoiceFault {
  code: string;
  message: string;
  hint?: string;
}

export type RecorderState =
  | { kind: 'idle' }
  | { kind: 'requesting' }
  | { kind: 'recording'; startedAt: number }
  | { kind: 'stopping' }
  | { kind: 'transcribing'; recording: Recording }
  /** `recording`: what was recorded and not yet transcribed; kept until Retry gets it through or Discard. */
  | { kind: 'error'; fault: VoiceFault; recording?: Recording };

export type RecorderEvent =
  | { type: 'start' }
  | { type: 'granted'; at: number }
  | { type: 'stop' }
  | { type: 'recorded'; recording: Recording }
  /** The browser's own recognition heard the words: there is no recording to transcribe. */
  | { type: 'heard' }
  | { type: 'cancel' }
  | { type: 'transcribed' }
  | { type: 'failed'; fault: VoiceFault }
  | { type: 'retry' }
  /** A recording kept from before (the sidebar was closed with it): shown again with Retry and Discard. */
  | { type: 'restore'; fault: VoiceFault; recording: Recording }
  | { type: 'discard' };

export const IDLE: RecorderState = { kind: 'idle' };

export function nextState(state: RecorderState, event: RecorderEvent): RecorderState {
  switch (event.type) {
    case 'start':
      // A kept recording is retried or discarded first: a new one must not push it out.
      return state.kind === 'idle' || (state.kind === 'error' && !state.recording) ? { kind: 'requesting' } : state;
    case 'granted':
      return state.kind === 'requesting' ? { kind: 'recording', startedAt: event.at } : state;
    case 'stop':
      return state.kind === 'recording' ? { kind: 'stopping' } : state;
    case 'recorded':
      return state.kind === 'stopping' ? { kind: 'transcribing', recording: event.recording } : state;
    case 'heard':
      return state.kind === 'stopping' ? IDLE : state;
    case 'cancel':
      return state.kind === 'requesting' || state.kind === 'recording' || state.kind === 'stopping' ? IDLE : state;
    case 'transcribed':
      return state.kind === 'transcribing' ? IDLE : state;
    case 'failed':
      if (state.kind === 'transcribing') return { kind: 'error', fault: event.fault, recording: state.recording };
      return state.kind === 'requesting' || state.kind === 'recording' || state.kind === 'stopping' ? { kind: 'error', fault: event.fault } : state;
    case 'retry':
      return state.kind === 'error' && state.recording ? { kind: 'transcribing', recording: state.recording } : state;
    case 'discard':
      return state.kind === 'error' ? IDLE : state;
    case 'restore':
      return state.kind === 'idle' ? { kind: 'error', fault: event.fault, recording: event.recording } : state;
  }
}

/** Whether the microphone is in use (the level meter shows, Esc cancels). */
export function isCapturing(state: RecorderState): boolean {
  return state.kind === 'requesting' || state.kind === 'recording' || state.kind === 'stopping';
}
