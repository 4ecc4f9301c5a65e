/**
 * A brief outline around the element about to be acted on, so the user sees what the agent
 * touches. It is drawn in a separate overlay element and never changes the page's own styles.
 */
const OVERLAY_ID = 'foxagent-highlight';

export function highlight(el: Element, durationMs = 600): void {
  const doc = el.ownerDocument;
  const rect = el.getBoundingClientRect();
  if (!doc.body || (rect.width === 0 && rect.height === 0)) return;
  doc.getElementById(OVERLAY_ID)?.remove();
  const box = doc.createElement('div');
  box.id = OVERLAY_ID;
  box.setAttribute('aria-hidden', 'true');
  Object.assign(box.style, {
    position: 'fixed',
    left: `${rect.left - 3}px`,
    top: `${rect.top - 3}px`,
    width: `${rect.width + 6}px`,
    height: `${rect.height + 6}px`,
    border: '3px solid #ff7139',
    borderRadius: '4px',
    boxShadow: '0 0 0 2px rgba(255,113,57,.35)',
    pointerEvents: 'none',
    zIndex: '2147483647',
    transition: 'opacity .2s',
  });
  doc.body.appendChild(box);
  doc.defaultView?.setTimeout(() => box.remove(), durationMs);
}
