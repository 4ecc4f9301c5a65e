import { create } from 'zustand';

/**
 * The voice button's state. Voice capture, when present, registers how to start and stop
 * (`connect`) and reports its state; until then the button shows that voice input is unavailable.
 */
export type VoiceState = 'unavailable' | 'idle' | 'listening' | 'transcribing' | 'error';

interface VoiceStore {
  state: VoiceState;
  detail?: string;
  toggle?: () => void;
  connect(toggle: () => void): void;
  report(state: VoiceState, detail?: string): void;
}

export const useVoice = create<VoiceStore>((set) => ({
  state: 'unavailable',
  connect: (toggle) => set({ toggle, state: 'idle', detail: undefined }),
  report: (state, detail) => set({ state, detail }),
}));
