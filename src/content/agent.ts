/**
 * The page agent's answers to the background's requests, for one document. Element ids live in
 * its private registry; an inspection says which snapshot, document and origin it was made in,
 * and an action is carried out only if all of these, and the element itself, are still the ones
 * the permission engine judged and the user approved. Pure DOM code (also run under jsdom).
 */
import { PAGE_AGENT_VERSION, type ContentReplyMap, type ContentRequest, type ContentRequestType, type ElementRef, type PageAction, type TargetInfo } from '../shared/content-protocol';
import { readPage, renderSnapshotForPrompt } from './dom-reader';
import { ElementRegistry } from './element-registry';
import { ActionError, click, fill, hover, pressKey, scroll, selectOption, setChecked, submit, waitFor, type ActionOutcome } from './page-actions';
import { focusedElement, inspectTarget, sameTarget } from './target';
import { highlight } from './visual-highlighter';
import { lookAt } from './vision/look';
import { clickAt, elementAtScreenPoint, hoverAt } from './vision/point';

export interface PageAgent {
  /** The answer to one request, of the shape `ContentReplyMap` gives for its type. */
  handle(request: ContentRequest): Promise<ContentReplyMap[ContentRequestType]>;
  /** This document's token, sent with every reply so the background notices a replaced document. */
  readonly doc: string;
}

const READ_AGAIN = 'read it again';

export function createPageAgent(doc: Document, { mutations }: { mutations: () => number }): PageAgent {
  const registry = new ElementRegistry(doc);
  const origin = () => doc.location?.origin ?? new URL(doc.URL).origin;

  /** The element an action or inspection is about: by id in the snapshot, or for a key press with no id the focused one. */
  const targetOf = (snapshot: string, id: number | undefined, keyPress: boolean): Element | undefined =>
    id !== undefined ? registry.resolve(snapshot, id) : keyPress ? focusedElement(doc) : undefined;

  /** The same document and origin, and for an element by id, the same (latest) snapshot. */
  const checkPage = (ref: ElementRef, byId: boolean) => {
    if (ref.doc !== registry.docToken) throw new ActionError('stale', `The page was replaced (it navigated or was rewritten) since it was read; ${READ_AGAIN}.`);
    if (ref.origin !== origin()) throw new ActionError('stale', `The page is now on ${origin()}, not ${ref.origin} where it was read; ${READ_AGAIN}.`);
    if (byId && ref.snapshot !== registry.nonce) throw new ActionError('stale', `The page was read again since this action was prepared; ${READ_AGAIN}.`);
  };

  function act(action: PageAction, expect: ElementRef & { target?: TargetInfo }): ActionOutcome {
    checkPage(expect, action.id !== undefined);
    const keyed = action.action === 'press_key' ? action.key : undefined;
    const el = targetOf(expect.snapshot, action.id, action.action === 'press_key');
    const now = el ? inspectTarget(el, keyed) : undefined;
    if (!sameTarget(now, expect.target)) {
      throw new ActionError('changed', `The page changed since you approved it (${what(expect.target)} is now ${what(now)}); ${READ_AGAIN} and decide again.`);
    }
    if (el) highlight(el);
    switch (action.action) {
      case 'click':
        return action.at ? clickAt(el!, action.at) : click(el!);
      case 'hover':
        return action.at ? hoverAt(el!, action.at) : hover(el!);
      case 'fill':
        return fill(el!, action.text, { append: action.append });
      case 'select_option':
        return selectOption(el!, action.option);
      case 'set_checked':
        return setChecked(el!, action.checked);
      case 'press_key':
        return pressKey(doc, action.key, el);
      case 'submit':
        return submit(el!);
      case 'scroll':
        return scroll(doc, { direction: action.direction, target: el });
    }
  }

  return {
    get doc() {
      return registry.docToken;
    },
    async handle(request) {
      switch (request.type) {
        case 'page/ping':
          return { version: PAGE_AGENT_VERSION, mutations: mutations(), url: doc.URL, doc: registry.docToken, snapshot: registry.nonce } satisfies ContentReplyMap['page/ping'];
        case 'page/inspect': {
          if (request.point) {
            // The element at a screenshot point joins the latest snapshot, and is judged and acted on by that id.
            const found = elementAtScreenPoint(doc, request.point);
            const id = registry.adopt(found.el);
            if (id === undefined) throw new ActionError('stale', `The page has not been read since it loaded; ${READ_AGAIN}.`);
            const ref: ElementRef = { snapshot: registry.nonce!, doc: registry.docToken, origin: origin() };
            return { ref, target: inspectTarget(found.el), pointed: { id, at: found.at } } satisfies ContentReplyMap['page/inspect'];
          }
          const ref: ElementRef = { snapshot: request.snapshot, doc: registry.docToken, origin: origin() };
          checkPage(ref, request.id !== undefined);
          const el = targetOf(request.snapshot, request.id, request.key !== undefined);
          return { ref, target: el ? inspectTarget(el, request.key) : undefined } satisfies ContentReplyMap['page/inspect'];
        }
        case 'page/read': {
          const snapshot = readPage(doc, { ...request.options, register: (nodes) => registry.issue(nodes) });
          return { snapshot, rendered: renderSnapshotForPrompt(snapshot, { header: request.options.header }), mutations: mutations() } satisfies ContentReplyMap['page/read'];
        }
        case 'page/act':
          return { ...act(request.act, request.expect), url: doc.URL } satisfies ContentReplyMap['page/act'];
        case 'page/wait':
          return (await waitFor(doc, { text: request.text, selector: request.selector, timeoutMs: request.timeoutMs })) satisfies ContentReplyMap['page/wait'];
        case 'page/look': {
          // Marks are numbered as the latest snapshot; a page never read gets its snapshot now.
          if (!registry.nonce) readPage(doc, { maxTokens: 1000, register: (nodes) => registry.issue(nodes) });
          return lookAt(doc, registry.live(), registry.nonce) satisfies ContentReplyMap['page/look'];
        }
      }
    },
  };
}

function what(target: TargetInfo | undefined): string {
  if (!target) return 'nothing';
  const form = target.formName ? ` in form “${target.formName}”` : '';
  return `${target.role ?? target.tag} “${target.name ?? ''}”${form}`;
}
