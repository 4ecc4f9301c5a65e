/** Cheap visibility checks: attributes first, layout and style only when they are needed. */

const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'HEAD', 'META', 'LINK', 'OBJECT', 'EMBED']);

export function isSkippedTag(el: Element): boolean {
  return SKIP_TAGS.has(el.tagName.toUpperCase());
}

/** Hidden by attribute or inline style: no layout needed. */
function hiddenByMarkup(el: Element): boolean {
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  const style = (el as HTMLElement).style;
  return Boolean(style && (style.display === 'none' || style.visibility === 'hidden'));
}

/** Whether an element is hidden from a person looking at the page. */
export function isHidden(el: Element): boolean {
  if (hiddenByMarkup(el)) return true;
  const check = (el as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  // Every supported Firefox has checkVisibility (it follows ancestors and style sheets). Without
  // it there is no layout engine either (jsdom), and the markup checks above are all we judge by.
  return typeof check === 'function' ? !check.call(el, { visibilityProperty: true }) : false;
}

/** In view: intersects the viewport. Without layout (jsdom), unknown counts as in view. */
export function inViewport(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0 && rect.top === 0 && rect.left === 0) return true;
  const win = el.ownerDocument.defaultView;
  const h = win?.innerHeight ?? 0;
  const w = win?.innerWidth ?? 0;
  return rect.bottom > 0 && rect.right > 0 && rect.top < h && rect.left < w;
}

/** Hidden by markup on this element or an ancestor (cheap; used while walking text). */
export function hiddenSubtree(el: Element): boolean {
  return isSkippedTag(el) || hiddenByMarkup(el);
}
