/**
 * The page agent: reading and acting code, injected into a tab only when FoxAgent needs it
 * (tabs.executeScript), so pages where FoxAgent is never used pay nothing for it.
 */
import type { Browser, Runtime } from 'webextension-polyfill';
import { ContentRequestSchema, PAGE_AGENT_VERSION, type ContentReply, type ContentRequest, type PageAction } from '../shared/content-protocol';
import { findElementById, readPage, renderSnapshotForPrompt } from './dom-reader';
import { ActionError, click, fill, hover, inspectTarget, pressKey, scroll, selectOption, setChecked, submit, waitFor, type ActionOutcome } from './page-actions';
import { highlight } from './visual-highlighter';

declare const browser: Browser;

type AgentWindow = Window & { __foxagentPageAgent?: number };

/** Counts DOM changes, so the background can tell whether its cached snapshot is still good. */
let mutations = 0;

function act(action: PageAction): ActionOutcome {
  const el = action.id === undefined ? undefined : findElementById(document, action.id);
  if (action.id !== undefined && !el) {
    throw new ActionError('not_found', `There is no element [${action.id}] on the page now (the page has changed since it was read).`);
  }
  if (el) highlight(el);
  switch (action.action) {
    case 'click':
      return click(el!);
    case 'hover':
      return hover(el!);
    case 'fill':
      return fill(el!, action.text, { append: action.append });
    case 'select_option':
      return selectOption(el!, action.option);
    case 'set_checked':
      return setChecked(el!, action.checked);
    case 'press_key':
      return pressKey(document, action.key, el);
    case 'submit':
      return submit(el!);
    case 'scroll':
      return scroll(document, { direction: action.direction, target: el });
  }
}

async function handle(request: ContentRequest): Promise<unknown> {
  switch (request.type) {
    case 'page/ping':
      return { version: PAGE_AGENT_VERSION, mutations, url: location.href };
    case 'page/inspect': {
      const el = findElementById(document, request.id);
      return el ? inspectTarget(el) : null;
    }
    case 'page/read': {
      const snapshot = readPage(document, request.options);
      return { snapshot, rendered: renderSnapshotForPrompt(snapshot), mutations };
    }
    case 'page/act': {
      const outcome = act(request.act);
      return { ...outcome, url: location.href };
    }
    case 'page/wait':
      return waitFor(document, { text: request.text, selector: request.selector, timeoutMs: request.timeoutMs });
  }
}

function install(): void {
  const w = window as AgentWindow;
  if (w.__foxagentPageAgent) return;
  w.__foxagentPageAgent = PAGE_AGENT_VERSION;
  new MutationObserver(() => mutations++).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender): Promise<ContentReply> | undefined => {
    if (sender.id !== browser.runtime.id || sender.tab) return undefined;
    const parsed = ContentRequestSchema.safeParse(message);
    if (!parsed.success) return undefined;
    return handle(parsed.data).then(
      (value): ContentReply => ({ value }),
      (error: unknown): ContentReply => ({
        error: { code: error instanceof ActionError ? error.code : 'page_error', message: error instanceof Error ? error.message : String(error) },
      }),
    );
  });
}

install();
