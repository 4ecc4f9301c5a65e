/**
 * Background → page agent requests, and the one reply envelope they answer with. Written with
 * zod/mini: the page agent is injected into pages, so its validation code must stay small.
 */
import * as z from 'zod/mini';

export const PageActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('click'), id: z.number() }),
  z.object({ action: z.literal('hover'), id: z.number() }),
  z.object({ action: z.literal('fill'), id: z.number(), text: z.string(), append: z.optional(z.boolean()) }),
  z.object({ action: z.literal('select_option'), id: z.number(), option: z.string() }),
  z.object({ action: z.literal('set_checked'), id: z.number(), checked: z.boolean() }),
  z.object({ action: z.literal('press_key'), key: z.string(), id: z.optional(z.number()) }),
  z.object({ action: z.literal('submit'), id: z.number() }),
  z.object({
    action: z.literal('scroll'),
    direction: z.optional(z.enum(['up', 'down', 'top', 'bottom'])),
    id: z.optional(z.number()),
  }),
]);
export type PageAction = z.infer<typeof PageActionSchema>;

export const ReadOptionsSchema = z.object({
  maxTokens: z.optional(z.number()),
  offset: z.optional(z.number()),
  region: z.optional(z.string()),
  includeInteractive: z.optional(z.boolean()),
});
export type ReadOptions = z.infer<typeof ReadOptionsSchema>;

export const ContentRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page/ping') }),
  /** What the element a call targets is, for the permission engine (no side effects). */
  z.object({ type: z.literal('page/inspect'), id: z.number() }),
  z.object({ type: z.literal('page/read'), options: ReadOptionsSchema }),
  z.object({ type: z.literal('page/act'), act: PageActionSchema }),
  z.object({ type: z.literal('page/wait'), text: z.optional(z.string()), selector: z.optional(z.string()), timeoutMs: z.number() }),
]);
export type ContentRequest = z.infer<typeof ContentRequestSchema>;

export interface ContentError {
  code: string;
  message: string;
}

export type ContentReply = { value: unknown } | { error: ContentError };

/** The page agent announces itself with this marker, so it is injected once per document. */
export const PAGE_AGENT_VERSION = 2;
