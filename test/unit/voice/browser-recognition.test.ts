/** The browser's own recognition through a stand-in with the Web Speech API's shape and event order. */
import { listen, RecognitionError, recognitionConstructor, recognitionFaultCode } from '../../../src/sidebar/voice/browser-recognition';

type Result = ArrayLike<{ transcript: string }> & { isFinal: boolean };
const result = (transcript: string, isFinal = true): Result => Object.assign([{ transcript }], { isFinal });

/** Plays the events a recogniser sends: results as it hears, then error and end when stopped. */
class FakeRecognition {
  static last: FakeRecognition;
  lang = '';
  continuous = true;
  interimResults = true;
  onresult: ((e: { resultIndex: number; results: ArrayLike<Result> }) => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  calls: string[] = [];
  results: Result[] = [];
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.calls.push('start');
  }
  stop() {
    this.calls.push('stop');
    setTimeout(() => this.onend?.(), 0);
  }
  abort() {
    this.calls.push('abort');
  }
  hear(...heard: Result[]) {
    const resultIndex = this.results.length;
    this.results.push(...heard);
    this.onresult?.({ resultIndex, results: this.results });
  }
}

test('only final results count; finish stops it and gives the words; settings: one utterance, the language', async () => {
  let ended = 0;
  const session = listen(FakeRecognition, 'de-DE', () => void ended++);
  const r = FakeRecognition.last;
  expect([r.lang, r.continuous, r.interimResults, r.calls]).toEqual(['de-DE', false, false, ['start']]);
  r.hear(result('öffne', false));
  r.hear(result('öffne die'), result('Seite'));
  expect(await session.finish()).toBe('öffne die Seite');
  expect(r.calls).toEqual(['start', 'stop']);
  expect(ended).toBe(1);
});

test('ended by the browser before finish: finish answers at once with what was heard', async () => {
  const session = listen(FakeRecognition, 'en', () => undefined);
  FakeRecognition.last.hear(result('stop'));
  FakeRecognition.last.onend?.();
  expect(await session.finish()).toBe('stop');
  expect(FakeRecognition.last.calls).toEqual(['start']);
});

test('an error is a fault with its code; “no-speech” is an empty transcript, not a fault', async () => {
  const denied = listen(FakeRecognition, 'en', () => undefined);
  FakeRecognition.last.onerror?.({ error: 'not-allowed' });
  await expect(denied.finish()).rejects.toEqual(new RecognitionError('mic_denied', 'not-allowed'));
  const silent = listen(FakeRecognition, 'en', () => undefined);
  FakeRecognition.last.onerror?.({ error: 'no-speech' });
  expect(await silent.finish()).toBe('');
  expect(recognitionFaultCode('audio-capture')).toBe('mic_missing');
  expect(recognitionFaultCode('network')).toBe('recognition_failed');
});

test('found by its standard or prefixed name, never assumed', () => {
  expect(recognitionConstructor({})).toBeUndefined();
  expect(recognitionConstructor({ SpeechRecognition: FakeRecognition })).toBe(FakeRecognition);
  expect(recognitionConstructor({ webkitSpeechRecognition: FakeRecognition })).toBe(FakeRecognition);
  expect(recognitionConstructor({ SpeechRecognition: 'not a constructor' })).toBeUndefined();
});
