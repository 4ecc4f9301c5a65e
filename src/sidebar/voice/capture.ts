/**
 * One recording from a microphone stream: MediaRecorder for the audio, an AnalyserNode for the
 * level meter and for silence. It stops by itself at the length limit and after trailing
 * silence; `stop()` gives the recording, `cancel()` drops it. The microphone is released either way.
 */
import type { Recording } from '../../shared/voice';
import { oggOpusSeconds, SilentRecordingError } from './ogg-length';
import { rms, SilenceDetector } from './silence';

export interface CaptureOptions {
  mimeType: string;
  maxSeconds: number;
  silenceSeconds: number;
  /** The level (RMS, 0…1) about every 50 ms, for the meter. */
  onLevel(level: number): void;
  /** The length limit or trailing silence ended it: the owner should stop it now. */
  onAutoStop(why: 'max' | 'silence'): void;
  now?: () => number;
}

const LEVEL_EVERY_MS = 50;
/**
 * Opus at 32 kbit/s carries speech well for a recogniser, at about a quarter of what Firefox
 * records by default (≈ 130 kbit/s): smaller uploads, further from a server's size limit.
 */
export const SPEECH_BITS_PER_SECOND = 32_000;

/** The audio as base64, without the data URL's prefix. */
async function toBase64(blob: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The recording could not be read.'));
    reader.readAsDataURL(blob);
  });
  return url.slice(url.indexOf(',') + 1);
}

export class Capture {
  private readonly recorder: MediaRecorder;
  private readonly chunks: Blob[] = [];
  private readonly audio: AudioContext;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private readonly startedAt: number;
  private readonly now: () => number;
  private finished = false;

  constructor(
    private readonly stream: MediaStream,
    options: CaptureOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.recorder = new MediaRecorder(stream, { mimeType: options.mimeType, audioBitsPerSecond: SPEECH_BITS_PER_SECOND });
    this.recorder.ondataavailable = (event) => {
      if (event.data.size) this.chunks.push(event.data);
    };
    this.audio = new AudioContext();
    const analyser = this.audio.createAnalyser();
    analyser.fftSize = 2048;
    this.audio.createMediaStreamSource(stream).connect(analyser);
    // Started without a click (the global shortcut), the context may wait for one: ask it to run.
    void this.audio.resume().catch(() => undefined);
    const frame = new Float32Array(analyser.fftSize);
    const silence = new SilenceDetector({ silenceMs: options.silenceSeconds * 1000 });
    this.startedAt = this.now();
    this.recorder.start(250);
    // A timer, not animation frames: the sidebar may not be painting (hidden), and it must still stop.
    this.timers.push(
      setInterval(() => {
        analyser.getFloatTimeDomainData(frame);
        const at = this.now();
        const level = rms(frame);
        if (silence.pushLevel(level, at)) options.onAutoStop('silence');
        else if (at - this.startedAt >= options.maxSeconds * 1000) options.onAutoStop('max');
        // The square root looks more like loudness on the meter.
        options.onLevel(Math.min(1, Math.sqrt(level) * 2));
      }, LEVEL_EVERY_MS),
    );
  }

  /** Ends the recording and gives it. */
  async stop(): Promise<Recording> {
    const durationMs = Math.round(this.now() - this.startedAt);
    // A recorder that already ended (the microphone went away) has its data and fires no more events.
    if (this.recorder.state !== 'inactive') {
      const stopped = new Promise<void>((resolve, reject) => {
        this.recorder.onstop = () => resolve();
        this.recorder.onerror = () => reject(new Error('The recorder failed.'));
      });
      this.recorder.stop();
      await stopped.finally(() => this.release());
    }
    this.release();
    const blob = new Blob(this.chunks, { type: this.recorder.mimeType || 'audio/ogg' });
    // An Ogg file whose pages carry no audio: the microphone delivered no samples. Sending it would only earn a
    // server's "too short" or "unsupported" reply; the user should check the microphone.
    if (blob.type.includes('ogg') && oggOpusSeconds(new Uint8Array(await blob.arrayBuffer())) === 0) throw new SilentRecordingError();
    return { audio: await toBase64(blob), mimeType: blob.type, durationMs };
  }

  /** Drops the recording; nothing is kept. */
  cancel(): void {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    this.chunks.length = 0;
    this.release();
  }

  private release(): void {
    if (this.finished) return;
    this.finished = true;
    this.timers.forEach(clearInterval);
    this.stream.getTracks().forEach((track) => track.stop());
    void this.audio.close().catch(() => undefined);
  }
}

