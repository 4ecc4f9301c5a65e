/**
 * 16-bit PCM WAV: the format whisper.cpp's server reads (16 kHz mono). Pure: samples in, file
 * bytes out; the browser's OfflineAudioContext does the decoding and resampling before this.
 */

/** The rate and channel count whisper.cpp expects. */
export const WHISPER_RATE = 16_000;

const HEADER_BYTES = 44;

/** Mono float samples (-1…1, clipped) as a 16-bit PCM RIFF/WAVE file. */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(HEADER_BYTES + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) bytes[at + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, bytes.length - 8, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(HEADER_BYTES + i * 2, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
  }
  return bytes;
}

/** Frames needed to hold `frames` at `fromRate` once resampled to `toRate` (none lost at the end). */
export function resampledLength(frames: number, fromRate: number, toRate: number): number {
  return Math.max(1, Math.ceil((frames * toRate) / fromRate));
}
