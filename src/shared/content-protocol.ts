/**
 * Background → page agent requests, and the one reply envelope they answer with. Written with
 * zod/mini: the page agent is injected into pages, so its validation code must stay small. The
 * reply schemas, which only the background uses, are in `content-replies.ts`, so they stay out of
 * the page agent's bundle.
 */
import * as z from 'zod/mini';
import { ClientPointSchema, ScreenPointSchema } from './vision';

export const PageActionSchema = z.discriminatedUnion('action', [
  /** `at`: where to press, for an element found at a point of a screenshot (a canvas handles clicks by where they land). */
  z.object({ action: z.literal('click'), id: z.number(), at: z.optional(ClientPointSchema) }),
  z.object({ action: z.literal('hover'), id: z.number(), at: z.optional(ClientPointSchema) }),
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

/**
 * What the page agent says about an element, for the permission engine and the question: what it
 * is, its accessible name, and the form it belongs to or may send. An action carries the one the
 * user approved, and the page agent refuses it if the element no longer matches.
 */
export const TargetInfoSchema = z.object({
  tag: z.string(),
  type: z.optional(z.string()),
  role: z.optional(z.string()),
  name: z.optional(z.string()),
  autocomplete: z.optional(z.string()),
  inputName: z.optional(z.string()),
  /** The form it belongs to (ancestor), names with its `form` attribute, or may send by script. */
  formName: z.optional(z.string()),
  formVia: z.optional(z.enum(['ancestor', 'attribute', 'script'])),
  /** That form holds a password field. */
  formHasPassword: z.optional(z.boolean()),
  /** That form holds a payment-card field. */
  formHasPayment: z.optional(z.boolean()),
  /** Acting on it sends its form (a submit button; Enter in a field). */
  submitsForm: z.optional(z.boolean()),
  /** A download link. */
  download: z.optional(z.boolean()),
  /** The web address a click on it (or Enter) loads: a link's, or where its form is sent. */
  leadsTo: z.optional(z.string()),
});
export type TargetInfo = z.infer<typeof TargetInfoSchema>;

/**
 * What an action did, in parts the background words in the user's language for the timeline; the
 * reply's `message` beside it is the same in English, for the model. Page-written names in it are
 * untrusted text, bounded where they are received.
 */
export const ACTION_KINDS = ['clicked', 'clicked_unsent', 'hovered', 'typed', 'selected', 'checked', 'unchecked', 'pressed', 'enter_submitted', 'submitted', 'unsent', 'scrolled_to', 'scrolled'] as const;
export const ActionReportSchema = z.object({
  kind: z.enum(ACTION_KINDS),
  /** The element acted on: its role (or tag) as a plain word, and the name a user sees. */
  element: z.optional(z.object({ role: z.string().check(z.maxLength(40)), name: z.optional(z.string().check(z.maxLength(200))) })),
  /** The option chosen, the key pressed, or the direction scrolled. */
  detail: z.optional(z.string().check(z.maxLength(200))),
});
export type ActionReport = z.infer<typeof ActionReportSchema>;

/** Which snapshot, document and origin an inspection was made in; an action must match all three. */
export const ElementRefSchema = z.object({ snapshot: z.string(), doc: z.string(), origin: z.string() });
export type ElementRef = z.infer<typeof ElementRefSchema>;

export const ReadOptionsSchema = z.object({
  maxTokens: z.optional(z.number()),
  offset: z.optional(z.number()),
  region: z.optional(z.string()),
  includeInteractive: z.optional(z.boolean()),
  /** false: the render leaves out the title and URL lines (the prompt states them already). */
  header: z.optional(z.boolean()),
});
export type ReadOptions = z.infer<typeof ReadOptionsSchema>;

export const ContentRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page/ping') }),
  /**
   * What the element a call targets is, for the permission engine (no side effects): the element
   * with `id` in snapshot `snapshot`, or with no id the focused element (a key press). `key`: the
   * key to be pressed, which decides whether it sends a form. With `point` instead of an id, the
   * element at that point of a screenshot, which joins the latest snapshot under an id of its own.
   */
  z.object({ type: z.literal('page/inspect'), snapshot: z.string(), id: z.optional(z.number()), key: z.optional(z.string()), point: z.optional(ScreenPointSchema) }),
  z.object({ type: z.literal('page/read'), options: ReadOptionsSchema }),
  /** Acts only if the snapshot, the document, the origin and the element are the ones inspected. */
  z.object({ type: z.literal('page/act'), act: PageActionSchema, expect: z.extend(ElementRefSchema, { target: z.optional(TargetInfoSchema) }) }),
  z.object({ type: z.literal('page/wait'), text: z.optional(z.string()), selector: z.optional(z.string()), timeoutMs: z.number() }),
  /** The viewport, the marks of the interactive elements in view, and how much of the page is text or pictures (no side effects). */
  z.object({ type: z.literal('page/look') }),
]);
export type ContentRequest = z.infer<typeof ContentRequestSchema>;

export type ContentRequestType = ContentRequest['type'];

/** What each request is answered with; the schemas that check it are in `content-replies.ts`. */
export type { ContentReplyMap } from './content-replies';

export interface ContentError {
  code: string;
  message: string;
}

/**
 * The one reply envelope: a value or an error, and the token of the document that answered, so
 * the background notices a replaced document without asking.
 */
export type ContentReply = { doc?: string; value: unknown } | { doc?: string; error: ContentError };

/** The page agent announces itself with this marker, so it is injected once per document. */
export const PAGE_AGENT_VERSION = 5;
