/**
 * The schema of each page-agent reply, checked by the background: a reply comes from a page's
 * process, so it is parsed, never trusted. Kept apart from `content-protocol.ts` because the page
 * agent never parses replies, and its bundle is injected into pages. zod/mini, like the requests.
 */
import * as z from 'zod/mini';
import { ActionReportSchema, ElementRefSchema, TargetInfoSchema, type ContentError, type ContentReply, type ContentRequestType } from './content-protocol';
import { PageSnapshotSchema } from './page-snapshot';
import { ClientPointSchema, PageLookSchema } from './vision';

export const PingReplySchema = z.object({
  version: z.number(),
  mutations: z.number(),
  url: z.string(),
  doc: z.string(),
  snapshot: z.optional(z.string()),
});
export const InspectReplySchema = z.object({
  ref: ElementRefSchema,
  target: z.optional(TargetInfoSchema),
  /** For a point: the id the element found there has in the snapshot, and the point in its document's viewport. */
  pointed: z.optional(z.object({ id: z.int(), at: ClientPointSchema })),
});
export const ReadReplySchema = z.object({ snapshot: PageSnapshotSchema, rendered: z.string(), mutations: z.number() });
export const ActReplySchema = z.object({ message: z.string(), url: z.string(), report: z.optional(ActionReportSchema) });
export const WaitReplySchema = z.object({ message: z.string() });

/** What each request is answered with: the caller's type follows from the request. */
export interface ContentReplyMap {
  'page/ping': z.infer<typeof PingReplySchema>;
  'page/inspect': z.infer<typeof InspectReplySchema>;
  'page/read': z.infer<typeof ReadReplySchema>;
  'page/act': z.infer<typeof ActReplySchema>;
  'page/wait': z.infer<typeof WaitReplySchema>;
  'page/look': z.infer<typeof PageLookSchema>;
}

export const ContentReplySchemas: { [K in ContentRequestType]: z.ZodMiniType<ContentReplyMap[K]> } = {
  'page/ping': PingReplySchema,
  'page/inspect': InspectReplySchema,
  'page/read': ReadReplySchema,
  'page/act': ActReplySchema,
  'page/wait': WaitReplySchema,
  'page/look': PageLookSchema,
};

export const ContentErrorSchema: z.ZodMiniType<ContentError> = z.object({ code: z.string(), message: z.string() });

/** The one envelope every reply comes in (`ContentReply`). */
export const ContentReplySchema: z.ZodMiniType<ContentReply> = z.union([
  z.object({ doc: z.optional(z.string()), error: ContentErrorSchema }),
  z.object({ doc: z.optional(z.string()), value: z.unknown() }),
]);

