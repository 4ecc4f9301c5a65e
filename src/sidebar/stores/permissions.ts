import { create } from 'zustand';
import type { BgToUiEvent, Decision, PermissionRequest } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

export interface PermissionsState {
  /** Requests waiting for the user, oldest first; the background holds them too. */
  pending: PermissionRequest[];
  /** Why the last answer did not reach the background, if it did not. */
  failure: string | undefined;
  load(): Promise<void>;
  answer(id: string, decision: Decision): Promise<void>;
  apply(event: BgToUiEvent): void;
}

export function createPermissionsStore(port: BackgroundPort = backgroundPort) {
  return create<PermissionsState>((set, get) => ({
    pending: [],
    failure: undefined,

    async load() {
      try {
        set({ pending: await port.request({ type: 'permission/pending' }), failure: undefined });
      } catch (error) {
        set({ failure: error instanceof Error ? error.message : String(error) });
      }
    },

    async answer(id, decision) {
      const request = get().pending.find((p) => p.id === id);
      set({ pending: get().pending.filter((p) => p.id !== id) });
      try {
        await port.request({ type: 'permission/answer', id, decision });
        set({ failure: undefined });
      } catch (error) {
        // Not answered: the question comes back, so the agent is not left waiting unseen.
        if (request) set({ pending: [request, ...get().pending], failure: error instanceof Error ? error.message : String(error) });
      }
    },

    apply(event) {
      if (event.type === 'permission/requested') set({ pending: [...get().pending.filter((p) => p.id !== event.request.id), event.request] });
      if (event.type === 'permission/resolved') set({ pending: get().pending.filter((p) => p.id !== event.id) });
    },
  }));
}

export const usePermissions = createPermissionsStore();
