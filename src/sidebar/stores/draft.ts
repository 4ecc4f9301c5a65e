import browser from 'webextension-polyfill';
import { create } from 'zustand';

const DRAFT_KEY = 'composerDraft';

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
    saveTimer = setTimeout(() => void browser.storage.local.set({ [DRAFT_KEY]: text }), 250);
  },
  async restore() {
    const stored = (await browser.storage.local.get(DRAFT_KEY))[DRAFT_KEY];
    if (typeof stored === 'string' && stored) set((s) => (s.text ? s : { text: stored }));
  },
}));
