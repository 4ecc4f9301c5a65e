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
 * entries roll off, but recently read pages stay recallable by URL.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();

  constructor(private readonly capacity = 40) {}

  private static key(tabId: number, url: string, optionsKey: string): string {
    return `${tabId}|${url}|${optionsKey}`;
  }

  fresh(tabId: number, url: string, optionsKey: string, mutations: number): CachedPage | undefined {
    const entry = this.entries.get(PageCache.key(tabId, url, optionsKey));
    return entry && entry.mutations === mutations ? entry : undefined;
  }

  put(entry: CachedPage): void {
    const key = PageCache.key(entry.tabId, entry.url, entry.optionsKey);
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The latest snapshot of a URL, from any tab, even after the tab moved on. */
  recall(url: string): CachedPage | undefined {
    const matches = [...this.entries.values()].filter((e) => e.url === url || e.url.replace(/#.*$/, '') === url.replace(/#.*$/, ''));
    return matches.sort((a, b) => b.readAt - a.readAt)[0];
  }

  /** The tab navigated or closed: its snapshots no longer describe it (they stay recallable). */
  invalidateTab(tabId: number): void {
    for (const [key, entry] of this.entries) if (entry.tabId === tabId) this.entries.set(key, { ...entry, mutations: -1 });
  }

  urls(): string[] {
    return [...new Set([...this.entries.values()].map((e) => e.url))];
  }
}
