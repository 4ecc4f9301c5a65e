/** @jest-environment jsdom */
/**
 * The options page's Voice section against a fake background at the other end of the real port:
 * presets fill the address and model, the browser provider only where the browser has
 * recognition, the save keeps the rest of the settings, the key rule, and Test's report.
 */
import { background, FakeFailure } from '../../support/fake-extension';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../../src/shared/settings';
import { DEFAULT_VOICE_SETTINGS, type VoiceSettings } from '../../../src/shared/voice';
import { VoiceSection } from '../../../src/options/VoiceSection';
import { choosePreset, hasSpeechRecognition, offeredProviders, parseVoiceNumbers } from '../../../src/options/voice-form';

let stored: Settings;
beforeEach(() => {
  background.requests.length = 0;
  stored = { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, model: 'qwen2.5:3b' } };
  background.handlers = {
    'settings/get': () => stored,
    'settings/save': (r) => (stored = SettingsSchema.parse(r.settings)),
  };
});
afterEach(() => {
  cleanup();
  delete (window as unknown as { SpeechRecognition?: unknown }).SpeechRecognition;
});

const field = <T extends HTMLElement>(testId: string) => within(screen.getByTestId('voice-section')).getByTestId(testId) as T;
const saves = () => background.sent('settings/save').map((r) => r.settings);

async function renderSection(voice: Partial<VoiceSettings> = {}) {
  stored = { ...stored, voice: { ...DEFAULT_VOICE_SETTINGS, ...voice } };
  render(<VoiceSection />);
  await waitFor(() => expect(field<HTMLInputElement>('voice-base-url').value).toBe(stored.voice.baseUrl));
}

async function press(testId: string) {
  await act(async () => void fireEvent.click(field(testId)));
}

const status = () => field('voice-status');

test('choosing a preset fills in its base URL and model; whisper.cpp asks for no model', async () => {
  await renderSection();
  fireEvent.change(field('voice-provider'), { target: { value: 'groq' } });
  expect(field<HTMLInputElement>('voice-base-url').value).toBe('https://api.groq.com/openai/v1');
  expect(field<HTMLInputElement>('voice-model').value).toBe('whisper-large-v3-turbo');
  expect(field<HTMLInputElement>('voice-api-key').placeholder).toBe('Required');
  fireEvent.change(field('voice-provider'), { target: { value: 'whisper-cpp' } });
  expect(field<HTMLInputElement>('voice-base-url').value).toBe('http://127.0.0.1:8080');
  expect(within(screen.getByTestId('voice-section')).queryByTestId('voice-model')).toBeNull();
});

test("the browser's recognition is listed only where the browser has it", async () => {
  await renderSection();
  const listed = () => Array.from(field<HTMLSelectElement>('voice-provider').options).map((o) => o.value);
  expect(listed()).toEqual(['openai', 'groq', 'openai-compatible', 'whisper-cpp']);
  cleanup();
  (window as unknown as { SpeechRecognition?: unknown }).SpeechRecognition = function SpeechRecognition() {};
  await renderSection();
  expect(listed()).toEqual(['openai', 'groq', 'openai-compatible', 'whisper-cpp', 'browser']);
  fireEvent.change(field('voice-provider'), { target: { value: 'browser' } });
  expect(within(screen.getByTestId('voice-section')).queryByTestId('voice-base-url')).toBeNull();
  expect(field<HTMLButtonElement>('voice-test').disabled).toBe(true);
  expect(field('voice-audio-note').textContent).toBe("With the browser's speech recognition, the browser decides where the audio goes.");
});

test('detection and the pure rules: prefixed recognition counts; numbers outside the schema are refused', () => {
  expect(hasSpeechRecognition({})).toBe(false);
  expect(hasSpeechRecognition({ webkitSpeechRecognition: () => undefined })).toBe(true);
  expect(offeredProviders({}, 'browser')).toContain('browser'); // already chosen: still shown, so the select says the truth
  expect(choosePreset({ ...DEFAULT_VOICE_SETTINGS, apiKey: 'k', language: 'de' }, 'openai')).toMatchObject({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey: 'k', language: 'de' });
  expect(parseVoiceNumbers('60', '2')).toEqual({ maxSeconds: 60, silenceSeconds: 2 });
  expect(parseVoiceNumbers('4', '2')).toBeUndefined();
  expect(parseVoiceNumbers('60', '11')).toBeUndefined();
  expect(parseVoiceNumbers('', '2')).toBeUndefined();
  expect(parseVoiceNumbers('12.5', '2')).toBeUndefined();
});

test('Save sends every voice field and keeps the rest of the settings as stored now', async () => {
  await renderSection();
  // The provider form saved a new model after this section loaded.
  stored = { ...stored, provider: { ...stored.provider, model: 'llama3.2:3b' }, stepLimit: 7 };
  fireEvent.change(field('voice-provider'), { target: { value: 'openai' } });
  fireEvent.change(field('voice-api-key'), { target: { value: 'sk-voice' } });
  fireEvent.change(field('voice-language'), { target: { value: 'de' } });
  fireEvent.click(field('voice-send-on-stop'));
  fireEvent.click(field('voice-spoken-replies'));
  fireEvent.change(field('voice-max-seconds'), { target: { value: '90' } });
  fireEvent.change(field('voice-silence-seconds'), { target: { value: '1.5' } });
  await press('voice-save');
  await waitFor(() => expect(status().textContent).toBe('Settings saved.'));
  const [saved] = saves();
  expect(saved!.voice).toEqual({ ...DEFAULT_VOICE_SETTINGS, provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey: 'sk-voice', language: 'de', sendOnStop: false, spokenReplies: true, maxSeconds: 90, silenceSeconds: 1.5 });
  expect(saved!.provider.model).toBe('llama3.2:3b');
  expect(saved!.stepLimit).toBe(7);
  expect(field('voice-audio-note').textContent).toBe('Recordings go only to the transcription server above, nowhere else.');
});

test('numbers out of range are refused before anything is saved', async () => {
  await renderSection();
  fireEvent.change(field('voice-max-seconds'), { target: { value: '400' } });
  // The browser's own form check stops the Save button; a submit that gets past it meets ours.
  await press('voice-save');
  expect(saves()).toEqual([]);
  await act(async () => void fireEvent.submit(screen.getByTestId('voice-section')));
  expect(status().textContent).toBe('The longest recording is 5 to 300 seconds, the silence 0 to 10 seconds.');
  expect(saves()).toEqual([]);
});

test('a new server with the saved key still in the form: asked first, then saved without the key', async () => {
  await renderSection({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey: 'sk-saved', keyFor: 'https://api.openai.com/v1' });
  fireEvent.change(field('voice-base-url'), { target: { value: 'http://127.0.0.1:9000/v1' } });
  await press('voice-save');
  expect(field('key-removal').textContent).toContain('https://api.openai.com/v1');
  expect(saves()).toEqual([]);
  await press('key-removal-confirm');
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(saves()[0]!.voice).toMatchObject({ baseUrl: 'http://127.0.0.1:9000/v1', apiKey: '' });
});

test("Test sends the form's settings unsaved and reports the time and the words, silence, or the error", async () => {
  await renderSection();
  const answers = [
    () => ({ text: 'Thank you.', ms: 412 }),
    () => ({ text: '', ms: 95 }),
    () => {
      throw new FakeFailure({ code: 'voice_unreachable', message: 'Cannot reach the transcription server at http://127.0.0.1:8000/v1.', hint: 'Start it.', text: { message: { key: 'voiceErrorUnreachable', args: ['http://127.0.0.1:8000/v1'] }, hint: { key: 'voiceHintStartServer', args: ['http://127.0.0.1:8000/v1'] } } });
    },
  ];
  background.handlers['voice/test'] = () => answers.shift()!();
  fireEvent.change(field('voice-model'), { target: { value: 'Systran/faster-whisper-tiny' } });
  await press('voice-test');
  await waitFor(() => expect(status().textContent).toBe('The server answered in 412 ms: “Thank you.”'));
  expect(background.sent('voice/test')[0]!.voice).toMatchObject({ provider: 'openai-compatible', model: 'Systran/faster-whisper-tiny' });
  expect(saves()).toEqual([]);
  await press('voice-test');
  await waitFor(() => expect(status().textContent).toBe('The server answered in 95 ms (no words in the test sound, as expected).'));
  await press('voice-test');
  await waitFor(() => expect(status().dataset.state).toBe('error'));
  expect(status().textContent).toBe('Cannot reach the transcription server at http://127.0.0.1:8000/v1. Start your transcription server at http://127.0.0.1:8000/v1 or change it in Options → Voice.');
});
