/**
 * Runs voice input: asks for the microphone, records, transcribes, and hands the transcript on.
 * Each step reports to the pure state machine (`machine.ts`); what the browser does is passed in,
 * so the whole flow is testable without a microphone.
 */
import type { Recording, VoiceSettings } from '../../shared/voice';
import type { CaptureOptions } from './capture';
import { IDLE, isCapturing, nextState, type RecorderEvent, type RecorderState, type VoiceFault } from './machine';
import { RecognitionError, type RecognitionSession } from './browser-recognition';
import type { MicAccess, MicFaultCode } from './microphone';
import { SilentRecordingError } from './ogg-length';

/** A press held at least this long is hold-to-talk (release stops); a shorter one is a click (toggle). */
export const HOLD_MS = 350;

export interface ActiveCapture {
  stop(): Promise<Recording>;
  cancel(): void;
}

export interface VoiceControllerDeps {
  settings(): Promise<VoiceSettings>;
  /** The Opus container this browser records, if any. */
  recordingType(): string | undefined;
  acquire(): Promise<MicAccess>;
  capture(stream: MediaStream, options: CaptureOptions): ActiveCapture;
  /**
   * The `browser` provider: starts the browser's own recognition in `lang`, or undefined where
   * the browser has none. `onEnded`: the browser stopped listening by itself.
   */
  recognize(lang: string, onEnded: () => void): RecognitionSession | undefined;
  transcribe(recording: Recording): Promise<string>;
  /** A failed transcription's words (its code, message and hint from the background). */
  transcriptionFault(error: unknown): VoiceFault;
  micFault(code: MicFaultCode): VoiceFault;
  deliver(transcript: string, settings: VoiceSettings): Promise<void>;
  /** New input: spoken replies stop. */
  beforeInput(): void;
  onChange(state: RecorderState): void;
  onLevel(level: number): void;
  now(): number;
}

export class VoiceController {
  private current: RecorderState = IDLE;
  private capture: ActiveCapture | undefined;
  private recognition: RecognitionSession | undefined;
  private settings: VoiceSettings | undefined;
  /** When the pointer or key went down to start a recording (hold-to-talk), or that it went down to stop one. */
  private press: { at: number; stops: boolean } | undefined;

  constructor(private readonly deps: VoiceControllerDeps) {}

  get state(): RecorderState {
    return this.current;
  }

  /** Read after an await: another call may have moved the state meanwhile (a method, so the compiler does not assume it did not). */
  private isIn(kind: RecorderState['kind']): boolean {
    return this.current.kind === kind;
  }

  private move(event: RecorderEvent): void {
    const next = nextState(this.current, event);
    if (next === this.current) return;
    this.current = next;
    this.deps.onChange(next);
  }

  /** The button or the key went down. */
  pressed(): void {
    const stops = isCapturing(this.current);
    this.press = { at: this.deps.now(), stops };
    if (!stops) void this.start();
  }

  /** …and came up: a hold ends its recording; a click leaves it running until the next click. */
  released(): void {
    const press = this.press;
    this.press = undefined;
    if (!press) return;
    if (press.stops) void this.stop();
    else if (this.deps.now() - press.at >= HOLD_MS) {
      if (this.current.kind === 'requesting') this.cancel();
      else void this.stop();
    }
  }

  /** The global shortcut, or a click without a pointer (keyboard on the button). */
  toggle(): void {
    if (isCapturing(this.current)) void this.stop();
    else void this.start();
  }

  async start(): Promise<void> {
    this.move({ type: 'start' });
    if (this.current.kind !== 'requesting') return;
    this.deps.beforeInput();
    const settings = await this.deps.settings();
    this.settings = settings;
    if (!this.isIn('requesting')) return;
    if (settings.provider === 'browser') return this.startRecognition(settings);
    const mimeType = this.deps.recordingType();
    if (!mimeType) return this.move({ type: 'failed', fault: this.deps.micFault('recorder_unsupported') });
    const access: MicAccess = await this.deps.acquire().catch(() => ({ fault: 'mic_failed' as const }));
    if (!this.isIn('requesting')) {
      // Cancelled while the browser was asked: the microphone goes straight off again.
      if ('stream' in access) access.stream.getTracks().forEach((track) => track.stop());
      return;
    }
    if ('fault' in access) return this.move({ type: 'failed', fault: this.deps.micFault(access.fault) });
    try {
      this.capture = this.deps.capture(access.stream, {
        mimeType,
        maxSeconds: settings.maxSeconds,
        silenceSeconds: settings.silenceSeconds,
        onLevel: (level) => this.deps.onLevel(level),
        onAutoStop: () => void this.stop(),
      });
    } catch {
      access.stream.getTracks().forEach((track) => track.stop());
      return this.move({ type: 'failed', fault: this.deps.micFault('recorder_unsupported') });
    }
    this.move({ type: 'granted', at: this.deps.now() });
  }

  /** The browser's own recognition listens instead of MediaRecorder: nothing is recorded or uploaded. */
  private startRecognition(settings: VoiceSettings): void {
    let session: RecognitionSession | undefined;
    try {
      session = this.deps.recognize(settings.language, () => void this.stop());
    } catch {
      return this.move({ type: 'failed', fault: this.deps.micFault('recognition_failed') });
    }
    if (!session) return this.move({ type: 'failed', fault: this.deps.micFault('recognition_unavailable') });
    this.recognition = session;
    this.move({ type: 'granted', at: this.deps.now() });
  }

  private async stopRecognition(session: RecognitionSession): Promise<void> {
    this.recognition = undefined;
    this.move({ type: 'stop' });
    let heard: string;
    try {
      heard = await session.finish();
    } catch (error) {
      return this.move({ type: 'failed', fault: this.deps.micFault(error instanceof RecognitionError ? error.code : 'recognition_failed') });
    }
    if (!this.isIn('stopping')) return; // cancelled meanwhile
    if (!heard) return this.move({ type: 'failed', fault: this.deps.micFault('recognition_empty') });
    this.move({ type: 'heard' });
    await this.deps.deliver(heard, this.settings ?? (await this.deps.settings()));
  }

  async stop(): Promise<void> {
    if (this.current.kind !== 'recording') return;
    if (this.recognition) return this.stopRecognition(this.recognition);
    if (!this.capture) return;
    const capture = this.capture;
    this.capture = undefined;
    this.move({ type: 'stop' });
    this.deps.onLevel(0);
    let recording: Recording;
    try {
      recording = await capture.stop();
    } catch (error) {
      return this.move({ type: 'failed', fault: this.deps.micFault(error instanceof SilentRecordingError ? 'mic_silent' : 'mic_failed') });
    }
    if (!this.isIn('stopping')) return; // cancelled meanwhile
    if (!recording.audio) return this.move({ type: 'failed', fault: this.deps.micFault('mic_failed') });
    this.move({ type: 'recorded', recording });
    await this.transcribe();
  }

  /** Esc: the recording is dropped and nothing is sent. */
  cancel(): void {
    if (!isCapturing(this.current)) return;
    this.capture?.cancel();
    this.capture = undefined;
    this.recognition?.abort();
    this.recognition = undefined;
    this.deps.onLevel(0);
    this.move({ type: 'cancel' });
  }

  /** Sends the kept recording again (the server is back, the key is fixed). */
  async retry(): Promise<void> {
    this.move({ type: 'retry' });
    await this.transcribe();
  }

  discard(): void {
    this.move({ type: 'discard' });
  }

  /** Shows a recording kept from before again, with Retry and Discard (only when nothing else is under way). */
  restore(kept: { fault: VoiceFault; recording: Recording }): void {
    this.move({ type: 'restore', ...kept });
  }

  private async transcribe(): Promise<void> {
    const state = this.current;
    if (state.kind !== 'transcribing') return;
    let transcript: string;
    try {
      transcript = await this.deps.transcribe(state.recording);
    } catch (error) {
      return this.move({ type: 'failed', fault: this.deps.transcriptionFault(error) });
    }
    this.move({ type: 'transcribed' });
    await this.deps.deliver(transcript, this.settings ?? (await this.deps.settings()));
  }
}
