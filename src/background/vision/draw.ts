/**
 * Paints the numbered marks on a copy of a screenshot and encodes it as JPEG, in the background
 * with `OffscreenCanvas`: nothing is ever drawn on the page. The picture is scaled down so its long
 * side is at most `MAX_SIDE` pixels.
 */
import type { PlacedMark } from './marks-layout';
import { LABEL_HEIGHT } from './marks-layout';

export const MAX_SIDE = 1280;
export const JPEG_QUALITY = 0.7;

/** The size a picture is sent at: its own, or scaled down so the long side is `MAX_SIDE`. */
export function fittedSize(width: number, height: number, max = MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const BOX = '#e8175d';
const LABEL_TEXT = '#ffffff';

function paintMarks(ctx: OffscreenCanvasRenderingContext2D, marks: readonly PlacedMark[]): void {
  ctx.lineWidth = 2;
  ctx.font = `bold ${LABEL_HEIGHT - 2}px sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  for (const { box, label, id } of marks) {
    ctx.strokeStyle = BOX;
    ctx.strokeRect(box.x + 1, box.y + 1, Math.max(1, box.width - 2), Math.max(1, box.height - 2));
    ctx.fillStyle = BOX;
    ctx.fillRect(label.x, label.y, label.width, label.height);
    ctx.fillStyle = LABEL_TEXT;
    ctx.fillText(String(id), label.x + label.width / 2, label.y + label.height / 2 + 1);
  }
}

export interface Encoded {
  /** Plain base64 of the JPEG. */
  data: string;
  bytes: number;
  width: number;
  height: number;
}

/** The screenshot scaled to fit `MAX_SIDE`, the marks laid out for that size painted on it, as JPEG. */
export async function drawAndEncode(shot: Blob, layout: (size: { width: number; height: number }) => readonly PlacedMark[], quality = JPEG_QUALITY): Promise<Encoded> {
  const bitmap = await createImageBitmap(shot);
  try {
    const size = fittedSize(bitmap.width, bitmap.height);
    const marks = layout(size);
    const canvas = new OffscreenCanvas(size.width, size.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.drawImage(bitmap, 0, 0, size.width, size.height);
    paintMarks(ctx, marks);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality });
    const buffer = new Uint8Array(await blob.arrayBuffer());
    return { data: toBase64(buffer), bytes: buffer.length, ...size };
  } finally {
    bitmap.close();
  }
}

/** Base64 of bytes, in chunks (a spread of a whole image would overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
