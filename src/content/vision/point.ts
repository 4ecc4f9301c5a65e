/**
 * Finding and pressing what is at a point of a screenshot. The point is mapped back to the viewport
 * (`screenToClient`), then followed down through open shadow roots and same-origin frames to the
 * innermost element there; events are fired at that very point, so a canvas that handles clicks
 * by where they land sees them where the model pointed.
 */
import type { ActionReport } from '../../shared/content-protocol';
import { screenToClient, type ClientPoint, type ScreenPoint } from '../../shared/vision';
import { ActionError, assertActionable, describeElement, elementOf, type ActionOutcome } from '../page-actions';
import { frameDocument } from '../reader/walk';
import { viewOf } from './look';

/** Shadow roots and frames followed at most, against pages that nest without end. */
const MAX_DEPTH = 16;

/** The innermost element at viewport point (x, y) of `doc`, and the point in that element's own document. */
export function deepElementAt(doc: Document, x: number, y: number): { el: Element; at: ClientPoint } | undefined {
  let root: Document | ShadowRoot = doc;
  let at = { x, y };
  let el = doc.elementFromPoint(x, y);
  for (let depth = 0; el && depth < MAX_DEPTH; depth++) {
    const shadow = el.shadowRoot;
    if (shadow && shadow !== root) {
      const inner = shadow.elementFromPoint(at.x, at.y);
      if (!inner || inner === el) break;
      root = shadow;
      el = inner;
      continue;
    }
    const frameDoc = el.tagName === 'IFRAME' || el.tagName === 'FRAME' ? frameDocument(el as HTMLIFrameElement) : undefined;
    if (!frameDoc) break;
    const box = el.getBoundingClientRect();
    const style = el.ownerDocument.defaultView?.getComputedStyle(el);
    const padLeft = parseFloat(style?.paddingLeft ?? '0') || 0;
    const padTop = parseFloat(style?.paddingTop ?? '0') || 0;
    at = { x: at.x - box.left - el.clientLeft - padLeft, y: at.y - box.top - el.clientTop - padTop };
    root = frameDoc;
    const inner = frameDoc.elementFromPoint(at.x, at.y);
    if (!inner) break;
    el = inner;
  }
  return el ? { el, at } : undefined;
}

/** The element at a screenshot point, as the page is now; an error the model can act on when there is none. */
export function elementAtScreenPoint(doc: Document, point: ScreenPoint): { el: Element; at: ClientPoint } {
  const mapped = screenToClient(point, viewOf(doc.defaultView!));
  if (!mapped.ok) throw new ActionError('not_found', mapped.why);
  const found = deepElementAt(doc, mapped.x, mapped.y);
  if (!found || found.el === doc.documentElement) throw new ActionError('not_found', `Nothing is at (${point.x}, ${point.y}) in the screenshot.`);
  return found;
}

function fireAt(el: Element, type: string, at: ClientPoint, init: MouseEventInit = {}): void {
  const w = (el.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
  const options = { bubbles: true, cancelable: true, composed: true, view: w, clientX: at.x, clientY: at.y, screenX: at.x, screenY: at.y, button: 0, ...init };
  const event = type.startsWith('pointer') && 'PointerEvent' in w ? new w.PointerEvent(type, { ...options, pointerType: 'mouse', isPrimary: true }) : new w.MouseEvent(type, options);
  el.dispatchEvent(event);
}

const about = (el: Element, kind: ActionReport['kind'], message: string): ActionOutcome => ({ message, report: { kind, element: elementOf(el) } });

/** A click where the model pointed: the page is not scrolled, and every event carries the point. */
export function clickAt(el: Element, at: ClientPoint): ActionOutcome {
  assertActionable(el);
  fireAt(el, 'pointerover', at);
  fireAt(el, 'mouseover', at);
  fireAt(el, 'pointerdown', at, { buttons: 1 });
  fireAt(el, 'mousedown', at, { buttons: 1 });
  (el as HTMLElement).focus?.({ preventScroll: true });
  fireAt(el, 'pointerup', at);
  fireAt(el, 'mouseup', at);
  // A dispatched click runs the element's default action too (a link is followed, a box ticked).
  fireAt(el, 'click', at, { detail: 1 });
  return about(el, 'clicked', `Clicked ${describeElement(el)} at (${Math.round(at.x)}, ${Math.round(at.y)}) in the page.`);
}

export function hoverAt(el: Element, at: ClientPoint): ActionOutcome {
  assertActionable(el);
  for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove']) fireAt(el, type, at, { bubbles: !type.endsWith('enter') });
  return about(el, 'hovered', `Hovered over ${describeElement(el)} at (${Math.round(at.x)}, ${Math.round(at.y)}) in the page.`);
}
