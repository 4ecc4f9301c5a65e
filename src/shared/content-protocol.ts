/** Background → content script requests, and the one reply envelope they answer with. */
import { z } from 'zod';
import { SerializedErrorSchema } from './protocol';

export const ContentRequestSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('content/ping') })]);
export type ContentRequest = z.infer<typeof ContentRequestSchema>;

export const ContentReplySchema = z.union([z.object({ value: z.unknown() }), z.object({ error: SerializedErrorSchema })]);
export type ContentReply = z.infer<typeof ContentReplySchema>;
