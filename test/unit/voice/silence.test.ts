/** Silence detection on synthetic frames: speech then quiet stops; quiet alone never does. */
import { rms, SilenceDetector } from '../../../src/sidebar/voice/silence';

const FRAME_MS = 50;
/** A 440 Hz tone frame of 2048 samples at 48 kHz with this peak amplitude. */
function tone(amplitude: number): Float32Array {
  return Float32Array.from({ length: 2048 }, (_, i) => amplitude * Math.sin((2 * Math.PI * 440 * i) / 48_000));
}
const SPEECH = tone(0.3);
const QUIET = tone(0.003);

/** Feeds frames every 50 ms and gives the time (ms) at which the detector said stop, if it did. */
function feed(detector: SilenceDetector, frames: Float32Array[], from = 0): number | undefined {
  for (let i = 0; i < frames.length; i++) {
    const at = from + i * FRAME_MS;
    if (detector.push(frames[i]!, at)) return at;
  }
  return undefined;
}
const repeat = (frame: Float32Array, ms: number) => Array.from({ length: ms / FRAME_MS }, () => frame);

test('rms of a sine is its amplitude over √2, of silence 0', () => {
  expect(rms(tone(0.5))).toBeCloseTo(0.5 / Math.SQRT2, 2);
  expect(rms(new Float32Array(128))).toBe(0);
  expect(rms([])).toBe(0);
});

test('after a second of speech, 2 s of quiet stops the recording, not a frame earlier', () => {
  const detector = new SilenceDetector({ silenceMs: 2000 });
  const stoppedAt = feed(detector, [...repeat(SPEECH, 1000), ...repeat(QUIET, 4000)]);
  // Quiet starts at 1000 ms: the stop comes at 3000 ms.
  expect(stoppedAt).toBe(3000);
});

test('quiet before anyone spoke never stops it, however long', () => {
  const detector = new SilenceDetector({ silenceMs: 1000 });
  expect(feed(detector, repeat(QUIET, 20_000))).toBeUndefined();
  expect(detector.heardSpeech).toBe(false);
  // Then speech, then quiet: now it stops.
  expect(feed(detector, [...repeat(SPEECH, 500), ...repeat(QUIET, 2000)], 20_000)).toBe(21_500);
});

test('a pause shorter than the limit does not stop it; the quiet is counted from the last speech', () => {
  const detector = new SilenceDetector({ silenceMs: 1500 });
  const frames = [...repeat(SPEECH, 500), ...repeat(QUIET, 1000), ...repeat(SPEECH, 500), ...repeat(QUIET, 3000)];
  expect(feed(detector, frames)).toBe(2000 + 1500);
});

test('a single loud click is not speech', () => {
  const detector = new SilenceDetector({ silenceMs: 500, minSpeechMs: 200 });
  expect(feed(detector, [QUIET, SPEECH, ...repeat(QUIET, 3000)])).toBeUndefined();
  expect(detector.heardSpeech).toBe(false);
});

test('silenceMs 0 never stops', () => {
  const detector = new SilenceDetector({ silenceMs: 0 });
  expect(feed(detector, [...repeat(SPEECH, 1000), ...repeat(QUIET, 30_000)])).toBeUndefined();
  expect(detector.heardSpeech).toBe(true);
});

test('the threshold decides what is speech', () => {
  const strict = new SilenceDetector({ silenceMs: 500, threshold: 0.5 });
  expect(feed(strict, [...repeat(SPEECH, 1000), ...repeat(QUIET, 2000)])).toBeUndefined();
  const lenient = new SilenceDetector({ silenceMs: 500, threshold: 0.001 });
  // QUIET (rms ≈ 0.002) is loud enough to count as speech here: nothing ever goes quiet.
  expect(feed(lenient, [...repeat(SPEECH, 1000), ...repeat(QUIET, 2000)])).toBeUndefined();
});
