/** The global shortcut's request is toggled once, by one sidebar; spoken replies. */
import { SHORTCUT_WAIT_MS, VoiceShortcut } from '../../../src/background/voice/shortcut';
import { Speaker } from '../../../src/sidebar/voice/speaker';

test('a press is announced and claimed once, by a sidebar of its window, within the wait', () => {
  let now = 0;
  const announced: (number | undefined)[] = [];
  const shortcut = new VoiceShortcut((w) => void announced.push(w), () => now);
  shortcut.pressed(3);
  expect(announced).toEqual([3]);
  expect(shortcut.claim(7)).toBe(false); // another window's sidebar
  expect(shortcut.claim(3)).toBe(true);
  expect(shortcut.claim(3)).toBe(false); // the same press toggles once
  shortcut.pressed(3);
  now += SHORTCUT_WAIT_MS + 1;
  expect(shortcut.claim(3)).toBe(false); // too late: a sidebar opened much later does not start recording
  expect(new VoiceShortcut(() => undefined).claim(3)).toBe(false);
});

function fakeSynth(voices: number) {
  const spoken: { text: string; lang: string }[] = [];
  let cancelled = 0;
  const synth = {
    speak: (u: SpeechSynthesisUtterance) => void spoken.push({ text: u.text, lang: u.lang }),
    cancel: () => void cancelled++,
    getVoices: () => Array.from({ length: voices }) as SpeechSynthesisVoice[],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
  return { synth, spoken, cancelled: () => cancelled };
}
const utterance = (text: string) => ({ text, lang: '' }) as SpeechSynthesisUtterance;

test('an answer is read without its Markdown or code, in the given language; stop cancels', async () => {
  const f = fakeSynth(2);
  let told = 0;
  const speaker = new Speaker({ synth: f.synth, utterance, onNoVoice: () => void told++ });
  const read = await speaker.speak('**Done.** I clicked [Submit](https://example.com).\n\n```js\nx()\n```', 'de');
  expect(read).toBe('Done. I clicked Submit.');
  expect(f.spoken).toEqual([{ text: 'Done. I clicked Submit.', lang: 'de' }]);
  speaker.stop();
  expect(f.cancelled()).toBe(2); // once before speaking (an older answer), once for stop
  expect(told).toBe(0);
});

test('no voice installed: says so once, reads nothing', async () => {
  const f = fakeSynth(0);
  let told = 0;
  const speaker = new Speaker({ synth: f.synth, utterance, onNoVoice: () => void told++, voicesWaitMs: 5 });
  expect(await speaker.speak('First answer.', 'en')).toBe('');
  expect(await speaker.speak('Second answer.', 'en')).toBe('');
  expect(told).toBe(1);
  expect(f.spoken).toEqual([]);
  const none = new Speaker({ synth: undefined, utterance, onNoVoice: () => void told++ });
  await none.speak('Hi.', 'en');
  expect(told).toBe(2);
});
