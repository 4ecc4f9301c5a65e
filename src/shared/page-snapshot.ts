/** A page as FoxAgent reads it: the shape the page agent returns and the background checks. */
import { z } from 'zod';

export const PageElementSchema = z.object({
  id: z.number().int(),
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  type: z.string().optional(),
  value: z.string().optional(),
  checked: z.boolean().optional(),
  options: z.array(z.string()).optional(),
  disabled: z.boolean().optional(),
  required: z.boolean().optional(),
  href: z.string().optional(),
  inView: z.boolean(),
  /** Where it lives when not in the main document: "iframe: <src>" or "shadow". */
  frame: z.string().optional(),
});
export type PageElement = z.infer<typeof PageElementSchema>;

export const ProductSchema = z.object({
  name: z.string().optional(),
  price: z.string().optional(),
  currency: z.string().optional(),
  availability: z.string().optional(),
  rating: z.string().optional(),
  reviewCount: z.string().optional(),
  brand: z.string().optional(),
  sku: z.string().optional(),
  image: z.string().optional(),
  source: z.enum(['json-ld', 'microdata', 'opengraph']),
});
export type Product = z.infer<typeof ProductSchema>;

export const PageSnapshotSchema = z.object({
  url: z.string(),
  title: z.string(),
  lang: z.string().optional(),
  description: z.string().optional(),
  siteName: z.string().optional(),
  text: z.string(),
  product: ProductSchema.optional(),
  elements: z.array(PageElementSchema),
  frames: z.array(z.object({ src: z.string(), sameOrigin: z.boolean() })),
  truncated: z.object({
    text: z.boolean(),
    elements: z.boolean(),
    nextOffset: z.number().optional(),
    totalTextChars: z.number(),
    totalElements: z.number(),
  }),
  /**
   * The snapshot's random id: its element ids are valid only with it, and only while it is the
   * page's latest snapshot. Absent when the read listed no elements.
   */
  nonce: z.string().optional(),
  /** How the text was obtained: the article extractor, or a walk of the visible page. */
  source: z.enum(['readability', 'visible-text', 'region']),
});
export type PageSnapshot = z.infer<typeof PageSnapshotSchema>;
