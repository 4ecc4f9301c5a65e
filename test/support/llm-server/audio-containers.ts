/**
 * What the scripted transcription server reads from an uploaded audio file: the container
 * (Ogg/Opus, WebM/Matroska with Opus, RIFF/WAVE), its codec facts and its duration — checked the
 * way a real decoder would refuse a broken file (Ogg page CRCs, EBML header, WAVE fmt chunk).
 */

export type ContainerFacts =
  | { container: 'ogg'; codec: 'opus'; channels: number; preSkip: number; inputSampleRate: number; pages: number; durationSec: number }
  | { container: 'webm'; codec: 'opus'; docType: string; channels?: number; durationSec: number; durationFrom: 'Duration' | 'clusters' }
  | { container: 'wav'; codec: 'pcm'; sampleRate: number; channels: number; bitsPerSample: number; dataBytes: number; durationSec: number };

export type ContainerResult = { ok: true; facts: ContainerFacts } | { ok: false; problem: string };

const ascii = (bytes: Buffer, at: number, length: number) => bytes.subarray(at, at + length).toString('latin1');

const OGG_CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The Ogg page checksum: CRC-32, polynomial 0x04C11DB7, MSB first, no reflection, initial 0. */
export function oggCrc(page: Uint8Array): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

function parseOgg(bytes: Buffer): ContainerResult {
  let at = 0;
  let pages = 0;
  let lastGranule = 0n;
  let head: Buffer | undefined;
  while (at < bytes.length) {
    if (ascii(bytes, at, 4) !== 'OggS') return { ok: false, problem: `Ogg: no capture pattern at byte ${at}` };
    if (at + 27 > bytes.length) return { ok: false, problem: 'Ogg: a truncated page header' };
    const segments = bytes[at + 26]!;
    const lacing = bytes.subarray(at + 27, at + 27 + segments);
    const bodyLength = lacing.reduce((sum, n) => sum + n, 0);
    const end = at + 27 + segments + bodyLength;
    if (end > bytes.length) return { ok: false, problem: `Ogg: page ${pages} runs past the end of the file` };
    const page = Buffer.from(bytes.subarray(at, end));
    const stored = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    if (oggCrc(page) !== stored) return { ok: false, problem: `Ogg: page ${pages} has a wrong CRC` };
    const granule = bytes.readBigInt64LE(at + 6);
    if (granule >= 0n) lastGranule = granule; // -1: no packet ends on this page
    if (pages === 0) head = bytes.subarray(at + 27 + segments, end);
    pages++;
    at = end;
  }
  if (!head || ascii(head, 0, 8) !== 'OpusHead' || head.length < 19) return { ok: false, problem: 'Ogg: the first packet is not an OpusHead' };
  const preSkip = head.readUInt16LE(10);
  const durationSec = Number(lastGranule - BigInt(preSkip)) / 48_000;
  return { ok: true, facts: { container: 'ogg', codec: 'opus', channels: head[9]!, preSkip, inputSampleRate: head.readUInt32LE(12), pages, durationSec } };
}

/** An EBML variable-length integer: its value (all ones: unknown size, -1) and its length. */
function vint(bytes: Buffer, at: number, keepMarker: boolean): { value: number; length: number } | undefined {
  const first = bytes[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value: !keepMarker && allOnes ? -1 : value, length };
}

const EBML = {
  header: 0x1a45dfa3, docType: 0x4282, segment: 0x18538067, info: 0x1549a966, timecodeScale: 0x2ad7b1, duration: 0x4489,
  tracks: 0x1654ae6b, trackEntry: 0xae, codecId: 0x86, audio: 0xe1, channels: 0x9f, cluster: 0x1f43b675, timecode: 0xe7,
  simpleBlock: 0xa3, blockGroup: 0xa0, block: 0xa1,
} as const;
/** Elements whose children are read in place; every other element is skipped by its size. */
const MASTERS: ReadonlySet<number> = new Set([EBML.header, EBML.segment, EBML.info, EBML.tracks, EBML.trackEntry, EBML.audio, EBML.cluster, EBML.blockGroup]);

function uint(bytes: Buffer, at: number, size: number): number {
  let value = 0;
  for (let i = 0; i < size; i++) value = value * 256 + bytes[at + i]!;
  return value;
}

/**
 * One flat walk over the elements: masters are entered, the rest skipped, so live recordings
 * with unknown-size Segment and Cluster elements (as MediaRecorder writes them) read the same.
 */
function parseWebm(bytes: Buffer): ContainerResult {
  let at = 0;
  let docType = '';
  let codec = '';
  let channels: number | undefined;
  let scale = 1_000_000;
  let duration: number | undefined;
  let clusterTime = 0;
  let lastBlockTime = -1;
  while (at < bytes.length) {
    const id = vint(bytes, at, true);
    const size = id && vint(bytes, at + id.length, false);
    if (!id || !size) return { ok: false, problem: `WebM: an unreadable element header at byte ${at}` };
    const data = at + id.length + size.length;
    if (MASTERS.has(id.value)) {
      at = data;
      continue;
    }
    if (size.value < 0 || data + size.value > bytes.length) return { ok: false, problem: `WebM: element 0x${id.value.toString(16)} runs past the end of the file` };
    switch (id.value) {
      case EBML.docType: docType = ascii(bytes, data, size.value).replace(/\0+$/, ''); break;
      case EBML.codecId: codec = ascii(bytes, data, size.value).replace(/\0+$/, ''); break;
      case EBML.channels: channels = uint(bytes, data, size.value); break;
      case EBML.timecodeScale: scale = uint(bytes, data, size.value); break;
      case EBML.duration: duration = size.value === 4 ? bytes.readFloatBE(data) : bytes.readDoubleBE(data); break;
      case EBML.timecode: clusterTime = uint(bytes, data, size.value); break;
      case EBML.simpleBlock:
      case EBML.block: {
        const track = vint(bytes, data, false);
        if (track) lastBlockTime = Math.max(lastBlockTime, clusterTime + bytes.readInt16BE(data + track.length));
        break;
      }
    }
    at = data + size.value;
  }
  if (ascii(bytes, 0, 4) !== '\x1a\x45\xdf\xa3') return { ok: false, problem: 'WebM: no EBML header' };
  if (docType !== 'webm' && docType !== 'matroska') return { ok: false, problem: `WebM: DocType "${docType}"` };
  if (codec !== 'A_OPUS') return { ok: false, problem: `WebM: codec "${codec || 'none'}", not A_OPUS` };
  if (duration !== undefined && duration > 0) return { ok: true, facts: { container: 'webm', codec: 'opus', docType, channels, durationSec: (duration * scale) / 1e9, durationFrom: 'Duration' } };
  if (lastBlockTime < 0) return { ok: false, problem: 'WebM: no Duration and no audio blocks' };
  // The last block starts at its timecode and holds one Opus frame (20 ms as MediaRecorder writes them).
  return { ok: true, facts: { container: 'webm', codec: 'opus', docType, channels, durationSec: (lastBlockTime * scale) / 1e9 + 0.02, durationFrom: 'clusters' } };
}

function parseWav(bytes: Buffer): ContainerResult {
  if (ascii(bytes, 0, 4) !== 'RIFF' || ascii(bytes, 8, 4) !== 'WAVE') return { ok: false, problem: 'WAV: no RIFF/WAVE header' };
  let at = 12;
  let fmt: { format: number; channels: number; sampleRate: number; byteRate: number; bitsPerSample: number } | undefined;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ' && size >= 16) {
      fmt = { format: bytes.readUInt16LE(at + 8), channels: bytes.readUInt16LE(at + 10), sampleRate: bytes.readUInt32LE(at + 12), byteRate: bytes.readUInt32LE(at + 16), bitsPerSample: bytes.readUInt16LE(at + 22) };
    }
    if (id === 'data') {
      if (!fmt) return { ok: false, problem: 'WAV: a data chunk before the fmt chunk' };
      if (fmt.format !== 1) return { ok: false, problem: `WAV: format ${fmt.format}, not PCM` };
      if (fmt.byteRate !== (fmt.sampleRate * fmt.channels * fmt.bitsPerSample) / 8) return { ok: false, problem: 'WAV: a byte rate that does not match the format' };
      if (at + 8 + size > bytes.length) return { ok: false, problem: 'WAV: the data chunk runs past the end of the file' };
      return { ok: true, facts: { container: 'wav', codec: 'pcm', sampleRate: fmt.sampleRate, channels: fmt.channels, bitsPerSample: fmt.bitsPerSample, dataBytes: size, durationSec: size / fmt.byteRate } };
    }
    at += 8 + size + (size % 2);
  }
  return { ok: false, problem: 'WAV: no data chunk' };
}

/** The container by its magic bytes, parsed; a problem names what a decoder would refuse. */
export function parseAudioContainer(bytes: Buffer): ContainerResult {
  if (ascii(bytes, 0, 4) === 'OggS') return parseOgg(bytes);
  if (ascii(bytes, 0, 4) === '\x1a\x45\xdf\xa3') return parseWebm(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF') return parseWav(bytes);
  return { ok: false, problem: `not an Ogg, WebM or WAV file (starts ${bytes.subarray(0, 4).toString('hex') || 'empty'})` };
}
