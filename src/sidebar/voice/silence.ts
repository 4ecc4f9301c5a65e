/**
 * Decides when the user has stopped talking, from the microphone's level: the RMS of each
 * frame of samples an AnalyserNode gives. It never stops before speech was heard (a user who
 * gathers their thoughts first is not cut off), and after speech it stops once the level has
 * stayed below the threshold for `silenceMs`.
 */
export interface SilenceOptions {
  /** RMS (of samples in -1…1) at or above which a frame counts as speech. */
  threshold?: number;
  /** Trailing quiet that ends the recording; 0 never stops. */
  silenceMs: number;
  /** Loud time needed before it counts as speech (a click or a cough is not). */
  minSpeechMs?: number;
}

/** A frame's root mean square level. */
export function rms(samples: ArrayLike<number>): number {
  if (!samples.length) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / samples.length);
}

export class SilenceDetector {
  private readonly threshold: number;
  private readonly minSpeechMs: number;
  private loudMs = 0;
  private lastAt: number | undefined;
  private quietSince: number | undefined;

  constructor(private readonly options: SilenceOptions) {
    this.threshold = options.threshold ?? 0.02;
    this.minSpeechMs = options.minSpeechMs ?? 200;
  }

  get heardSpeech(): boolean {
    return this.loudMs >= this.minSpeechMs;
  }

  /** Takes a frame's samples seen at `atMs`; true when the recording should stop now. */
  push(samples: ArrayLike<number>, atMs: number): boolean {
    return this.pushLevel(rms(samples), atMs);
  }

  /** The same with the frame's level already measured. */
  pushLevel(level: number, atMs: number): boolean {
    const elapsed = this.lastAt === undefined ? 0 : Math.max(0, atMs - this.lastAt);
    this.lastAt = atMs;
    if (level >= this.threshold) {
      this.loudMs += elapsed;
      this.quietSince = undefined;
      return false;
    }
    this.quietSince ??= atMs;
    return this.options.silenceMs > 0 && this.heardSpeech && atMs - this.quietSince >= this.options.silenceMs;
  }
}
