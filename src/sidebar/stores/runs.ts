import { create } from 'zustand';
import type { BgToUiEvent, RunInfo } from '../../shared/protocol';
import { backgroundPort, type BackgroundPort } from '../../ui/port';

interface RunsState {
  /** The runs under way in the background, whichever chat, window or source started them. */
  runs: RunInfo[];
  load(): Promise<void>;
  /** Stops every run working on this conversation. */
  stopConversation(conversationId: string): Promise<void>;
  stop(runId: string): Promise<void>;
  apply(event: BgToUiEvent): void;
}

/**
 * The sidebar's view of the run registry: listed when the sidebar opens, kept current by the
 * background's `runs/changed` events, and the only way the sidebar stops work.
 */
export function createRunsStore(port: BackgroundPort = backgroundPort) {
  return create<RunsState>((set, get) => ({
    runs: [],
    async load() {
      set({ runs: await port.request({ type: 'runs/list' }) });
    },
    async stopConversation(conversationId) {
      // A run the sidebar has not heard of yet (it opened a moment ago) is asked for.
      const known = get().runs.filter((run) => run.conversationId === conversationId);
      const runs = known.length ? known : (await port.request({ type: 'runs/list' })).filter((run) => run.conversationId === conversationId);
      await Promise.all(runs.map((run) => get().stop(run.id)));
    },
    async stop(runId) {
      await port.request({ type: 'runs/stop', runId });
    },
    apply(event) {
      if (event.type === 'runs/changed') set({ runs: event.runs });
    },
  }));
}

export const useRuns = createRunsStore();
