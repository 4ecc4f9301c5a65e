import type { ReadOptions } from '../../shared/content-protocol';
import type { PageSnapshot } from '../../shared/page-snapshot';
import type { PageCache } from './page-cache';
import { PageError, type TabAgent } from './tab-agent';

export interface ReadResult {
  snapshot: PageSnapshot;
  rendered: string;
  fromCache: boolean;
}

/** Reads a tab through the page cache: an unchanged page is not read twice. */
export class PageReader {
  constructor(
    private readonly agent: Pick<TabAgent, 'request'>,
    private readonly cache: PageCache,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Reads the page in a tab. With `scope` (the conversation or run reading it), the page is
   * remembered for that scope's `recall`.
   */
  async read(tabId: number | undefined, options: ReadOptions = {}, scope?: string): Promise<ReadResult> {
    if (tabId === undefined) throw new PageError('no_tab', 'There is no page open to work on.');
    const optionsKey = JSON.stringify(options);
    const state = await this.agent.request(tabId, { type: 'page/ping' });
    const cached = this.cache.fresh(tabId, state.url, optionsKey, state.mutations);
    // A snapshot's element ids are valid only while it is the page's latest: an older one is read afresh.
    if (cached && (cached.snapshot.nonce === undefined || cached.snapshot.nonce === state.snapshot)) {
      if (scope !== undefined) this.cache.remember(cached, scope);
      return { snapshot: cached.snapshot, rendered: cached.rendered, fromCache: true };
    }
    const read = await this.agent.request(tabId, { type: 'page/read', options });
    this.cache.put({ tabId, url: read.snapshot.url, mutations: read.mutations, optionsKey, snapshot: read.snapshot, rendered: read.rendered, readAt: this.now() }, scope);
    return { snapshot: read.snapshot, rendered: read.rendered, fromCache: false };
  }

  invalidate(tabId: number): void {
    this.cache.invalidateTab(tabId);
  }

  /** A page this scope read earlier, by URL, even if its tab has moved on. */
  recall(url: string, scope: string) {
    return this.cache.recall(url, scope);
  }

  knownUrls(scope: string): string[] {
    return this.cache.urls(scope);
  }

  /** The scope is gone (its conversation was deleted): nothing it read stays recallable. */
  forget(scope: string): void {
    this.cache.forget(scope);
  }
}
