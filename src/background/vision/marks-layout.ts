/**
 * Where each numbered mark goes on a screenshot: the element's box scaled into the image, and a
 * label with its number placed where it covers no other label and stays inside the picture.
 * Pure geometry, so it is tested without a canvas; `draw.ts` paints what it decides.
 */
import { clientToScreen, type Mark, type Rect, type View } from '../../shared/vision';

export interface PlacedMark {
  id: number;
  box: Rect;
  label: Rect;
}

/** Label text height in image pixels, and the width of one digit at that size (bold sans-serif). */
export const LABEL_HEIGHT = 14;
const DIGIT_WIDTH = 7;
const PADDING = 3;

export function labelSize(id: number): { width: number; height: number } {
  return { width: String(id).length * DIGIT_WIDTH + 2 * PADDING, height: LABEL_HEIGHT };
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function clampInto(r: Rect, image: { width: number; height: number }): Rect {
  return { ...r, x: Math.min(Math.max(0, r.x), Math.max(0, image.width - r.width)), y: Math.min(Math.max(0, r.y), Math.max(0, image.height - r.height)) };
}

/**
 * Lays out the marks in the order given: each label tries above the box's top-left corner, inside
 * it, above its right end, then below it, and takes the first place free of earlier labels (the
 * first place, when none is). Linear in the marks times the labels placed (at most `MAX_MARKS`).
 */
export function layoutMarks(marks: readonly Mark[], view: View, image: { width: number; height: number }): PlacedMark[] {
  const placed: PlacedMark[] = [];
  for (const mark of marks) {
    const box = clientToScreen(mark.rect, view, image);
    const { width, height } = labelSize(mark.id);
    const candidates = [
      { x: box.x, y: box.y - height, width, height },
      { x: box.x, y: box.y, width, height },
      { x: box.x + box.width - width, y: box.y - height, width, height },
      { x: box.x, y: box.y + box.height, width, height },
    ].map((r) => clampInto(r, image));
    const label = candidates.find((c) => !placed.some((p) => overlaps(p.label, c))) ?? candidates[0]!;
    placed.push({ id: mark.id, box, label });
  }
  return placed;
}

/** Characters of a page-written name kept in the legend, so every mark's line fits the result. */
const LEGEND_NAME = 60;

/** The text legend sent beside the image: one line per mark, `[12] button "Add to cart"`. */
export function legendOf(marks: readonly Mark[]): string {
  const clip = (name: string) => (name.length > LEGEND_NAME ? `${name.slice(0, LEGEND_NAME - 1)}…` : name);
  return marks.map((m) => `[${m.id}] ${m.role} ${JSON.stringify(clip(m.name))}`).join('\n');
}
