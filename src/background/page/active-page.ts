import type { PageAccess } from '../chat-service';
import type { PageReader } from './page-reader';
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

/** Page context for prompts: text for questions, text and elements for actions. */
export function createPageAccess(tabs: TabLookup, reader: PageReader, extensionOrigin: string): PageAccess {
  return {
    async context(forAction, _signal, conversationId) {
      const tab = await currentTab(tabs, extensionOrigin);
      if (tab?.id === undefined) return undefined;
      const restriction = restrictionOf(tab.url);
      if (restriction) return { tabId: tab.id, page: { title: tab.title ?? '', url: tab.url ?? '', body: `(${restriction})` } };
      try {
        const { snapshot, rendered } = await reader.read(tab.id, { maxTokens: forAction ? 2500 : 3000, includeInteractive: forAction }, conversationId);
        return { tabId: tab.id, page: { title: snapshot.title, url: snapshot.url, body: rendered } };
      } catch (error) {
        const reason = error instanceof PageError ? error.message : 'The page could not be read.';
        return { tabId: tab.id, page: { title: tab.title ?? '', url: tab.url ?? '', body: `(${reason})` } };
      }
    },
  };
}
