import { create } from 'zustand';
import type { BgToUiEvent, CurrentPage } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

interface PageState {
  /** The page the chat is about now (the active tab), as the background last said. */
  page: CurrentPage | undefined;
  load(): Promise<void>;
  apply(event: BgToUiEvent): void;
}

/** Which page the chat is about, asked for when the sidebar opens and kept from `page/current` events. */
export function createPageStore(port: BackgroundPort = backgroundPort) {
  return create<PageState>((set) => ({
    page: undefined,
    async load() {
      set({ page: await port.request({ type: 'page/current' }) });
    },
    apply(event) {
      if (event.type === 'page/current') set({ page: event.page });
    },
  }));
}

export const usePage = createPageStore();
