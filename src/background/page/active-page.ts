import type { CurrentPage } from '../../shared/protocol';
import type { PageAccess } from '../chat-service';
import type { PageReader } from './page-reader';
import { pageForQuestion, summaryParts } from './question-context';
import { restrictionOf } from './restricted';
import { PageError } from './tab-agent';

export interface TabLookup {
  query(filter: { active?: boolean; lastFocusedWindow?: boolean; windowId?: number }): Promise<{ id?: number; url?: string; title?: string; windowId?: number; lastAccessed?: number }[]>;
}

/**
 * The page the user means: the active tab of the focused window. When that tab is one of
 * FoxAgent's own pages (the sidebar opened as a tab), the web page the user looked at last.
 */
export async function currentTab(tabs: TabLookup, extensionOrigin: string) {
  const [active] = await tabs.query({ active: true, lastFocusedWindow: true });
  if (!active?.url?.startsWith(extensionOrigin)) return active;
  const siblings = await tabs.query({ windowId: active.windowId });
  return siblings
    .filter((t) => t.url && !t.url.startsWith(extensionOrigin))
    .sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
}

/** The page the chat is about now, and why FoxAgent cannot read or act on it, if it cannot. */
export async function currentPage(tabs: TabLookup, extensionOrigin: string): Promise<CurrentPage> {
  const tab = await currentTab(tabs, extensionOrigin);
  const restriction = restrictionOf(tab?.url);
  return { ...(tab?.url ? { url: tab.url } : {}), ...(tab?.title ? { title: tab.title } : {}), ...(restriction ? { restriction } : {}) };
}

/** The most of a page's text a question reads (about 100,000 tokens); the sections sent are chosen from it. */
const QUESTION_READ_TOKENS = 100_000;

/**
 * Page context for prompts: for actions, text and elements within the agent's budget; for
 * questions, the whole text read once, then the sections that fit (question-context.ts).
 */
export function createPageAccess(tabs: TabLookup, reader: PageReader, extensionOrigin: string): PageAccess {
  return {
    async context(request, _signal, conversationId) {
      const tab = await currentTab(tabs, extensionOrigin);
      if (tab?.id === undefined) return undefined;
      const restriction = restrictionOf(tab.url);
      if (restriction) return { tabId: tab.id, page: { title: tab.title ?? '', url: tab.url ?? '', body: `(${restriction})` } };
      try {
        if (request.forAction) {
          const { snapshot, rendered } = await reader.read(tab.id, { maxTokens: 2500, includeInteractive: true, header: false }, conversationId);
          return { tabId: tab.id, page: { title: snapshot.title, url: snapshot.url, body: rendered } };
        }
        const { snapshot } = await reader.read(tab.id, { maxTokens: QUESTION_READ_TOKENS, includeInteractive: false }, conversationId);
        const page = { title: snapshot.title, url: snapshot.url };
        if (request.summary && snapshot.text.length > request.budgetChars && !request.focus) {
          return { tabId: tab.id, page: { ...page, body: '' }, parts: summaryParts(snapshot, request.budgetChars) };
        }
        const { body, coverage } = pageForQuestion(snapshot, request.question, request.budgetChars, request.focus);
        return { tabId: tab.id, page: { ...page, body }, coverage };
      } catch (error) {
        const reason = error instanceof PageError ? error.message : 'The page could not be read.';
        return { tabId: tab.id, page: { title: tab.title ?? '', url: tab.url ?? '', body: `(${reason})` } };
      }
    },
  };
}
