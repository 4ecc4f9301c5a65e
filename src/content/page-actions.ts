/**
 * Acting on page elements the way a person would, so that pages and their frameworks react as
 * they do to a real user: pointer and mouse events around a click, the native value setter and
 * input/change events for typing (React and Vue listen for those), requestSubmit for forms.
 * Pure DOM code: it runs in the page agent and under jsdom.
 */
import type { ActionReport } from '../shared/content-protocol';
import { accessibleName, implicitRole } from './reader/interactive';

export class ActionError extends Error {
  constructor(
    readonly code: 'not_found' | 'detached' | 'hidden' | 'disabled' | 'wrong_kind' | 'no_option' | 'timeout' | 'stale' | 'changed',
    message: string,
  ) {
    super(message);
  }
}

export interface ActionOutcome {
  /** What happened, for the model. */
  message: string;
  /** The same in parts, for the user's timeline in their language. */
  report: ActionReport;
}

function win(el: Element): Window & typeof globalThis {
  return (el.ownerDocument.defaultView ?? window) as Window & typeof globalThis;
}

/** The element must still be in the page, visible, and enabled; otherwise say which. */
export function assertActionable(el: Element): void {
  if (!el.isConnected) throw new ActionError('detached', 'The element is no longer on the page. Read the page again for fresh ids.');
  const style = win(el).getComputedStyle?.(el);
  if (style && (style.display === 'none' || style.visibility === 'hidden')) throw new ActionError('hidden', 'The element is hidden, so a user could not use it.');
  if ((el as HTMLElement).hidden) throw new ActionError('hidden', 'The element is hidden, so a user could not use it.');
  if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') throw new ActionError('disabled', 'The element is disabled.');
}

function centre(el: Element): { clientX: number; clientY: number } {
  const r = el.getBoundingClientRect();
  return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
}

function fire(el: Element, type: string, init: MouseEventInit = {}): boolean {
  const w = win(el);
  const options = { bubbles: true, cancelable: true, composed: true, view: w, ...centre(el), ...init };
  const event = type.startsWith('pointer') && 'PointerEvent' in w ? new w.PointerEvent(type, { ...options, pointerType: 'mouse', isPrimary: true }) : new w.MouseEvent(type, options);
  return el.dispatchEvent(event);
}

/** What kind of element it is, as one plain word: its role attribute where plain, else its implicit role, else its tag. */
function roleWord(el: Element): string {
  const role = (el.getAttribute('role') ?? '').trim().toLowerCase();
  if (/^[a-z]{1,20}$/.test(role) && role !== 'generic' && role !== 'presentation') return role;
  const implicit = implicitRole(el);
  return implicit === 'generic' ? el.tagName.toLowerCase().slice(0, 40) : implicit;
}

function visibleName(el: Element): string {
  // innerText is what a person sees; textContent only where there is no layout to ask (jsdom).
  return (el.getAttribute('aria-label') || ((el as HTMLElement).innerText ?? el.textContent) || el.getAttribute('value') || el.getAttribute('placeholder') || el.getAttribute('name') || '').trim().replace(/\s+/g, ' ');
}

/** An element as a user would name it: what kind it is and its visible name (clipped). */
export function elementOf(el: Element): NonNullable<ActionReport['element']> {
  const name = visibleName(el).slice(0, 60);
  return name ? { role: roleWord(el), name } : { role: roleWord(el) };
}

export function describeElement(el: Element): string {
  const name = visibleName(el);
  const tag = el.tagName.toLowerCase();
  return name ? `${tag} "${name.slice(0, 60)}"` : tag;
}

/** An outcome about one element: the model's English and the user's report. */
const about = (el: Element, kind: ActionReport['kind'], message: string, detail?: string): ActionOutcome => ({
  message,
  report: { kind, element: elementOf(el), ...(detail !== undefined ? { detail: detail.slice(0, 200) } : {}) },
});

/** The form a click on `el` would submit, if any. */
export function formSubmittedBy(el: Element): HTMLFormElement | undefined {
  const control = el as HTMLButtonElement | HTMLInputElement;
  const tag = el.tagName;
  const submits = (tag === 'BUTTON' && (control.type || 'submit') === 'submit') || (tag === 'INPUT' && ['submit', 'image'].includes(control.type));
  return submits ? (control.form ?? undefined) : undefined;
}

/** Why the browser will refuse to send `form`: each invalid field and its validation message. */
function validationProblems(form: HTMLFormElement): string | undefined {
  if (form.noValidate || form.checkValidity()) return undefined;
  const fields = Array.from(form.elements).filter((f): f is HTMLInputElement => 'validity' in f && !(f as HTMLInputElement).validity.valid);
  return fields
    .slice(0, 5)
    .map((f) => `${accessibleName(f) || f.name || f.tagName.toLowerCase()}: ${f.validationMessage || 'invalid'}`)
    .join('; ');
}

export function click(el: Element): ActionOutcome {
  assertActionable(el);
  const form = formSubmittedBy(el);
  const problems = form && validationProblems(form);
  el.scrollIntoView?.({ block: 'center', inline: 'center' });
  fire(el, 'pointerover');
  fire(el, 'mouseover');
  fire(el, 'pointerdown');
  fire(el, 'mousedown');
  (el as HTMLElement).focus?.({ preventScroll: true });
  fire(el, 'pointerup');
  fire(el, 'mouseup');
  // HTMLElement.click() fires the click event and runs default actions (links, checkboxes, submit).
  if (typeof (el as HTMLElement).click === 'function') (el as HTMLElement).click();
  else fire(el, 'click');
  if (problems) return about(el, 'clicked_unsent', `Clicked ${describeElement(el)}, but the browser did not send the form: ${problems}.`);
  return about(el, 'clicked', `Clicked ${describeElement(el)}.`);
}

export function hover(el: Element): ActionOutcome {
  assertActionable(el);
  el.scrollIntoView?.({ block: 'center' });
  for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove']) fire(el, type, { bubbles: !type.endsWith('enter') });
  return about(el, 'hovered', `Hovered over ${describeElement(el)}.`);
}

export function isTextField(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  const tag = el.tagName;
  if (tag === 'TEXTAREA') return true;
  if (tag !== 'INPUT') return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden', 'range', 'color'].includes((el as HTMLInputElement).type);
}

/** Sets a value through the prototype's setter, so framework value trackers see a change. */
function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const proto = Object.getPrototypeOf(el) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

function inputEvents(el: Element, data: string | null): void {
  const w = win(el);
  const init: InputEventInit = { bubbles: true, composed: true, data, inputType: 'insertText' };
  el.dispatchEvent(typeof w.InputEvent === 'function' ? new w.InputEvent('input', init) : new w.Event('input', init));
  el.dispatchEvent(new w.Event('change', { bubbles: true }));
}

export function fill(el: Element, text: string, { append = false }: { append?: boolean } = {}): ActionOutcome {
  assertActionable(el);
  el.scrollIntoView?.({ block: 'center' });
  if (isTextField(el)) {
    if (el.readOnly) throw new ActionError('disabled', 'The field is read-only.');
    el.focus({ preventScroll: true });
    setNativeValue(el, append ? el.value + text : text);
    inputEvents(el, text);
    el.dispatchEvent(new (win(el).FocusEvent)('blur', { bubbles: false }));
    const shown = el.type === 'password' ? '••••' : JSON.stringify(el.value.slice(0, 80));
    return about(el, 'typed', `Typed into ${describeElement(el)}; it now holds ${shown}.`);
  }
  if ((el as HTMLElement).isContentEditable || el.getAttribute('contenteditable') === 'true' || el.getAttribute('contenteditable') === '') {
    const html = el as HTMLElement;
    html.focus({ preventScroll: true });
    const doc = el.ownerDocument;
    const selection = doc.getSelection();
    if (selection && !append) {
      selection.selectAllChildren(html);
    }
    // execCommand keeps the editor's undo stack and its own listeners in step; fall back if absent.
    const inserted = typeof doc.execCommand === 'function' && doc.execCommand('insertText', false, text);
    if (!inserted || !html.textContent?.includes(text)) {
      html.textContent = append ? `${html.textContent ?? ''}${text}` : text;
      inputEvents(html, text);
    }
    return about(el, 'typed', `Typed into ${describeElement(el)}.`);
  }
  throw new ActionError('wrong_kind', `${describeElement(el)} is not a text field. Use click, select_option or set_checked for it.`);
}

export function selectOption(el: Element, choice: string): ActionOutcome {
  assertActionable(el);
  if (el.tagName !== 'SELECT') throw new ActionError('wrong_kind', `${describeElement(el)} is not a drop-down list. Click it to open it instead.`);
  const select = el as HTMLSelectElement;
  const wanted = choice.trim().toLowerCase();
  const options = [...select.options];
  const option =
    options.find((o) => o.value === choice) ??
    options.find((o) => o.text.trim().toLowerCase() === wanted) ??
    options.find((o) => o.text.trim().toLowerCase().includes(wanted));
  if (!option) throw new ActionError('no_option', `No option matches "${choice}". Options: ${options.map((o) => o.text.trim()).slice(0, 20).join(', ')}.`);
  if (option.disabled) throw new ActionError('disabled', `The option "${option.text.trim()}" is disabled.`);
  select.focus({ preventScroll: true });
  setNativeValue(select, option.value);
  option.selected = true;
  inputEvents(select, null);
  return about(el, 'selected', `Selected "${option.text.trim()}" in ${describeElement(el)}.`, option.text.trim());
}

export function setChecked(el: Element, checked: boolean): ActionOutcome {
  assertActionable(el);
  const input = el as HTMLInputElement;
  const role = el.getAttribute('role');
  const isNative = el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio');
  const current = isNative ? input.checked : el.getAttribute('aria-checked') === 'true';
  if (!isNative && !['checkbox', 'switch', 'radio', 'menuitemcheckbox'].includes(role ?? '')) {
    throw new ActionError('wrong_kind', `${describeElement(el)} is not a checkbox, radio button or switch.`);
  }
  if (current !== checked) click(el);
  const now = isNative ? input.checked : el.getAttribute('aria-checked') === 'true';
  return about(el, now ? 'checked' : 'unchecked', `${describeElement(el)} is now ${now ? 'checked' : 'unchecked'}.`);
}

/** A key press on the focused element (or the given one). Enter in a form field submits it. */
export function pressKey(doc: Document, key: string, target?: Element): ActionOutcome {
  const el = target ?? doc.activeElement ?? doc.body;
  if (target) (target as HTMLElement).focus?.({ preventScroll: true });
  const w = win(el);
  const init: KeyboardEventInit = { key, code: key.length === 1 ? `Key${key.toUpperCase()}` : key, bubbles: true, cancelable: true, composed: true };
  const proceed = el.dispatchEvent(new w.KeyboardEvent('keydown', init));
  if (key.length === 1) el.dispatchEvent(new w.KeyboardEvent('keypress', init));
  el.dispatchEvent(new w.KeyboardEvent('keyup', init));
  // Synthetic key events have no default action; do the one users rely on most.
  if (proceed && key === 'Enter' && isTextField(el) && el.tagName === 'INPUT' && el.form) {
    el.form.requestSubmit();
    return about(el, 'enter_submitted', `Pressed Enter in ${describeElement(el)}; the form was submitted.`);
  }
  return about(el, 'pressed', `Pressed ${key} on ${describeElement(el)}.`, key);
}

export function submit(el: Element): ActionOutcome {
  const form = el.tagName === 'FORM' ? (el as HTMLFormElement) : el.closest('form');
  if (!form) throw new ActionError('wrong_kind', `${describeElement(el)} is not in a form. Click its submit button instead.`);
  const submitter = el !== form && (el as HTMLButtonElement).type === 'submit' ? (el as HTMLButtonElement) : undefined;
  const problems = validationProblems(form);
  form.requestSubmit(submitter);
  if (problems) return about(form, 'unsent', `The browser did not send the form: ${problems}.`);
  return about(form, 'submitted', 'Submitted the form.');
}

export function scroll(doc: Document, { direction = 'down', amount = 'page', target }: { direction?: 'up' | 'down' | 'top' | 'bottom'; amount?: 'page' | 'half'; target?: Element }): ActionOutcome {
  const w = doc.defaultView!;
  if (target) {
    target.scrollIntoView?.({ block: 'center' });
    return about(target, 'scrolled_to', `Scrolled ${describeElement(target)} into view.`);
  }
  const root = doc.scrollingElement ?? doc.documentElement;
  const step = (amount === 'half' ? 0.5 : 0.85) * (w.innerHeight || 800);
  const top = direction === 'top' ? 0 : direction === 'bottom' ? root.scrollHeight : root.scrollTop + (direction === 'down' ? step : -step);
  w.scrollTo({ top, behavior: 'instant' as ScrollBehavior });
  const atEnd = root.scrollTop + w.innerHeight >= root.scrollHeight - 2;
  return {
    message: `Scrolled ${direction}; now ${Math.round(root.scrollTop)} px from the top of ${Math.round(root.scrollHeight)}${atEnd ? ' (at the bottom)' : ''}.`,
    report: { kind: 'scrolled', detail: direction },
  };
}

/** Resolves when the text or selector appears (or the network-quiet signal), or fails at the timeout. */
export function waitFor(doc: Document, { text, selector, timeoutMs }: { text?: string; selector?: string; timeoutMs: number }, signal?: AbortSignal): Promise<{ message: string }> {
  const found = () => (selector ? doc.querySelector(selector) !== null : true) && (text ? (doc.body?.innerText ?? doc.body?.textContent ?? '').includes(text) : true);
  return new Promise((resolve, reject) => {
    if (found()) return resolve({ message: 'It is already on the page.' });
    const w = doc.defaultView!;
    const observer = new w.MutationObserver(() => {
      if (!found()) return;
      cleanup();
      resolve({ message: `${text ? `"${text}"` : selector} appeared.` });
    });
    const timer = w.setTimeout(() => {
      cleanup();
      reject(new ActionError('timeout', `${text ? `"${text}"` : selector} did not appear within ${Math.round(timeoutMs / 1000)} s.`));
    }, timeoutMs);
    const cleanup = () => {
      observer.disconnect();
      w.clearTimeout(timer);
    };
    signal?.addEventListener('abort', () => {
      cleanup();
      reject(new ActionError('timeout', 'Stopped.'));
    });
    observer.observe(doc, { childList: true, subtree: true, characterData: true });
  });
}
