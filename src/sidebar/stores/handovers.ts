import { create } from 'zustand';
import type { BgToUiEvent, HandOver } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

export interface HandOversState {
  /** Tasks waiting for the user (a login, a captcha, a choice), oldest first. */
  pending: HandOver[];
  /** Why the last Continue did not reach the background, if it did not. */
  failure: string | undefined;
  load(): Promise<void>;
  /** The user did what was needed: the task goes on. */
  continue(id: string): Promise<void>;
  apply(event: BgToUiEvent): void;
}

/** Tasks handed over to the user, from plans and plain chats alike: listed on load, kept by events. */
export function createHandOversStore(port: BackgroundPort = backgroundPort) {
  return create<HandOversState>((set, get) => ({
    pending: [],
    failure: undefined,

    async load() {
      try {
        set({ pending: await port.request({ type: 'handover/pending' }), failure: undefined });
      } catch (error) {
        set({ failure: error instanceof Error ? error.message : String(error) });
      }
    },

    async continue(id) {
      try {
        const { continued } = await port.request({ type: 'handover/continue', id });
        // Not continued: it had already ended (stopped, or continued from another window).
        set({ failure: undefined, ...(continued ? {} : { pending: get().pending.filter((h) => h.id !== id) }) });
      } catch (error) {
        set({ failure: error instanceof Error ? error.message : String(error) });
      }
    },

    apply(event) {
      if (event.type === 'handover/requested') set({ pending: [...get().pending.filter((h) => h.id !== event.request.id), event.request] });
      if (event.type === 'handover/resolved') set({ pending: get().pending.filter((h) => h.id !== event.id) });
    },
  }));
}

export const useHandOvers = createHandOversStore();
