/**
 * The `browser` provider: the browser's own speech recognition, where it has one (Firefox
 * release and ESR builds do not; it is offered only where detected). No audio is recorded or
 * uploaded by FoxAgent: the browser hears and transcribes, and says when the speaker stopped.
 */

/** One listening: started at once; `finish()` stops it and gives the words heard. */
export interface RecognitionSession {
  finish(): Promise<string>;
  abort(): void;
}

/** Why recognition failed, by the browser's error name. */
export type RecognitionFaultCode = 'mic_denied' | 'mic_missing' | 'recognition_failed';

export class RecognitionError extends Error {
  constructor(readonly code: RecognitionFaultCode, detail: string) {
    super(detail);
  }
}

export function recognitionFaultCode(error: string): RecognitionFaultCode {
  if (error === 'not-allowed' || error === 'service-not-allowed') return 'mic_denied';
  if (error === 'audio-capture') return 'mic_missing';
  return 'recognition_failed';
}

/** The part of the Web Speech API used here. */
interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { resultIndex: number; results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => SpeechRecognitionLike;

/** The browser's recognition, if it has one (standard or prefixed). */
export function recognitionConstructor(scope: object): RecognitionConstructor | undefined {
  const found = (scope as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown }).SpeechRecognition ?? (scope as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition;
  return typeof found === 'function' ? (found as RecognitionConstructor) : undefined;
}

/**
 * Starts listening in `lang` ('' for the browser's language). `onEnded` is called when the
 * browser ends it by itself (the speaker stopped): the owner then calls `finish()`.
 */
export function listen(Recognition: RecognitionConstructor, lang: string, onEnded: () => void): RecognitionSession {
  const recognition = new Recognition();
  recognition.lang = lang;
  recognition.continuous = false;
  recognition.interimResults = false;
  let heard = '';
  let failure: RecognitionError | undefined;
  let ended = false;
  const waiting: { resolve(text: string): void; reject(error: Error): void }[] = [];
  const settle = () => waiting.splice(0).forEach((w) => (failure ? w.reject(failure) : w.resolve(heard.trim())));
  recognition.onresult = (event) => {
    for (let i = event.resultIndex; i < event.results.length; i++) {
      const result = event.results[i]!;
      if (result.isFinal && result[0]) heard += `${result[0].transcript} `;
    }
  };
  // 'no-speech' is not a failure: nothing was heard, and the transcript is empty.
  recognition.onerror = (event) => void (event.error === 'no-speech' || event.error === 'aborted' ? undefined : (failure = new RecognitionError(recognitionFaultCode(event.error), event.error)));
  recognition.onend = () => {
    ended = true;
    settle();
    onEnded();
  };
  recognition.start();
  return {
    finish: () =>
      new Promise<string>((resolve, reject) => {
        waiting.push({ resolve, reject });
        if (ended) settle();
        else recognition.stop();
      }),
    abort: () => recognition.abort(),
  };
}
