/**
 * How much audio an Ogg Opus recording holds, from its pages (the last granule less OpusHead's
 * pre-skip): real pages built here with their segment tables, and files that are not Ogg Opus.
 */
import { oggOpusSeconds } from '../../../src/sidebar/voice/ogg-length';

/** One Ogg page: capture pattern, version, flags, granule, serial, sequence, CRC (not checked here), segment table, body. */
function page(granule: bigint, body: Uint8Array, sequence: number): Uint8Array {
  const segments: number[] = [];
  let left = body.length;
  while (left >= 255) {
    segments.push(255);
    left -= 255;
  }
  segments.push(left);
  const out = new Uint8Array(27 + segments.length + body.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53], 0);
  view.setBigInt64(6, granule, true);
  view.setUint32(14, 1, true);
  view.setUint32(18, sequence, true);
  out[26] = segments.length;
  out.set(segments, 27);
  out.set(body, 27 + segments.length);
  return out;
}

function opusHead(preSkip: number): Uint8Array {
  const head = new Uint8Array(19);
  head.set(new TextEncoder().encode('OpusHead'), 0);
  head[8] = 1;
  head[9] = 1;
  new DataView(head.buffer).setUint16(10, preSkip, true);
  new DataView(head.buffer).setUint32(12, 48_000, true);
  return head;
}

const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const tags = new TextEncoder().encode('OpusTags\0\0\0\0\0\0\0\0');

test('a recording with audio pages: its length from the last granule less the pre-skip', () => {
  const file = join(page(0n, opusHead(312), 0), page(0n, tags, 1), page(48_312n, new Uint8Array(300), 2), page(57_912n, new Uint8Array(300), 3));
  expect(oggOpusSeconds(file)).toBeCloseTo(1.2, 5);
});

test('headers only, or a last granule below the pre-skip: no audio at all', () => {
  expect(oggOpusSeconds(join(page(0n, opusHead(312), 0), page(0n, tags, 1)))).toBe(0);
  expect(oggOpusSeconds(join(page(0n, opusHead(312), 0), page(0n, tags, 1), page(24n, new Uint8Array(3), 2)))).toBe(0);
});

test('a page with no packet ending on it (granule -1) leaves the last real one', () => {
  const file = join(page(0n, opusHead(0), 0), page(48_000n, new Uint8Array(10), 1), page(-1n, new Uint8Array(600), 2));
  expect(oggOpusSeconds(file)).toBe(1);
});

test('files that are not Ogg Opus, or are cut inside a page, are not judged', () => {
  expect(oggOpusSeconds(new TextEncoder().encode('RIFF....WAVEfmt '))).toBeUndefined();
  expect(oggOpusSeconds(join(page(0n, new TextEncoder().encode('OpusTagsxxxxxxxx'), 0)))).toBeUndefined();
  expect(oggOpusSeconds(page(0n, opusHead(312), 0).subarray(0, 40))).toBeUndefined();
  expect(oggOpusSeconds(new Uint8Array(0))).toBeUndefined();
});
