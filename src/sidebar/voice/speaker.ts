/**
 * Spoken replies: a final answer read aloud with the browser's speech synthesis. New input
 * (typing, recording, sending) stops it. Where no voice is installed, it says so once.
 */
import { speechChunks, textForSpeech } from './speech-text';

export interface SpeakerDeps {
  synth: Pick<SpeechSynthesis, 'speak' | 'cancel' | 'getVoices' | 'addEventListener' | 'removeEventListener'> | undefined;
  utterance(text: string): SpeechSynthesisUtterance;
  /** Called once, the first time an answer could not be read because there is no voice. */
  onNoVoice(): void;
  /** How long to wait for the voice list, which some systems fill only after a moment. */
  voicesWaitMs?: number;
}

export class Speaker {
  private toldNoVoice = false;

  constructor(private readonly deps: SpeakerDeps) {}

  /** Reads the answer aloud in `lang` (the page's language); returns what it read, '' if nothing. */
  async speak(markdown: string, lang: string): Promise<string> {
    const { synth } = this.deps;
    const text = textForSpeech(markdown);
    if (!text) return '';
    if (!synth || !(await this.hasVoices(synth))) {
      if (!this.toldNoVoice) this.deps.onNoVoice();
      this.toldNoVoice = true;
      return '';
    }
    synth.cancel();
    for (const chunk of speechChunks(text)) {
      const utterance = this.deps.utterance(chunk);
      utterance.lang = lang;
      synth.speak(utterance);
    }
    return text;
  }

  stop(): void {
    this.deps.synth?.cancel();
  }

  private async hasVoices(synth: NonNullable<SpeakerDeps['synth']>): Promise<boolean> {
    if (synth.getVoices().length) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        synth.removeEventListener('voiceschanged', done);
        resolve();
      };
      const timer = setTimeout(done, this.deps.voicesWaitMs ?? 1000);
      synth.addEventListener('voiceschanged', done);
    });
    return synth.getVoices().length > 0;
  }
}
