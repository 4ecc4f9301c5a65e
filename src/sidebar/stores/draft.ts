import { create } from 'zustand';
import { RECORDS } from '../../shared/store';
import { pageStore } from '../lib/store';

interface DraftState {
  text: string;
  set(text: string): void;
  restore(): Promise<void>;
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** The composer's text, kept in storage so closing the sidebar never loses what was typed. */
export const useDraft = create<DraftState>((set) => ({
  text: '',
  set(text) {
    set({ text });
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void pageStore.set(RECORDS.draft, text), 250);
  },
  async restore() {
    const stored = await pageStore.read(RECORDS.draft);
    if (stored) set((s) => (s.text ? s : { text: stored }));
  },
}));
