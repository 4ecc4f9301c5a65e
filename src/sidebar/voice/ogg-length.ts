/**
 * How much audio an Ogg Opus recording holds, read from its pages: the last granule position
 * (48 kHz samples) less the pre-skip its OpusHead declares. A recording whose pages carry no
 * audio (a microphone that delivered no samples) holds none, and is not worth sending.
 */
const OGG_PAGE_HEADER = 27;

const isCapture = (bytes: Uint8Array, at: number) => bytes[at] === 0x4f && bytes[at + 1] === 0x67 && bytes[at + 2] === 0x67 && bytes[at + 3] === 0x53;

/** Seconds of audio in an Ogg Opus file, or undefined when it is not one or cannot be read. */
export function oggOpusSeconds(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  let preSkip: number | undefined;
  let lastGranule = -1n;
  while (at + OGG_PAGE_HEADER <= bytes.length) {
    if (!isCapture(bytes, at)) return undefined;
    const segments = bytes[at + 26]!;
    const tableEnd = at + OGG_PAGE_HEADER + segments;
    if (tableEnd > bytes.length) return undefined;
    let size = 0;
    for (let i = at + OGG_PAGE_HEADER; i < tableEnd; i++) size += bytes[i]!;
    if (tableEnd + size > bytes.length) return undefined;
    if (preSkip === undefined) {
      // The first page holds OpusHead: magic (8), version, channels, then the pre-skip.
      const head = new TextDecoder().decode(bytes.subarray(tableEnd, tableEnd + 8));
      if (head !== 'OpusHead' || size < 12) return undefined;
      preSkip = view.getUint16(tableEnd + 10, true);
    }
    const granule = view.getBigInt64(at + 6, true);
    if (granule >= 0n) lastGranule = granule;
    at = tableEnd + size;
  }
  if (preSkip === undefined) return undefined;
  return Math.max(0, Number(lastGranule - BigInt(preSkip))) / 48_000;
}

/** The recording holds no audio at all: the microphone gave no samples. */
export class SilentRecordingError extends Error {
  constructor() {
    super('The microphone gave no sound.');
    this.name = 'SilentRecordingError';
  }
}
