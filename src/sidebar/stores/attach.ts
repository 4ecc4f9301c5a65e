import { create } from 'zustand';
import { MAX_MESSAGE_TABS, type TabRef } from '../../shared/conversation';
import type { OpenTab } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

interface AttachState {
  /** Tabs attached to the message being written, shown as chips. */
  attached: TabRef[];
  /** The window's tabs for the @ menu, asked for when the menu opens. */
  open: OpenTab[];
  /** Why the tabs could not be listed, if they could not. */
  failure: string | undefined;
  list(): Promise<void>;
  attach(tabs: readonly OpenTab[]): void;
  detach(id: number): void;
  clear(): void;
}

/** The tabs the next message is about: attached from the composer's @ menu. */
export function createAttachStore(port: BackgroundPort = backgroundPort) {
  return create<AttachState>((set, get) => ({
    attached: [],
    open: [],
    failure: undefined,
    async list() {
      try {
        set({ open: await port.request({ type: 'tabs/list' }), failure: undefined });
      } catch (error) {
        set({ failure: error instanceof Error ? error.message : String(error) });
      }
    },
    attach(tabs) {
      const have = new Set(get().attached.map((t) => t.id));
      const added = tabs.filter((t) => !t.restriction && !have.has(t.id)).map(({ id, title, url }) => ({ id, title, url }));
      set({ attached: [...get().attached, ...added].slice(0, MAX_MESSAGE_TABS) });
    },
    detach(id) {
      set({ attached: get().attached.filter((t) => t.id !== id) });
    },
    clear() {
      set({ attached: [] });
    },
  }));
}

export const useAttach = createAttachStore();
