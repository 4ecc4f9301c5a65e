/**
 * A walk over everything a person can see: the document, open shadow roots and same-origin
 * iframes, without recursion (deeply nested pages cannot exhaust the stack).
 */
import { hiddenSubtree } from './visibility';

export interface FrameInfo {
  src: string;
  sameOrigin: boolean;
}

/** Where a node lives: '' for the main document, 'shadow', or 'iframe: <src>'. */
export type Place = string;

export interface Visit {
  node: Node;
  place: Place;
  /** True when leaving an element (its children were visited). */
  exit: boolean;
}

export function frameDocument(frame: HTMLIFrameElement | HTMLFrameElement): Document | undefined {
  try {
    const doc = frame.contentDocument;
    return doc && doc.body ? doc : undefined;
  } catch {
    return undefined; // cross-origin: SecurityError
  }
}

/**
 * Visits nodes depth-first. `enter` can return false to skip an element's subtree. Frames the
 * walk cannot read are reported in `frames`.
 */
export function walk(root: Node, visit: (v: Visit) => boolean | void, frames: FrameInfo[] = [], place: Place = ''): FrameInfo[] {
  const stack: { node: Node; place: Place; exit: boolean }[] = [{ node: root, place, exit: false }];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.exit) {
      visit(item);
      continue;
    }
    const node = item.node;
    if (node.nodeType === 1) {
      const el = node as Element;
      if (hiddenSubtree(el)) continue;
      if (visit(item) === false) continue;
      stack.push({ node, place: item.place, exit: true });
      const tag = el.tagName.toUpperCase();
      if (tag === 'IFRAME' || tag === 'FRAME') {
        const src = (el as HTMLIFrameElement).src || el.getAttribute('src') || 'about:blank';
        const doc = frameDocument(el as HTMLIFrameElement);
        frames.push({ src, sameOrigin: Boolean(doc) });
        if (doc?.body) stack.push({ node: doc.body, place: `iframe: ${src}`, exit: false });
        continue;
      }
      const children: Node[] = [];
      const shadow = (el as Element & { shadowRoot: ShadowRoot | null }).shadowRoot;
      if (shadow) for (let c = shadow.firstChild; c; c = c.nextSibling) children.push(c);
      for (let c = el.firstChild; c; c = c.nextSibling) children.push(c);
      const childPlace = shadow ? (item.place || 'shadow') : item.place;
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i]!;
        const inShadow = shadow && child.parentNode === shadow;
        stack.push({ node: child, place: inShadow ? childPlace : item.place, exit: false });
      }
    } else if (node.nodeType === 3 || node.nodeType === 9 || node.nodeType === 11) {
      if (visit(item) === false) continue;
      if (node.nodeType !== 3) for (let c = node.lastChild; c; c = c.previousSibling) stack.push({ node: c, place: item.place, exit: false });
    }
  }
  return frames;
}

/** The frames a person can see under `root`, and whether each can be read. */
export function listFrames(root: Node): FrameInfo[] {
  return walk(root, () => undefined);
}
