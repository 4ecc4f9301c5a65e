/** The index of visible interactive elements: small integer ids, role, accessible name, value and state. */
import type { PageElement } from '../../shared/page-snapshot';
import { hrefResolver, type HrefResolver } from './href';
import { inViewport, isHidden } from './visibility';
import { walk } from './walk';

const INTERACTIVE_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);

function isCandidate(el: Element): boolean {
  const tag = el.tagName.toUpperCase();
  if (tag === 'A') return el.hasAttribute('href');
  if (tag === 'BUTTON' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'SUMMARY') return true;
  if (tag === 'INPUT') return (el as HTMLInputElement).type !== 'hidden';
  const role = el.getAttribute('role');
  if (role && INTERACTIVE_ROLES.has(role)) return true;
  const editable = el.getAttribute('contenteditable');
  if (editable === '' || editable === 'true' || editable === 'plaintext-only') return true;
  const tabindex = el.getAttribute('tabindex');
  return el.hasAttribute('onclick') && tabindex !== null && Number(tabindex) >= 0;
}

export function implicitRole(el: Element): string {
  const tag = el.tagName.toUpperCase();
  const type = ((el as HTMLInputElement).type || '').toLowerCase();
  switch (tag) {
    case 'A':
      return 'link';
    case 'BUTTON':
    case 'SUMMARY':
      return 'button';
    case 'SELECT':
      return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
    case 'TEXTAREA':
      return 'textbox';
    case 'INPUT':
      if (['checkbox', 'radio'].includes(type)) return type;
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'range') return 'slider';
      if (type === 'number') return 'spinbutton';
      if (type === 'search') return 'searchbox';
      return 'textbox';
    default:
      return el.getAttribute('contenteditable') !== null ? 'textbox' : 'generic';
  }
}

const clip = (s: string, n = 80) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

function cssEscape(value: string): string {
  return typeof CSS !== 'undefined' && typeof CSS.escape === 'function' ? CSS.escape(value) : value.replace(/["\\]/g, '\\$&');
}

function textOf(el: Element): string {
  return (el as HTMLElement).innerText ?? el.textContent ?? '';
}

/** The accessible name, in roughly the order browsers compute it. */
export function accessibleName(el: Element): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = labelledBy.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
    if (text.trim()) return clip(text);
  }
  const aria = el.getAttribute('aria-label');
  if (aria?.trim()) return clip(aria);
  const tag = el.tagName.toUpperCase();
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
    const id = el.getAttribute('id');
    const label = (id && root.querySelector?.(`label[for="${cssEscape(id)}"]`)) || el.closest('label');
    if (label) {
      const clone = label.cloneNode(true) as Element;
      clone.querySelectorAll('input, select, textarea').forEach((c) => c.remove());
      if (clone.textContent?.trim()) return clip(clone.textContent);
    }
    const input = el as HTMLInputElement;
    if (['submit', 'button', 'reset'].includes(input.type) && input.value) return clip(input.value);
    const hint = el.getAttribute('placeholder') || el.getAttribute('title') || el.getAttribute('alt') || el.getAttribute('name');
    if (hint) return clip(hint);
  }
  const text = textOf(el);
  if (text.trim()) return clip(text);
  const img = el.querySelector('img[alt], svg[aria-label], [aria-label]');
  const fromChild = img?.getAttribute('alt') || img?.getAttribute('aria-label');
  return clip(fromChild || el.getAttribute('title') || el.getAttribute('placeholder') || '');
}

function describe(el: Element, id: number, frame: string, inView: boolean, resolve: HrefResolver): PageElement {
  const tag = el.tagName.toLowerCase();
  const entry: PageElement = { id, role: el.getAttribute('role') || implicitRole(el), name: accessibleName(el), tag, inView };
  const input = el as HTMLInputElement;
  if (tag === 'input') entry.type = input.type;
  if (tag === 'input' || tag === 'textarea') {
    if (input.type === 'checkbox' || input.type === 'radio') entry.checked = input.checked;
    else if (input.value) entry.value = input.type === 'password' ? '••••' : clip(input.value, 120);
  }
  if (tag === 'select') {
    const select = el as HTMLSelectElement;
    entry.value = clip(select.selectedOptions[0]?.text ?? '', 80);
    entry.options = [...select.options].slice(0, 20).map((o) => clip(o.text, 40));
  }
  const ariaChecked = el.getAttribute('aria-checked');
  if (ariaChecked !== null && entry.checked === undefined) entry.checked = ariaChecked === 'true';
  if (el.getAttribute('contenteditable') !== null && tag !== 'input') entry.value = clip(textOf(el), 120) || undefined;
  if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') entry.disabled = true;
  if ((el as HTMLInputElement).required || el.getAttribute('aria-required') === 'true') entry.required = true;
  if (tag === 'a') {
    const href = resolve(el);
    if (href && !href.startsWith('javascript:')) entry.href = clip(href, 120);
  }
  if (frame) entry.frame = frame;
  if (entry.value === undefined) delete entry.value;
  return entry;
}

/**
 * Finds the visible interactive elements under `root`, keeps as many as fit `maxChars` (those in
 * view first, then in document order) and numbers them 1… in document order. `nodes` are the live
 * elements in the same order: the page agent keeps them in its own map, so nothing is written into
 * the page.
 */
export function indexInteractive(root: Node, { maxChars }: { maxChars: number }): { elements: PageElement[]; nodes: Element[]; total: number; chars: number } {
  const found: { el: Element; frame: string }[] = [];
  walk(root, ({ node, place, exit }) => {
    if (exit || node.nodeType !== 1) return;
    const el = node as Element;
    if (isCandidate(el)) found.push({ el, frame: place });
  });
  const visible = found.filter(({ el }) => !isHidden(el));
  const withView = visible.map((v, order) => ({ ...v, order, inView: inViewport(v.el) }));
  // Those in view first, then in document order, as long as their lines fit the budget.
  const resolve = hrefResolver();
  const idWidth = String(withView.length).length;
  const chosen: (typeof withView[number] & { entry: PageElement })[] = [];
  let chars = 0;
  for (const v of [...withView].sort((a, b) => Number(b.inView) - Number(a.inView) || a.order - b.order)) {
    const entry = describe(v.el, 0, v.frame, v.inView, resolve);
    const size = describeElement(entry).length + idWidth;
    if (chars + size > maxChars) break;
    chars += size;
    chosen.push({ ...v, entry });
  }
  chosen.sort((a, b) => a.order - b.order);
  const elements = chosen.map(({ entry }, i) => ({ ...entry, id: i + 1 }));
  return { elements, nodes: chosen.map(({ el }) => el), total: visible.length, chars };
}

/** One element as the model reads it: `[id] role "name" value=… (flags)`. */
export function describeElement(e: PageElement): string {
  const parts = [`[${e.id}] ${e.role} ${JSON.stringify(e.name)}`];
  if (e.type && !['text', 'submit', 'button'].includes(e.type) && e.role === 'textbox') parts.push(`type=${e.type}`);
  if (e.value !== undefined) parts.push(`value=${JSON.stringify(e.value)}`);
  if (e.checked !== undefined) parts.push(e.checked ? 'checked' : 'unchecked');
  if (e.options) parts.push(`options: ${e.options.map((o) => JSON.stringify(o)).join(', ')}`);
  if (e.href) parts.push(`→ ${e.href}`);
  const flags = [e.disabled && 'disabled', e.required && 'required', !e.inView && 'off-screen', e.frame].filter(Boolean);
  if (flags.length) parts.push(`(${flags.join(', ')})`);
  return parts.join(' ');
}

