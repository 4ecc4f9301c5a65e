import type { CurrentPage, OpenTab } from '../../shared/protocol';
import type { PageAccess, PageRead, PageRequest } from '../chat-service';
import type { PageReader } from './page-reader';
import { pageForQuestion, summaryParts } from './question-context';
import { english } from '../english';
import { restrictionOf, restrictionSaid } from './restricted';
import { PageError } from './tab-agent';

export interface TabLookup {
  query(filter: { active?: boolean; lastFocusedWindow?: boolean; windowId?: number }): Promise<
    { id?: number; url?: string; title?: string; windowId?: number; lastAccessed?: number; active?: boolean; highlighted?: boolean }[]
  >;
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
  const said = restrictionSaid(tab?.url);
  return { ...(tab?.url ? { url: tab.url } : {}), ...(tab?.title ? { title: tab.title } : {}), ...(said ? { restriction: english(said), restrictionText: said } : {}) };
}

/** The most of a page's text a question reads (about 100,000 tokens); the sections sent are chosen from it. */
const QUESTION_READ_TOKENS = 100_000;
/** Tabs read at the same time for a question over several tabs. */
const PARALLEL_READS = 3;

/** The tabs of the window the chat is in (FoxAgent's own pages left out), for the @ menu and "these tabs". */
export async function openTabs(tabs: TabLookup, extensionOrigin: string): Promise<OpenTab[]> {
  const current = await currentTab(tabs, extensionOrigin);
  const all = await tabs.query(current?.windowId !== undefined ? { windowId: current.windowId } : { lastFocusedWindow: true });
  return all.flatMap((t) => {
    if (t.id === undefined || t.url?.startsWith(extensionOrigin)) return [];
    const restriction = restrictionOf(t.url);
    return [{ id: t.id, title: t.title ?? '', url: t.url ?? '', active: t.id === current?.id, ...(t.highlighted ? { highlighted: true } : {}), ...(restriction ? { restriction } : {}) }];
  });
}

/**
 * Page context for prompts: for actions, text and elements within the agent's budget; for
 * questions, the whole text read once, then the sections that fit (question-context.ts); for a
 * question over several tabs, each tab read (a few at a time) with its share of the budget.
 */
export function createPageAccess(tabs: TabLookup, reader: PageReader, extensionOrigin: string): PageAccess {
  type Tab = { id: number; url?: string; title?: string };
  const unreadable = (tab: Tab, reason: string): PageRead => ({ tabId: tab.id, page: { title: tab.title ?? '', url: tab.url ?? '', body: `(${reason})` } });

  const readOne = async (tab: Tab, request: PageRequest, conversationId?: string): Promise<PageRead> => {
    const restriction = restrictionOf(tab.url);
    if (restriction) return unreadable(tab, restriction);
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
      return unreadable(tab, error instanceof PageError ? error.message : 'The page could not be read.');
    }
  };

  return {
    async context(request, _signal, conversationId) {
      const wanted = request.tabIds ?? [];
      if (!wanted.length) {
        const tab = await currentTab(tabs, extensionOrigin);
        return tab?.id === undefined ? undefined : readOne({ ...tab, id: tab.id }, request, conversationId);
      }
      const known = new Map((await tabs.query({})).flatMap((t) => (t.id === undefined ? [] : [[t.id, t] as const])));
      const found = wanted.map((id) => ({ ...known.get(id), id }));
      if (!request.forAction && found.length > 1) {
        // Each tab gets its share of the budget, and a summary of several tabs reads each as a question.
        const share = { ...request, summary: false, budgetChars: Math.max(1_500, Math.floor(request.budgetChars / found.length)) };
        const reads = await inBatches(found, PARALLEL_READS, (tab) => (known.has(tab.id) ? readOne(tab, share, conversationId) : Promise.resolve(unreadable(tab, 'This tab was closed.'))));
        return { ...reads[0]!, coverage: undefined, pages: reads.map((r) => r.page) };
      }
      const [tab] = found;
      return known.has(tab!.id) ? readOne(tab!, request, conversationId) : unreadable(tab!, 'This tab was closed.');
    },
    tabs: () => openTabs(tabs, extensionOrigin),
  };
}

/** `work` on every item, at most `limit` at a time, results in the items' order. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit) results.push(...(await Promise.all(items.slice(i, i + limit).map(work))));
  return results;
}
