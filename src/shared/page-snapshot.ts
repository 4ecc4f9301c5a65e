/** A page as FoxAgent reads it: the shape the page agent returns and the background checks. */
/** Written with zod/mini: the page agent's protocol names it, and that code is injected into pages. */
import * as z from 'zod/mini';

export const PageElementSchema = z.object({
  id: z.int(),
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  type: z.optional(z.string()),
  value: z.optional(z.string()),
  checked: z.optional(z.boolean()),
  options: z.optional(z.array(z.string())),
  disabled: z.optional(z.boolean()),
  required: z.optional(z.boolean()),
  href: z.optional(z.string()),
  inView: z.boolean(),
  /** Where it lives when not in the main document: "iframe: <src>" or "shadow". */
  frame: z.optional(z.string()),
});
export type PageElement = z.infer<typeof PageElementSchema>;

export const ProductSchema = z.object({
  name: z.optional(z.string()),
  price: z.optional(z.string()),
  currency: z.optional(z.string()),
  availability: z.optional(z.string()),
  rating: z.optional(z.string()),
  reviewCount: z.optional(z.string()),
  brand: z.optional(z.string()),
  sku: z.optional(z.string()),
  image: z.optional(z.string()),
  source: z.enum(['json-ld', 'microdata', 'opengraph']),
});
export type Product = z.infer<typeof ProductSchema>;

export const PageSnapshotSchema = z.object({
  url: z.string(),
  title: z.string(),
  lang: z.optional(z.string()),
  description: z.optional(z.string()),
  siteName: z.optional(z.string()),
  text: z.string(),
  product: z.optional(ProductSchema),
  elements: z.array(PageElementSchema),
  frames: z.array(z.object({ src: z.string(), sameOrigin: z.boolean() })),
  truncated: z.object({
    text: z.boolean(),
    elements: z.boolean(),
    nextOffset: z.optional(z.number()),
    totalTextChars: z.number(),
    totalElements: z.number(),
  }),
  /**
   * The snapshot's random id: its element ids are valid only with it, and only while it is the
   * page's latest snapshot. Absent when the read listed no elements.
   */
  nonce: z.optional(z.string()),
  /** How the text was obtained: the article extractor, or a walk of the visible page. */
  source: z.enum(['readability', 'visible-text', 'region']),
});
export type PageSnapshot = z.infer<typeof PageSnapshotSchema>;

/** Frames from other sites listed by name in a snapshot's header; the rest are counted. */
export const MAX_FRAMES_LISTED = 5;

/**
 * What a snapshot says of the page besides its title, URL and text: language, product facts and
 * frames FoxAgent cannot read. One line each; the same for the reader's render and the question path.
 */
export function snapshotFacts(s: Pick<PageSnapshot, 'lang' | 'product' | 'frames'>): string[] {
  const lines: string[] = [];
  if (s.lang) lines.push(`Language: ${s.lang}`);
  if (s.product) {
    const p = s.product;
    const facts = [p.name, p.price && `${p.price}${p.currency ? ` ${p.currency}` : ''}`, p.availability, p.rating && `rated ${p.rating}${p.reviewCount ? ` (${p.reviewCount} reviews)` : ''}`, p.brand && `brand ${p.brand}`];
    lines.push(`Product: ${facts.filter(Boolean).join(' — ')}`);
  }
  const frames = s.frames.filter((f) => !f.sameOrigin);
  if (frames.length) {
    const listed = frames.slice(0, MAX_FRAMES_LISTED).map((f) => (f.src.length > 100 ? `${f.src.slice(0, 99)}…` : f.src));
    const more = frames.length > listed.length ? ` and ${frames.length - listed.length} more` : '';
    lines.push(`Frames from other sites (not readable): ${listed.join(', ')}${more}`);
  }
  return lines;
}
