import { create } from 'zustand';
import type { ConversationSummary } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';
import { useChat } from './chat';

interface ConversationsState {
  open: boolean;
  query: string;
  items: ConversationSummary[];
  toggle(): void;
  search(query: string): Promise<void>;
  switchTo(id: string): Promise<void>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/** The list of chats: search, switch, rename, delete. The background owns the data. */
export function createConversationsStore(port: BackgroundPort = backgroundPort) {
  return create<ConversationsState>((set, get) => ({
    open: false,
    query: '',
    items: [],
    toggle() {
      const open = !get().open;
      set({ open });
      if (open) void get().search(get().query);
    },
    async search(query) {
      set({ query });
      set({ items: await port.request({ type: 'conversation/list', query }) });
    },
    async switchTo(id) {
      const conversation = await port.request({ type: 'conversation/get', conversationId: id });
      useChat.getState().show(conversation);
      set({ open: false });
    },
    async rename(id, title) {
      await port.request({ type: 'conversation/rename', conversationId: id, title });
      await get().search(get().query);
    },
    async remove(id) {
      const next = await port.request({ type: 'conversation/delete', conversationId: id });
      useChat.getState().show(next);
      await get().search(get().query);
    },
  }));
}

export const useConversations = createConversationsStore();
