/**
 * Tool results on their way to the model: every part bounded (text and data share the result's
 * character budget; images by type, size and count), and the parts rendered as the fenced text
 * the model reads, with the images beside it. Every cut or refusal is said in words the model
 * reads. Linear in the size of the result.
 */
import { isBase64, isImageType, type ImagePart, type ResultPart } from '../../shared/tool-parts';
import type { LlmImage, LlmMessage } from '../llm/types';
import type { ToolPart } from '../tools/parts';
import { cutNote } from './compaction';
import { fenceToolResult } from './untrusted';

export const MAX_PARTS = 16;
export const MAX_IMAGES_PER_RESULT = 4;
export const MAX_IMAGE_BYTES = 1024 * 1024;
const MAX_ALT = 300;
const MAX_SIDE = 100_000;

const LABEL: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

/** The parts a model and the conversation may keep: `textChars` is the result's budget for text and data together. */
export function boundParts(parts: readonly ToolPart[], textChars: number): ResultPart[] {
  const out: ResultPart[] = [];
  let room = textChars;
  let cut = 0;
  let images = 0;
  const addText = (text: string) => {
    if (text.length <= room) {
      out.push({ type: 'text', text });
      room -= text.length;
      return;
    }
    if (room > 0) out.push({ type: 'text', text: text.slice(0, room) });
    cut += text.length - room;
    room = 0;
  };
  for (const part of parts.slice(0, MAX_PARTS)) {
    if (part.type === 'text') {
      addText(typeof part.text === 'string' ? part.text : '');
    } else if (part.type === 'data') {
      const json = serialize(part.value);
      if (json === undefined) out.push({ type: 'text', text: '[structured data omitted: it cannot be written as JSON]' });
      else if (json.length <= room) {
        out.push({ type: 'data', value: JSON.parse(json) as unknown });
        room -= json.length;
      } else addText(json);
    } else if (part.type === 'image') {
      if (++images > MAX_IMAGES_PER_RESULT) out.push({ type: 'text', text: `[image omitted: a result carries at most ${MAX_IMAGES_PER_RESULT} images]` });
      else out.push(boundImage(part));
    }
  }
  if (cut) out.push({ type: 'text', text: cutNote(cut) });
  if (parts.length > MAX_PARTS) out.push({ type: 'text', text: `[${parts.length - MAX_PARTS} more parts omitted: a result has at most ${MAX_PARTS}]` });
  return out;
}

function serialize(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? undefined;
  } catch {
    return undefined;
  }
}

function boundImage(part: Extract<ToolPart, { type: 'image' }>): ResultPart {
  const refused = (why: string): ResultPart => ({ type: 'text', text: `[image refused: ${why}]` });
  const mimeType = typeof part.mimeType === 'string' ? part.mimeType : '';
  const data = typeof part.data === 'string' ? part.data : '';
  if (!isImageType(mimeType)) return refused(`${JSON.stringify(mimeType.slice(0, 40))} is not an accepted type (JPEG, PNG or WebP)`);
  if (data.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4) {
    return refused(`about ${(data.length * 0.75 / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_IMAGE_BYTES / 1024 / 1024} MB an image may have`);
  }
  if (!data || !isBase64(data)) return refused('its data is not base64');
  if (!hasSignature(data, mimeType)) return refused(`its bytes are not a ${LABEL[mimeType]} image`);
  const bytes = (data.length / 4) * 3 - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
  const side = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= MAX_SIDE ? n : undefined);
  const width = side(part.width);
  const height = side(part.height);
  const alt = typeof part.alt === 'string' ? part.alt.replace(/\s+/g, ' ').trim().slice(0, MAX_ALT) : '';
  return { type: 'image', mimeType, data, bytes, ...(width ? { width } : {}), ...(height ? { height } : {}), ...(alt ? { alt } : {}) };
}

/** The file's first bytes say what it is; a mislabelled image is refused rather than sent. */
function hasSignature(data: string, mimeType: string): boolean {
  const head = atob(data.slice(0, 16));
  const at = (i: number) => head.charCodeAt(i);
  if (mimeType === 'image/png') return head.startsWith('\x89PNG\r\n\x1a\n');
  if (mimeType === 'image/jpeg') return at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff;
  return head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP';
}

/** How an image is named in the text the model reads; the image itself travels beside the text. */
function describeImage(image: ImagePart, n: number): string {
  const size = image.width && image.height ? `, ${image.width}×${image.height}` : '';
  const alt = image.alt ? `: ${image.alt}` : '';
  const kept = image.data ? '' : ' (no longer kept)';
  return `[image ${n}: ${LABEL[image.mimeType]}${size}, ${Math.ceil(image.bytes / 1024)} KB${alt}]${kept}`;
}

/** The parts as the model reads them: text and compact JSON in order, images named in place and attached. */
export function renderForModel(parts: readonly ResultPart[]): { text: string; images: LlmImage[] } {
  const lines: string[] = [];
  const images: LlmImage[] = [];
  let n = 0;
  for (const part of parts) {
    if (part.type === 'text') lines.push(part.text);
    else if (part.type === 'data') lines.push(JSON.stringify(part.value));
    else {
      lines.push(describeImage(part, ++n));
      if (part.data) images.push({ mimeType: part.mimeType, data: part.data });
    }
  }
  return { text: lines.join('\n'), images };
}

/** Whether parts say more than their text: only such results keep their parts in the conversation. */
export function hasRichParts(parts: readonly ResultPart[]): boolean {
  return parts.some((p) => p.type !== 'text');
}

/** A tool's result as the model's message: the text fenced as untrusted data, the images attached. */
export function toolResultMessage(call: { id: string; name: string }, text: string, images: readonly LlmImage[] = []): LlmMessage {
  return { role: 'tool', content: fenceToolResult(call.name, text), toolCallId: call.id, name: call.name, ...(images.length ? { images: [...images] } : {}) };
}
