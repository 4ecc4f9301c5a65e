import { create } from 'zustand';
import type { RecorderState } from '../voice/machine';

/** What voice input offers the button: start/stop by click, hold-to-talk, Retry and Discard of a kept recording. */
export interface VoiceActions {
  pressed(): void;
  released(): void;
  toggle(): void;
  cancel(): void;
  retry(): void;
  discard(): void;
}

interface VoiceStore {
  /** Undefined until voice capture is wired (the button shows voice as unavailable). */
  actions?: VoiceActions;
  state: RecorderState;
  /** The microphone's level while recording, 0…1. */
  level: number;
  /** Answers cannot be read aloud (no voice installed): said once, until dismissed. */
  noSpeechVoice: boolean;
  connect(actions: VoiceActions): void;
  report(state: RecorderState): void;
  setLevel(level: number): void;
  setNoSpeechVoice(shown: boolean): void;
}

export const useVoice = create<VoiceStore>((set) => ({
  state: { kind: 'idle' },
  level: 0,
  noSpeechVoice: false,
  connect: (actions) => set({ actions }),
  report: (state) => set({ state }),
  setLevel: (level) => set({ level }),
  setNoSpeechVoice: (noSpeechVoice) => set({ noSpeechVoice }),
}));
