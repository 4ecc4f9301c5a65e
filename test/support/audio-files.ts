/**
 * Audio files built by hand for the transcription tests: Ogg/Opus and WebM/Opus shaped as
 * Firefox's MediaRecorder writes them (the Opus frames themselves are filler: the scripted
 * server reads containers, not sound), and tones as float samples for the WAV encoder.
 */
import { oggCrc } from './llm-server/audio-containers';

const FRAME_SAMPLES = 960; // 20 ms at 48 kHz
const frame = () => Buffer.from([0xf8, 0xff, 0xfe, 0x00, 0x11]); // a TOC byte and filler

function oggPage(packets: Buffer[], granule: bigint, sequence: number, flags: number): Buffer {
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x464f5841, 14); // serial
  header.writeUInt32LE(sequence, 18);
  const lacing = packets.flatMap((p) => [...Array(Math.floor(p.length / 255)).fill(255), p.length % 255]);
  header[26] = lacing.length;
  const page = Buffer.concat([header, Buffer.from(lacing), ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** An Ogg/Opus file of about `seconds`: OpusHead, OpusTags, then pages of 20 ms frames. */
export function oggOpus(seconds: number, options: { channels?: number; preSkip?: number } = {}): Buffer {
  const preSkip = options.preSkip ?? 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = options.channels ?? 1;
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.from([7, 0, 0, 0]), Buffer.from('FoxTest', 'latin1'), Buffer.alloc(4)]);
  const pages = [oggPage([head], 0n, 0, 0x02), oggPage([tags], 0n, 1, 0)];
  const frames = Math.round((seconds * 48_000) / FRAME_SAMPLES);
  for (let done = 0, seq = 2; done < frames; seq++) {
    const count = Math.min(50, frames - done);
    done += count;
    pages.push(oggPage(Array.from({ length: count }, frame), BigInt(preSkip + done * FRAME_SAMPLES), seq, done === frames ? 0x04 : 0));
  }
  return Buffer.concat(pages);
}

function vintSize(size: number): Buffer {
  if (size < 0) return Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]); // unknown size
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(size) | (1n << 56n));
  return out;
}

function element(id: number, ...body: Buffer[]): Buffer {
  const data = Buffer.concat(body);
  return Buffer.concat([Buffer.from(id.toString(16), 'hex'), vintSize(data.length), data]);
}

const uintBytes = (value: number, size = 4) => {
  const out = Buffer.alloc(size);
  out.writeUIntBE(value, 0, size);
  return out;
};

/**
 * A WebM/Opus file of about `seconds`. Live-style (the default): Segment and Clusters of unknown
 * size and no Duration, as MediaRecorder writes them; with `duration`, an Info Duration element.
 */
export function webmOpus(seconds: number, options: { duration?: boolean; codec?: string } = {}): Buffer {
  const ebml = element(0x1a45dfa3, element(0x4286, uintBytes(1, 1)), element(0x4282, Buffer.from('webm')), element(0x4287, uintBytes(4, 1)));
  const durationBytes = Buffer.alloc(8);
  durationBytes.writeDoubleBE(seconds * 1000);
  const info = element(0x1549a966, element(0x2ad7b1, uintBytes(1_000_000)), ...(options.duration ? [element(0x4489, durationBytes)] : []));
  const tracks = element(0x1654ae6b, element(0xae, element(0xd7, uintBytes(1, 1)), element(0x86, Buffer.from(options.codec ?? 'A_OPUS')), element(0xe1, element(0x9f, uintBytes(1, 1)))));
  const clusters: Buffer[] = [];
  const frames = Math.round(seconds / 0.02);
  for (let start = 0; start < frames; start += 50) {
    const blocks: Buffer[] = [];
    for (let i = start; i < Math.min(frames, start + 50); i++) {
      const relative = Buffer.alloc(2);
      relative.writeInt16BE((i - start) * 20);
      blocks.push(element(0xa3, Buffer.from([0x81]), relative, Buffer.from([0x80]), frame()));
    }
    clusters.push(Buffer.concat([Buffer.from('1f43b675', 'hex'), vintSize(-1), element(0xe7, uintBytes(start * 20)), ...blocks]));
  }
  const segmentBody = Buffer.concat([info, tracks, ...clusters]);
  return Buffer.concat([ebml, Buffer.from('18538067', 'hex'), vintSize(-1), segmentBody]);
}

/** A sine tone as float samples. */
export function tone(seconds: number, sampleRate: number, hz = 440, amplitude = 0.5): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / sampleRate));
}
