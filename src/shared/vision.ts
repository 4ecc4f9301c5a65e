/**
 * What the vision path and the page agent say to each other: the viewport a screenshot shows, the
 * numbered marks drawn on it, and a point read from it. zod/mini, like the rest of the page
 * agent's protocol (its code is injected into pages). The mapping from a screenshot point back to
 * the page is pure, so the background and the page agent compute it the same way.
 */
import * as z from 'zod/mini';

/** The viewport in CSS pixels when the page was looked at: size, scroll and device pixel ratio (page zoom included). */
export const ViewSchema = z.object({ width: z.number(), height: z.number(), scrollX: z.number(), scrollY: z.number(), dpr: z.number() });
export type View = z.infer<typeof ViewSchema>;

export const RectSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type Rect = z.infer<typeof RectSchema>;

/** One interactive element in view: its snapshot id (the mark's number), what it is, and where, in viewport CSS pixels. */
export const MarkSchema = z.object({ id: z.int(), role: z.string().check(z.maxLength(40)), name: z.string().check(z.maxLength(200)), rect: RectSchema });
export type Mark = z.infer<typeof MarkSchema>;

/** Marks drawn on one screenshot at most; the legend lists the same. */
export const MAX_MARKS = 80;

/** What the page agent says of the page in view, for a screenshot and for deciding whether one is needed. */
export const PageLookSchema = z.object({
  view: ViewSchema,
  marks: z.array(MarkSchema).check(z.maxLength(MAX_MARKS)),
  /** The snapshot the marks' numbers belong to (read afresh when the page had none). */
  nonce: z.optional(z.string()),
  /** Characters of visible text on the page, spaces left out, counted up to 1,000. */
  textChars: z.number(),
  /** The share of the viewport covered by pictures: canvas, images, SVG, video, embedded content. */
  visualShare: z.number(),
});
export type PageLook = z.infer<typeof PageLookSchema>;

/** A point in a screenshot's pixels, with the image's size and the view it showed. */
export const ScreenPointSchema = z.object({ x: z.number(), y: z.number(), image: z.object({ width: z.number(), height: z.number() }), view: ViewSchema });
export type ScreenPoint = z.infer<typeof ScreenPointSchema>;

/** A point in the viewport of the element's own document (a same-origin frame's, inside it), in CSS pixels. */
export const ClientPointSchema = z.object({ x: z.number(), y: z.number() });
export type ClientPoint = z.infer<typeof ClientPointSchema>;

export type Mapped = { ok: true; x: number; y: number } | { ok: false; why: string };

const LOOK_AGAIN = 'call look again for a fresh screenshot';

/**
 * Where a screenshot point is in the viewport now, in CSS pixels. The screenshot shows the
 * viewport as it was (device pixels scaled down), so the point is scaled by the viewport's CSS
 * width over the image's width — device pixel ratio and zoom cancel out — and moved by however
 * far the page has scrolled since. A zoom or resize since then is refused: the picture no longer
 * matches the page.
 */
export function screenToClient(point: ScreenPoint, now: View): Mapped {
  const { image, view } = point;
  if (!(point.x >= 0 && point.y >= 0 && point.x < image.width && point.y < image.height)) {
    return { ok: false, why: `The point (${point.x}, ${point.y}) is outside the screenshot, which is ${image.width}×${image.height} pixels.` };
  }
  const same = (a: number, b: number) => Math.abs(a - b) < 0.5;
  if (!same(now.width, view.width) || !same(now.height, view.height) || Math.abs(now.dpr - view.dpr) > 0.01) {
    return { ok: false, why: `The page was zoomed or its window resized since the screenshot; ${LOOK_AGAIN}.` };
  }
  const x = (point.x * view.width) / image.width - (now.scrollX - view.scrollX);
  const y = (point.y * view.height) / image.height - (now.scrollY - view.scrollY);
  if (x < 0 || y < 0 || x >= now.width || y >= now.height) return { ok: false, why: `The page has scrolled since the screenshot and that point is out of view; ${LOOK_AGAIN}.` };
  return { ok: true, x, y };
}

/** A viewport rectangle in a screenshot's pixels (for drawing marks). */
export function clientToScreen(rect: Rect, view: View, image: { width: number; height: number }): Rect {
  const sx = image.width / view.width;
  const sy = image.height / view.height;
  return { x: rect.x * sx, y: rect.y * sy, width: rect.width * sx, height: rect.height * sy };
}
