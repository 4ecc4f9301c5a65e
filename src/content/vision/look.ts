/**
 * The page in view, for a screenshot: the viewport, a mark for each interactive element of the
 * latest snapshot that is in view (its id, what it is, and where), and how much of the page is
 * text or pictures, so the background can tell a page its reader cannot describe. Reads layout
 * only; nothing is drawn on or written into the page.
 */
import { MAX_MARKS, type Mark, type PageLook, type Rect, type View } from '../../shared/vision';
import { accessibleName, implicitRole } from '../reader/interactive';
import { isHidden } from '../reader/visibility';

/** Pictures a person reads but the DOM reader cannot: drawn, embedded or from another site. */
const PICTURES = 'canvas, img, svg, video, embed, object, iframe, picture';
const MAX_PICTURES = 400;
/** Visible text is counted up to this many characters: enough to tell "almost none" from "some". */
export const TEXT_COUNT_CAP = 1000;
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

export function viewOf(win: Window): View {
  return { width: win.innerWidth, height: win.innerHeight, scrollX: win.scrollX, scrollY: win.scrollY, dpr: win.devicePixelRatio || 1 };
}

/** An element's box in the top viewport, through the same-origin frames it sits in. */
export function topRect(el: Element): Rect {
  const r = el.getBoundingClientRect();
  let x = r.left;
  let y = r.top;
  for (let frame = el.ownerDocument.defaultView?.frameElement; frame; frame = frame.ownerDocument.defaultView?.frameElement) {
    const f = frame.getBoundingClientRect();
    x += f.left + frame.clientLeft;
    y += f.top + frame.clientTop;
  }
  return { x, y, width: r.width, height: r.height };
}

/** The part of `r` inside the viewport, or undefined when none is. */
function visiblePart(r: Rect, view: View): Rect | undefined {
  const x = Math.max(0, r.x);
  const y = Math.max(0, r.y);
  const width = Math.min(view.width, r.x + r.width) - x;
  const height = Math.min(view.height, r.y + r.height) - y;
  return width >= 1 && height >= 1 ? { x, y, width, height } : undefined;
}

function roleOf(el: Element): string {
  const role = (el.getAttribute('role') ?? '').trim().toLowerCase();
  return (/^[a-z]{1,20}$/.test(role) ? role : implicitRole(el)).slice(0, 40);
}

export function lookAt(doc: Document, elements: readonly { id: number; el: Element }[], nonce: string | undefined): PageLook {
  const win = doc.defaultView!;
  const view = viewOf(win);
  const marks: Mark[] = [];
  for (const { id, el } of elements) {
    if (marks.length >= MAX_MARKS) break;
    const rect = visiblePart(topRect(el), view);
    if (rect) marks.push({ id, role: roleOf(el), name: accessibleName(el).replace(/\s+/g, ' ').trim().slice(0, 200), rect });
  }
  let covered = 0;
  const pictures = doc.querySelectorAll(PICTURES);
  for (let i = 0; i < Math.min(pictures.length, MAX_PICTURES); i++) {
    const part = visiblePart(topRect(pictures[i]!), view);
    if (part) covered += part.width * part.height;
  }
  return { view, marks, ...(nonce ? { nonce } : {}), textChars: visibleTextChars(doc), visualShare: Math.min(1, covered / Math.max(1, view.width * view.height)) };
}

/**
 * Characters of visible text (spaces left out), counted up to `TEXT_COUNT_CAP`: a walk over text
 * nodes that stops once the cap is reached, so a long page costs little and an empty one less.
 */
export function visibleTextChars(doc: Document, cap = TEXT_COUNT_CAP): number {
  if (!doc.body) return 0;
  const walker = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
  let count = 0;
  for (let node = walker.nextNode(); node && count < cap; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || NOT_TEXT.has(parent.tagName)) continue;
    const chars = (node.nodeValue ?? '').replace(/\s+/g, '').length;
    if (chars && !isHidden(parent)) count += chars;
  }
  return Math.min(count, cap);
}
