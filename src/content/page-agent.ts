/**
 * The page agent: reading and acting code, injected into a tab only when FoxAgent needs it
 * (tabs.executeScript), so pages where FoxAgent is never used pay nothing for it. It answers the
 * extension's background only; what it knows of the page's elements stays in its own memory.
 */
import type { Browser, Runtime } from 'webextension-polyfill';
import { ContentRequestSchema, PAGE_AGENT_VERSION, type ContentReply } from '../shared/content-protocol';
import { createPageAgent } from './agent';
import { ActionError } from './page-actions';

declare const browser: Browser;

type AgentWindow = Window & { __foxagentPageAgent?: number };

function install(): void {
  const w = window as AgentWindow;
  if (w.__foxagentPageAgent) return;
  w.__foxagentPageAgent = PAGE_AGENT_VERSION;
  /** Counts DOM changes, so the background can tell whether its cached snapshot is still good. */
  let mutations = 0;
  new MutationObserver(() => mutations++).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  const agent = createPageAgent(document, { mutations: () => mutations });
  browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender): Promise<ContentReply> | undefined => {
    if (sender.id !== browser.runtime.id || sender.tab) return undefined;
    const parsed = ContentRequestSchema.safeParse(message);
    if (!parsed.success) return undefined;
    return agent.handle(parsed.data).then(
      (value): ContentReply => ({ doc: agent.doc, value }),
      (error: unknown): ContentReply => ({
        doc: agent.doc,
        error: { code: error instanceof ActionError ? error.code : 'page_error', message: error instanceof Error ? error.message : String(error) },
      }),
    );
  });
}

install();
