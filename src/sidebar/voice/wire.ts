/**
 * Voice in the sidebar, wired to the browser: the microphone (through the permission page the
 * first time), MediaRecorder, transcription by the background, the composer and the chat, the
 * keys (hold Alt+V to talk, Esc to cancel), the global shortcut, and spoken replies.
 */
import browser from 'webextension-polyfill';
import { RECORDS } from '../../shared/store';
import { DEFAULT_VOICE_SETTINGS } from '../../shared/voice';
import { errorWords, t } from '../../ui/i18n';
import { backgroundPort, RequestError } from '../../ui/port';
import { pageStore } from '../lib/store';
import { useChat } from '../stores/chat';
import { useDraft } from '../stores/draft';
import { useVoice } from '../stores/voice';
import { listen, recognitionConstructor } from './browser-recognition';
import { VOICE_CHANNEL } from './channel';
import { deliverTranscript } from './commands';
import { pickRecordingType } from './container';
import { Capture } from './capture';
import { VoiceController } from './controller';
import type { RecorderState } from './machine';
import { acquireMicrophone, micFault, queryMicPermission } from './microphone';
import { watchAnswers } from './spoken-replies';
import { Speaker } from './speaker';

/** The page the first grant happens on (the sidebar cannot show Firefox's prompt). */
export const PERMISSION_PAGE = 'voice-permission.html';

/** Whether the key event is the sidebar's talk key, Alt+V. */
export function isTalkKey(event: KeyboardEvent): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyV';
}

/** Connects voice input; returns how to disconnect it. Without `getUserMedia` the button stays unavailable. */
export function startVoice(): () => void {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) return () => undefined;
  const store = useVoice.getState();
  const synth = typeof speechSynthesis === 'undefined' ? undefined : speechSynthesis;
  const speaker = new Speaker({ synth, utterance: (text) => new SpeechSynthesisUtterance(text), onNoVoice: () => useVoice.getState().setNoSpeechVoice(true) });
  // Read at each start (the options page may have changed them); a background that cannot answer
  // does not stop a recording, which is then kept if it cannot be transcribed.
  const settings = () => backgroundPort.request({ type: 'settings/get' }).then((s) => s.voice ?? DEFAULT_VOICE_SETTINGS, () => DEFAULT_VOICE_SETTINGS);

  // A recording the server did not take survives closing the sidebar, until transcribed or discarded.
  let kept = false;
  const keep = (state: RecorderState) => {
    if (state.kind === 'error' && state.recording) {
      kept = true;
      void pageStore.set(RECORDS.keptRecording, { recording: state.recording, fault: state.fault }).catch(() => undefined);
    } else if (state.kind === 'idle' && kept) {
      kept = false;
      void pageStore.remove(RECORDS.keptRecording).catch(() => undefined);
    }
  };

  const controller = new VoiceController({
    settings,
    recordingType: () => (typeof MediaRecorder === 'undefined' ? undefined : pickRecordingType((type) => MediaRecorder.isTypeSupported(type))),
    acquire: () =>
      acquireMicrophone({
        permission: () => queryMicPermission(navigator.permissions),
        getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
        openPermissionPage: async () => void (await browser.tabs.create({ url: browser.runtime.getURL(PERMISSION_PAGE) })),
      }),
    capture: (stream, options) => new Capture(stream, options),
    recognize: (lang, onEnded) => {
      const Recognition = recognitionConstructor(globalThis);
      return Recognition ? listen(Recognition, lang || browser.i18n.getUILanguage(), onEnded) : undefined;
    },
    transcribe: async (recording) => (await backgroundPort.request({ type: 'voice/transcribe', recording })).text,
    transcriptionFault: (error) => {
      if (error instanceof RequestError) return { code: error.detail.code, ...errorWords(error.detail) };
      return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
    },
    micFault: (code) => micFault(code, (key) => t(key)),
    deliver: async (transcript, voice) => {
      await deliverTranscript(transcript, voice.sendOnStop, {
        running: () => useChat.getState().running,
        stopTask: () => useChat.getState().stop(),
        send: (text) => useChat.getState().send(text, { spoken: true }),
        draft: () => useDraft.getState().text,
        setDraft: (text) => useDraft.getState().set(text),
      });
    },
    beforeInput: () => speaker.stop(),
    onChange: (state) => {
      useVoice.getState().report(state);
      keep(state);
    },
    onLevel: (level) => useVoice.getState().setLevel(level),
    now: () => performance.now(),
  });
  void pageStore.read(RECORDS.keptRecording).then((stored) => {
    if (!stored) return;
    kept = true;
    controller.restore(stored);
  }, () => undefined);
  store.connect({
    pressed: () => controller.pressed(),
    released: () => controller.released(),
    toggle: () => controller.toggle(),
    cancel: () => controller.cancel(),
    retry: () => void controller.retry(),
    discard: () => controller.discard(),
  });

  // Hold Alt+V to talk (a short press toggles); Esc cancels a recording.
  let keyDown = false;
  const onKeyDown = (event: KeyboardEvent) => {
    if (isTalkKey(event)) {
      event.preventDefault();
      if (!keyDown) controller.pressed();
      keyDown = true;
    } else if (event.key === 'Escape' && controller.state.kind !== 'idle') {
      controller.cancel();
    }
  };
  const onKeyUp = (event: KeyboardEvent) => {
    if (!keyDown || (event.code !== 'KeyV' && event.key !== 'Alt')) return;
    keyDown = false;
    controller.released();
  };
  window.addEventListener('keydown', onKeyDown);
  window.addEventListener('keyup', onKeyUp);

  // The global shortcut: this window's sidebar claims the press (at load too: it may have opened for it).
  const windowId = browser.windows.getCurrent().then((w) => w.id, () => undefined);
  const claimToggle = async () => {
    const { toggle } = await backgroundPort.request({ type: 'voice/claim-toggle', windowId: await windowId });
    if (toggle) controller.toggle();
  };
  const offEvents = backgroundPort.onEvent((event) => {
    if (event.type !== 'voice/toggle') return;
    void windowId.then((mine) => {
      if (event.windowId === undefined || mine === undefined || event.windowId === mine) void claimToggle().catch(() => undefined);
    });
  });
  void claimToggle().catch(() => undefined);

  // The microphone was allowed (on the permission page, or in Firefox's settings): a microphone fault is over.
  const micAllowed = () => {
    if (controller.state.kind === 'error' && !controller.state.recording) controller.discard();
  };
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(VOICE_CHANNEL);
  if (channel) channel.onmessage = micAllowed;
  // Where the browser reports the permission, its changes are watched too.
  let permission: PermissionStatus | undefined;
  void navigator.permissions?.query({ name: 'microphone' as PermissionName }).then(
    (status) => {
      permission = status;
      status.onchange = () => (status.state === 'granted' ? micAllowed() : undefined);
    },
    () => undefined,
  );

  const offAnswers = watchAnswers({ speaker, settings, lang: () => browser.i18n.getUILanguage() });
  const offDraft = useDraft.subscribe((now, before) => {
    if (now.text !== before.text && now.text) speaker.stop();
  });

  return () => {
    controller.cancel();
    speaker.stop();
    window.removeEventListener('keydown', onKeyDown);
    window.removeEventListener('keyup', onKeyUp);
    offEvents();
    offAnswers();
    offDraft();
    channel?.close();
    if (permission) permission.onchange = null;
  };
}
