import { z } from 'zod';

/**
 * A tool's result as the conversation keeps it: a list of parts — text, images and structured
 * data — each already bounded by the agent (`background/agent/parts.ts`). Results that are only
 * text are kept as the tool message's `content` alone, as before parts existed.
 */

/** The image types a tool result may carry, to a model and to the sidebar's thumbnails. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export function isImageType(value: string): value is ImageType {
  return (IMAGE_TYPES as readonly string[]).includes(value);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Plain base64 (no data: prefix, no whitespace), as every image part carries it. */
export function isBase64(data: string): boolean {
  return data.length % 4 === 0 && BASE64.test(data);
}

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });

export const ImagePartSchema = z.object({
  type: z.literal('image'),
  mimeType: z.enum(IMAGE_TYPES),
  /** The image's bytes in base64; absent once the conversation no longer keeps them (only the latest few are kept). */
  data: z.string().optional(),
  /** Size of the decoded image, in bytes. */
  bytes: z.number().int().nonnegative(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  /** A description of the image (from the tool or the page: untrusted, shown as text only). */
  alt: z.string().optional(),
});

/** JSON as the tool gave it; bounded in its serialized size. */
export const DataPartSchema = z.object({ type: z.literal('data'), value: z.unknown() });

export const ResultPartSchema = z.discriminatedUnion('type', [TextPartSchema, ImagePartSchema, DataPartSchema]);
export type ResultPart = z.infer<typeof ResultPartSchema>;
export type ImagePart = z.infer<typeof ImagePartSchema>;
