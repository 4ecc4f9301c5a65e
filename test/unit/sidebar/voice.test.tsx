/** @jest-environment jsdom */
/**
 * Voice in the sidebar against the fake background: the global shortcut's request claimed and a
 * microphone fault shown with its fix; a kept recording with Retry and Discard; spoken replies
 * read when a turn ends with an answer, and only then.
 */
import { background } from '../../support/fake-extension';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { Conversation } from '../../../src/shared/conversation';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { KEYS } from '../../../src/shared/store';
import { DEFAULT_VOICE_SETTINGS } from '../../../src/shared/voice';
import { VoiceButton } from '../../../src/sidebar/components/VoiceButton';
import { VoicePanel } from '../../../src/sidebar/components/VoicePanel';
import { useChat } from '../../../src/sidebar/stores/chat';
import { useVoice, type VoiceActions } from '../../../src/sidebar/stores/voice';
import { watchAnswers } from '../../../src/sidebar/voice/spoken-replies';
import { startVoice } from '../../../src/sidebar/voice/wire';

const g = globalThis as unknown as { browser: Record<string, unknown>; MediaRecorder?: unknown };

beforeAll(() => {
  Object.assign(g.browser, {
    windows: { getCurrent: async () => ({ id: 7 }) },
    tabs: { create: async () => ({ id: 99 }) },
  });
  (g.browser.i18n as Record<string, unknown>).getUILanguage = () => 'en';
});

beforeEach(() => {
  background.requests.length = 0;
  background.handlers = { 'settings/get': () => DEFAULT_SETTINGS };
  useVoice.setState({ actions: undefined, state: { kind: 'idle' }, level: 0, noSpeechVoice: false });
});

describe('the global shortcut and a microphone fault', () => {
  let stop: () => void = () => undefined;
  beforeEach(() => {
    g.MediaRecorder = { isTypeSupported: (type: string) => type.startsWith('audio/ogg') };
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: async () => Promise.reject(Object.assign(new Error('no device'), { name: 'NotFoundError' })) },
    });
    Object.defineProperty(navigator, 'permissions', { configurable: true, value: { query: async () => ({ state: 'granted' }) } });
  });
  afterEach(() => {
    stop();
    delete g.MediaRecorder;
  });

  test('the shortcut’s event is claimed for this window and starts voice; no microphone shows its own message and fix', async () => {
    let claims = 0;
    background.handlers['voice/claim-toggle'] = (r) => ({ toggle: r.windowId === 7 && ++claims === 2 });
    render(
      <>
        <VoicePanel />
        <VoiceButton />
      </>,
    );
    act(() => void (stop = startVoice()));
    // On load it asks once (a sidebar that opened for the shortcut); nothing was pressed.
    await waitFor(() => expect(background.sent('voice/claim-toggle')).toHaveLength(1));
    expect(screen.getByTestId('voice').getAttribute('data-state')).toBe('idle');
    act(() => background.emit({ type: 'voice/toggle', windowId: 3 })); // another window's press
    act(() => background.emit({ type: 'voice/toggle', windowId: 7 }));
    await waitFor(() => expect(screen.getByTestId('voice-error').getAttribute('data-code')).toBe('mic_missing'));
    expect(background.sent('voice/claim-toggle')).toEqual([
      { type: 'voice/claim-toggle', windowId: 7 },
      { type: 'voice/claim-toggle', windowId: 7 },
    ]);
    expect(screen.getByTestId('voice-error').textContent).toContain('No microphone was found.');
    expect(screen.getByTestId('voice-error').textContent).toContain('Connect a microphone');
    expect(screen.queryByTestId('voice-retry')).toBeNull(); // nothing was recorded
    fireEvent.click(screen.getByTestId('voice-dismiss'));
    expect(screen.queryByTestId('voice-error')).toBeNull();
    expect(screen.getByTestId('voice').getAttribute('data-state')).toBe('idle');
  });

  test('a browser that records no Opus says so, before asking for the microphone', async () => {
    g.MediaRecorder = { isTypeSupported: () => false };
    background.handlers['voice/claim-toggle'] = () => ({ toggle: false });
    render(<VoicePanel />);
    act(() => void (stop = startVoice()));
    act(() => useVoice.getState().actions!.toggle());
    await waitFor(() => expect(screen.getByTestId('voice-error').getAttribute('data-code')).toBe('recorder_unsupported'));
    expect(screen.getByTestId('voice-error').textContent).toContain('This browser cannot record Opus audio.');
  });
});

test('without getUserMedia the button says voice input is unavailable', () => {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
  act(() => void startVoice());
  render(<VoiceButton />);
  expect((screen.getByTestId('voice') as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByTestId('voice').getAttribute('aria-label')).toBe('Voice input is not available');
});

test('a kept recording: its fault, how long it is, Retry and Discard; the button waits until one is chosen', () => {
  const calls: string[] = [];
  const actions: VoiceActions = { pressed: () => calls.push('pressed'), released: () => calls.push('released'), toggle: () => calls.push('toggle'), cancel: () => calls.push('cancel'), retry: () => calls.push('retry'), discard: () => calls.push('discard') };
  useVoice.setState({
    actions,
    state: { kind: 'error', fault: { code: 'voice_unauthorized', message: 'The server refused the key.', hint: 'Check the key in Options.' }, recording: { audio: 'T2dnUw==', mimeType: 'audio/ogg', durationMs: 3400 } },
  });
  render(
    <>
      <VoicePanel />
      <VoiceButton />
    </>,
  );
  expect(screen.getByTestId('voice-error').textContent).toContain('The server refused the key.Check the key in Options.');
  expect(screen.getByTestId('voice-kept').textContent).toBe('Your recording (3 s) is kept until it is transcribed or you discard it.');
  expect((screen.getByTestId('voice') as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByTestId('voice').getAttribute('title')).toContain('Alt+V');
  fireEvent.click(screen.getByTestId('voice-retry'));
  fireEvent.click(screen.getByTestId('voice-discard'));
  expect(calls).toEqual(['retry', 'discard']);
});

test('a recording kept when the sidebar closed is offered again; Retry transcribes it, sends it, and forgets it', async () => {
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: async () => Promise.reject(new Error('unused')) } });
  const recording = { audio: 'T2dnUwACAAAAAAAA', mimeType: 'audio/ogg;codecs=opus', durationMs: 2100 };
  background.storage.set(KEYS.keptRecording, { recording, fault: { code: 'voice_unreachable', message: 'Cannot reach the transcription server.', hint: 'Start it.' } });
  background.handlers['voice/claim-toggle'] = () => ({ toggle: false });
  background.handlers['voice/transcribe'] = () => ({ text: 'Book the table' });
  background.handlers['chat/send'] = () => ({ messageId: 'a1' });
  useChat.setState({ conversation: { id: 'c1', title: '', createdAt: 1, updatedAt: 1, messages: [] }, running: false });
  render(<VoicePanel />);
  let stop: () => void = () => undefined;
  act(() => void (stop = startVoice()));
  try {
    await waitFor(() => expect(screen.getByTestId('voice-kept').textContent).toContain('(2 s)'));
    expect(screen.getByTestId('voice-error').textContent).toContain('Cannot reach the transcription server.');
    fireEvent.click(screen.getByTestId('voice-retry'));
    await waitFor(() => expect(background.sent('chat/send')).toHaveLength(1));
    expect(background.sent('voice/transcribe')).toEqual([{ type: 'voice/transcribe', recording }]);
    expect(background.sent('chat/send')[0]).toMatchObject({ conversationId: 'c1', text: 'Book the table', spoken: true });
    await waitFor(() => expect(background.storage.has(KEYS.keptRecording)).toBe(false));
    expect(screen.queryByTestId('voice-error')).toBeNull();
  } finally {
    stop();
  }
});

test('while recording, the level meter shows the microphone’s level', () => {
  useVoice.setState({ actions: {} as VoiceActions, state: { kind: 'recording', startedAt: 0 }, level: 0.42 });
  render(
    <>
      <VoicePanel />
      <VoiceButton />
    </>,
  );
  expect(screen.getByTestId('voice-level').getAttribute('aria-valuenow')).toBe('42');
  expect(screen.getByTestId('voice').getAttribute('aria-pressed')).toBe('true');
});

describe('spoken replies', () => {
  const conversation = (messages: Conversation['messages']): Conversation => ({ id: 'c1', title: '', createdAt: 1, updatedAt: 1, messages });
  const user = { id: 'u1', role: 'user' as const, content: 'Hi', createdAt: 1 };
  const answer = (id: string, content: string, status: 'streaming' | 'complete' = 'complete') => ({ id, role: 'assistant' as const, content, status, createdAt: 2 });

  function watch(spokenReplies: boolean) {
    const log: string[] = [];
    const off = watchAnswers({
      speaker: { speak: async (text: string, lang: string) => (log.push(`speak ${lang}: ${text}`), text), stop: () => void log.push('stop') },
      settings: async () => ({ ...DEFAULT_VOICE_SETTINGS, spokenReplies }),
      lang: () => 'de',
    });
    return { log, off };
  }

  test('the answer a turn ends with is read once; one already there is not; a new turn stops the reading', async () => {
    useChat.setState({ conversation: conversation([user, answer('a0', 'Old answer.')]), running: false });
    const { log, off } = watch(true);
    act(() => useChat.setState({ conversation: conversation([user, answer('a0', 'Old answer.'), user, answer('a1', '', 'streaming')]), running: true }));
    act(() => useChat.setState({ conversation: conversation([user, answer('a0', 'Old answer.'), user, answer('a1', 'The **new** answer.')]), running: false }));
    await waitFor(() => expect(log).toContain('speak de: The **new** answer.'));
    act(() => useChat.setState({ conversation: { ...useChat.getState().conversation!, title: 'renamed' } }));
    act(() => useChat.setState({ running: true }));
    await new Promise((r) => setTimeout(r, 10));
    expect(log).toEqual(['stop', 'speak de: The **new** answer.', 'stop']);
    off();
  });

  test('off by default: nothing is read', async () => {
    useChat.setState({ conversation: conversation([user, answer('a1', '', 'streaming')]), running: true });
    const { log, off } = watch(false);
    act(() => useChat.setState({ conversation: conversation([user, answer('a1', 'Done.')]), running: false }));
    await new Promise((r) => setTimeout(r, 10));
    expect(log.filter((l) => l.startsWith('speak'))).toEqual([]);
    off();
  });
});
