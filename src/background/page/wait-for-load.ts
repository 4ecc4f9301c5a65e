import type { Tabs } from 'webextension-polyfill';

/** The subset of `browser.tabs` needed to wait for a page load. */
export interface TabEvents {
  get(tabId: number): Promise<{ status?: string }>;
  onUpdated: {
    addListener(cb: (tabId: number, change: Tabs.OnUpdatedChangeInfoType) => void): void;
    removeListener(cb: (tabId: number, change: Tabs.OnUpdatedChangeInfoType) => void): void;
  };
}

/** Resolves once the tab reports `complete` (or at the timeout: a slow page is still usable). */
export function waitForLoad(tabs: TabEvents, tabId: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      tabs.onUpdated.removeListener(listener);
      resolve();
    };
    const listener = (id: number, change: Tabs.OnUpdatedChangeInfoType) => {
      if (id === tabId && change.status === 'complete') finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    tabs.onUpdated.addListener(listener);
    // A navigation that has not started yet still reports the old page as complete: give it a beat.
    setTimeout(() => void tabs.get(tabId).then((t) => t.status === 'complete' && finish(), finish), 150);
  });
}
