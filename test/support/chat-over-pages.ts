/**
 * A chat service whose pages are given in memory: the real chat service, page access, router and
 * provider (against the scripted model server), over tabs whose readable text the test chooses.
 * The first tab is the active one. Every read is recorded with the tab and the options it used.
 */
import { ChatService } from '../../src/background/chat-service';
import { ConversationStore } from '../../src/background/conversations';
import { createPageAccess } from '../../src/background/page/active-page';
import type { PageReader } from '../../src/background/page/page-reader';
import type { PermissionGate } from '../../src/background/permissions/gate';
import type { ReadOptions } from '../../src/shared/content-protocol';
import type { PageSnapshot } from '../../src/shared/page-snapshot';
import { DEFAULT_SETTINGS } from '../../src/shared/settings';
import { allowAll, pageWorld, routerFor } from './agent-fixtures';
import { MemoryStorage } from './memory-storage';

export interface MemoryTab {
  id: number;
  url: string;
  title: string;
  text: string;
}

export function snapshotOf(tab: Omit<MemoryTab, 'id'>): PageSnapshot {
  return { url: tab.url, title: tab.title, text: tab.text, elements: [], frames: [], truncated: { text: false, elements: false, totalTextChars: tab.text.length, totalElements: 0 }, source: 'readability' };
}

export function chatOverPages({ serverUrl, model, tabs, selected = [], gate = allowAll }: { serverUrl: string; model: string; tabs: readonly MemoryTab[]; selected?: number[]; gate?: PermissionGate }) {
  const store = new ConversationStore(new MemoryStorage());
  const reads: { tabId: number; options: ReadOptions }[] = [];
  const reader = {
    read: async (tabId: number, options: ReadOptions) => {
      reads.push({ tabId, options });
      const tab = tabs.find((t) => t.id === tabId)!;
      return { snapshot: snapshotOf(tab), rendered: tab.text, fromCache: false };
    },
  } as unknown as PageReader;
  const lookup = {
    query: async (filter: { active?: boolean }) =>
      tabs.filter((_, i) => !filter.active || i === 0).map((t, i) => ({ id: t.id, url: t.url, title: t.title, windowId: 1, active: i === 0, highlighted: selected.includes(t.id) })),
  };
  const chat = new ChatService({
    store,
    emit: () => undefined,
    session: async () => ({ router: routerFor(serverUrl, 'ollama'), settings: { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, baseUrl: serverUrl, model } }, model }),
    tools: pageWorld().tools,
    gate,
    page: createPageAccess(lookup, reader, 'moz-extension://foxagent'),
    saveIntervalMs: 0,
  });
  return { store, chat, reads };
}

/** Waits until the conversation's run has ended. */
export async function settled(chat: ChatService, id: string): Promise<void> {
  for (let i = 0; i < 400 && chat.isRunning(id); i++) await new Promise((r) => setTimeout(r, 5));
}
