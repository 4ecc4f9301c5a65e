import type { PageSnapshot } from '../../shared/page-snapshot';

export interface CachedPage {
  tabId: number;
  url: string;
  /** The page agent's DOM-change counter when the snapshot was taken. */
  mutations: number;
  optionsKey: string;
  snapshot: PageSnapshot;
  rendered: string;
  readAt: number;
}

/**
 * Page snapshots per tab, URL and read options. A snapshot is reused while the page has not
 * changed (same URL, same DOM-change count); navigation drops a tab's entries. The oldest
 * entries roll off.
 *
 * Pages stay recallable by URL, even after their tab moved on, but only by the conversation (or
 * run) that read them: a page read in one chat is never handed to another.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  /** Per scope (a conversation or run), the pages it read, by URL without fragment; newest last. */
  private readonly recallable = new Map<string, Map<string, CachedPage>>();

  constructor(
    private readonly capacity = 40,
    private readonly perScope = 20,
    private readonly scopes = 50,
  ) {}

  private static key(tabId: number, url: string, optionsKey: string): string {
    return `${tabId}|${url}|${optionsKey}`;
  }

  fresh(tabId: number, url: string, optionsKey: string, mutations: number): CachedPage | undefined {
    const entry = this.entries.get(PageCache.key(tabId, url, optionsKey));
    return entry && entry.mutations === mutations ? entry : undefined;
  }

  put(entry: CachedPage, scope?: string): void {
    const key = PageCache.key(entry.tabId, entry.url, entry.optionsKey);
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    if (scope !== undefined) this.remember(entry, scope);
  }

  /** Records that `scope` read this page, so it (and only it) can recall it later. */
  remember(entry: CachedPage, scope: string): void {
    const pages = this.recallable.get(scope) ?? new Map<string, CachedPage>();
    this.recallable.delete(scope);
    this.recallable.set(scope, pages);
    const url = withoutFragment(entry.url);
    pages.delete(url);
    pages.set(url, entry);
    while (pages.size > this.perScope) pages.delete(pages.keys().next().value!);
    while (this.recallable.size > this.scopes) this.recallable.delete(this.recallable.keys().next().value!);
  }

  /** The latest snapshot of a URL that this scope read, even after the tab moved on. */
  recall(url: string, scope: string): CachedPage | undefined {
    return this.recallable.get(scope)?.get(withoutFragment(url));
  }

  /** The scope ended (its conversation was deleted): its pages are no longer recallable. */
  forget(scope: string): void {
    this.recallable.delete(scope);
  }

  /** The tab navigated or closed: its snapshots no longer describe it (they stay recallable). */
  invalidateTab(tabId: number): void {
    for (const [key, entry] of this.entries) if (entry.tabId === tabId) this.entries.set(key, { ...entry, mutations: -1 });
  }

  /** The URLs this scope can recall; without a scope, every cached URL (for tests and benches). */
  urls(scope?: string): string[] {
    if (scope !== undefined) return [...(this.recallable.get(scope)?.values() ?? [])].map((e) => e.url);
    return [...new Set([...this.entries.values()].map((e) => e.url))];
  }
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
