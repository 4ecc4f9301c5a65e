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

  async read(tabId: number | undefined, options: ReadOptions = {}): Promise<ReadResult> {
    if (tabId === undefined) throw new PageError('no_tab', 'There is no page open to work on.');
    const optionsKey = JSON.stringify(options);
    const state = await this.agent.request<{ mutations: number; url: string }>(tabId, { type: 'page/ping' });
    const cached = this.cache.fresh(tabId, state.url, optionsKey, state.mutations);
    if (cached) return { snapshot: cached.snapshot, rendered: cached.rendered, fromCache: true };
    const read = await this.agent.request<{ snapshot: PageSnapshot; rendered: string; mutations: number }>(tabId, { type: 'page/read', options });
    this.cache.put({ tabId, url: read.snapshot.url, mutations: read.mutations, optionsKey, snapshot: read.snapshot, rendered: read.rendered, readAt: this.now() });
    return { snapshot: read.snapshot, rendered: read.rendered, fromCache: false };
  }

  invalidate(tabId: number): void {
    this.cache.invalidateTab(tabId);
  }

  recall(url: string) {
    return this.cache.recall(url);
  }

  knownUrls(): string[] {
    return this.cache.urls();
  }
}
