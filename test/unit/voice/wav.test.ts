/** The PCM16 WAV encoder and the resampled length, read back by the scripted server's own WAV parser. */
import { encodeWav, resampledLength, WHISPER_RATE } from '../../../src/background/voice/wav';
import { testClip } from '../../../src/background/voice/service';
import { parseAudioContainer } from '../../support/llm-server/audio-containers';

test('a 16 kHz mono file: RIFF/WAVE header, PCM fmt chunk, and the samples as little-endian 16-bit', () => {
  const bytes = Buffer.from(encodeWav(Float32Array.from([0, 0.5, -0.5, 1, -1]), WHISPER_RATE));
  expect(bytes.length).toBe(44 + 10);
  expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
  expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
  expect(bytes.toString('latin1', 8, 16)).toBe('WAVEfmt ');
  expect([bytes.readUInt16LE(20), bytes.readUInt16LE(22), bytes.readUInt32LE(24), bytes.readUInt32LE(28), bytes.readUInt16LE(32), bytes.readUInt16LE(34)]).toEqual([1, 1, 16_000, 32_000, 2, 16]);
  expect(bytes.toString('latin1', 36, 40)).toBe('data');
  expect(bytes.readUInt32LE(40)).toBe(10);
  expect([0, 1, 2, 3, 4].map((i) => bytes.readInt16LE(44 + 2 * i))).toEqual([0, 16_384, -16_384, 32_767, -32_768]);
});

test('samples beyond full scale are clipped, not wrapped', () => {
  const bytes = Buffer.from(encodeWav(Float32Array.from([1.7, -3, 0.25]), 8000));
  expect([bytes.readInt16LE(44), bytes.readInt16LE(46), bytes.readInt16LE(48)]).toEqual([32_767, -32_768, 8192]);
});

test('a second at 16 kHz parses as one second of 16 kHz mono 16-bit PCM', () => {
  const parsed = parseAudioContainer(Buffer.from(encodeWav(new Float32Array(16_000), WHISPER_RATE)));
  expect(parsed).toEqual({ ok: true, facts: { container: 'wav', codec: 'pcm', sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataBytes: 32_000, durationSec: 1 } });
});

test('the resampled length keeps the whole duration, rounding up, and never reaches zero', () => {
  expect(resampledLength(48_000, 48_000, 16_000)).toBe(16_000);
  expect(resampledLength(22_050 * 3, 22_050, 16_000)).toBe(48_000);
  expect(resampledLength(44_101, 44_100, 16_000)).toBe(16_001); // a fraction of a frame left over is kept
  expect(resampledLength(1, 48_000, 16_000)).toBe(1);
  expect(resampledLength(0, 48_000, 16_000)).toBe(1);
  expect(resampledLength(8000, 8000, 16_000)).toBe(16_000); // upsampling doubles
});

test("the options page's test sound: one second of audible, clipped-free 16 kHz WAV", () => {
  const clip = Buffer.from(testClip());
  expect(parseAudioContainer(clip)).toMatchObject({ ok: true, facts: { sampleRate: 16_000, channels: 1, durationSec: 1 } });
  const samples = Array.from({ length: 16_000 }, (_, i) => clip.readInt16LE(44 + 2 * i));
  const peak = Math.max(...samples.map(Math.abs));
  expect(peak).toBeGreaterThan(3000);
  expect(peak).toBeLessThan(32_767);
});
