/**
 * What an element is, for the permission engine and the question the user sees: its role and
 * accessible name, and the form it belongs to or may send. Pure DOM code (also run under jsdom).
 */
import type { TargetInfo } from '../shared/content-protocol';
import { formSubmittedBy, isTextField } from './page-actions';
import { accessibleName, implicitRole } from './reader/interactive';

const PAYMENT_FIELD = /^cc-|card.?(number|no\b)|cardnumber|\bcvc|\bcvv|\bcsc|security.?code|\biban\b/i;

function fieldsOf(form: HTMLFormElement): Element[] {
  return Array.from(form.elements);
}

const isPassword = (f: Element) => f.tagName === 'INPUT' && (f as HTMLInputElement).type === 'password';
const isPayment = (f: Element) => [f.getAttribute('autocomplete'), f.getAttribute('name'), f.id].some((hint) => hint && PAYMENT_FIELD.test(hint));
const hasValue = (f: Element) => Boolean((f as HTMLInputElement).value);

/** A form's name as a person would call it: its label, its legend or heading, the heading before it. */
export function formName(form: HTMLFormElement): string | undefined {
  const own = form.getAttribute('aria-labelledby') || form.getAttribute('aria-label') ? accessibleName(form) : form.getAttribute('title');
  if (own?.trim()) return own.trim();
  const inside = form.querySelector('legend, h1, h2, h3, h4, h5, h6');
  if (inside?.textContent?.trim()) return clip(inside.textContent);
  // The nearest heading before the form, looking back from it and from up to two of its ancestors.
  let node: Element | null = form;
  for (let depth = 0; node && depth < 3; depth++, node = node.parentElement) {
    for (let prev = node.previousElementSibling; prev; prev = prev.previousElementSibling) {
      const heading = /^H[1-6]$/.test(prev.tagName) ? prev : prev.querySelector('h1, h2, h3, h4, h5, h6');
      if (heading?.textContent?.trim()) return clip(heading.textContent);
    }
  }
  return form.getAttribute('name') || form.id || undefined;
}

const clip = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 80);

/**
 * The form `el` belongs to (an ancestor), names with its `form` attribute, or — for a button
 * outside every form, when the page holds a password or card typed into a form — may send by
 * script (a click handler calling form.submit() cannot be told apart from any other).
 */
function formOf(el: Element): { form: HTMLFormElement; via: NonNullable<TargetInfo['formVia']> } | undefined {
  const associated = (el as HTMLInputElement).form as HTMLFormElement | null | undefined;
  const ancestor = el.closest('form');
  if (associated) return { form: associated, via: associated === ancestor ? 'ancestor' : 'attribute' };
  if (ancestor) return { form: ancestor, via: 'ancestor' };
  if (isTextField(el) || el.tagName === 'SELECT') return undefined;
  const filled = Array.from(el.ownerDocument.forms).find((form) => fieldsOf(form).some((f) => (isPassword(f) || isPayment(f)) && hasValue(f)));
  return filled ? { form: filled, via: 'script' } : undefined;
}

/** Whether pressing `key` on (or clicking, without a key) `el` sends its form. */
function sends(el: Element, key: string | undefined): boolean {
  if (key === undefined || key === 'Enter' || key === ' ' || key === 'Space') {
    if (formSubmittedBy(el)) return true;
  }
  // Enter in a single-line field submits its form (implicit submission).
  return key === 'Enter' && el.tagName === 'INPUT' && isTextField(el) && Boolean((el as HTMLInputElement).form ?? el.closest('form'));
}

/**
 * The web address acting on `el` loads, when the page says it in advance: a link's (or its
 * ancestor link's) address for a click or Enter, the address a submitting button sends its form
 * to. Scripted navigation cannot be known, and is not claimed.
 */
function destinationOf(el: Element, key: string | undefined): string | undefined {
  if (key !== undefined && key !== 'Enter') return undefined;
  const link = el.closest('a[href], area[href]') as HTMLAnchorElement | null;
  const submitter = formSubmittedBy(el) ? (el as HTMLButtonElement) : undefined;
  const address = link?.href || (submitter ? submitter.formAction || submitter.form?.action : undefined);
  return address && /^https?:/i.test(address) ? address : undefined;
}

export function inspectTarget(el: Element, key?: string): TargetInfo {
  const control = el as HTMLInputElement;
  const found = formOf(el);
  const fields = found ? fieldsOf(found.form) : [];
  const info: TargetInfo = {
    tag: el.tagName.toLowerCase(),
    type: (el.tagName === 'INPUT' || el.tagName === 'BUTTON' ? control.type : undefined) || undefined,
    role: el.getAttribute('role') || implicitRole(el),
    name: accessibleName(el) || undefined,
    autocomplete: el.getAttribute('autocomplete') || undefined,
    inputName: el.getAttribute('name') || undefined,
    submitsForm: sends(el, key),
    download: el.tagName === 'A' && el.hasAttribute('download'),
    leadsTo: destinationOf(el, key),
  };
  if (found) {
    info.formName = formName(found.form);
    info.formVia = found.via;
    info.formHasPassword = fields.some(isPassword);
    info.formHasPayment = fields.some(isPayment);
  }
  for (const k of Object.keys(info) as (keyof TargetInfo)[]) if (info[k] === undefined) delete info[k];
  return info;
}

/** The element that has focus, looking into open shadow roots and same-origin frames. */
export function focusedElement(doc: Document): Element | undefined {
  let el: Element | null = doc.activeElement;
  for (let depth = 0; el && depth < 10; depth++) {
    const inner: Element | null | undefined = el.shadowRoot?.activeElement ?? (el.tagName === 'IFRAME' ? sameOriginDocument(el as HTMLIFrameElement)?.activeElement : undefined);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el && el !== el.ownerDocument.body && el !== el.ownerDocument.documentElement ? el : undefined;
}

function sameOriginDocument(frame: HTMLIFrameElement): Document | undefined {
  try {
    return frame.contentDocument ?? undefined;
  } catch {
    return undefined;
  }
}

/** Whether two inspections describe the same thing (every fact the decision was made on). */
export function sameTarget(a: TargetInfo | undefined, b: TargetInfo | undefined): boolean {
  const canonical = (t: TargetInfo | undefined) => (t ? JSON.stringify(Object.keys(t).sort().map((k) => [k, t[k as keyof TargetInfo]])) : '');
  return canonical(a) === canonical(b);
}
