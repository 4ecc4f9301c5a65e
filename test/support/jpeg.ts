/**
 * Reads a JPEG's structure as a decoder does: the start marker, each segment up to the frame
 * header (its size), and the end marker. A file that is not a whole JPEG is an error.
 */
export function jpegInfo(bytes: Buffer): { width: number; height: number; components: number } {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error('not a JPEG: no start-of-image marker');
  if (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) throw new Error('not a whole JPEG: no end-of-image marker');
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`not a JPEG: no marker at byte ${at}`);
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    // SOF0–SOF15 but DHT (c4), JPG (c8) and DAC (cc): the frame header holds the size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), components: bytes[at + 9]! };
    }
    at += 2 + length;
  }
  throw new Error('not a JPEG: no frame header');
}
