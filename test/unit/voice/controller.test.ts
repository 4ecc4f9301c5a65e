/**
 * The voice flow with the browser faked: a click records and a second click transcribes and
 * sends; hold-to-talk; Esc; the microphone's faults; a transcription fault keeps the recording
 * until Retry gets it through.
 */
import { DEFAULT_VOICE_SETTINGS, type Recording, type VoiceSettings } from '../../../src/shared/voice';
import { HOLD_MS, VoiceController, type VoiceControllerDeps } from '../../../src/sidebar/voice/controller';
import { RecognitionError } from '../../../src/sidebar/voice/browser-recognition';
import type { RecorderState } from '../../../src/sidebar/voice/machine';
import { SilentRecordingError } from '../../../src/sidebar/voice/ogg-length';
import type { MicAccess } from '../../../src/sidebar/voice/microphone';

const RECORDING: Recording = { audio: 'T2dnUwACAAAA', mimeType: 'audio/ogg;codecs=opus', durationMs: 1500 };

function fakeStream() {
  const track = { stopped: false, stop() { this.stopped = true; } };
  return { track, stream: { getTracks: () => [track] } as unknown as MediaStream };
}

function setup(over: Partial<VoiceControllerDeps> = {}, voice: Partial<VoiceSettings> = {}) {
  let clock = 1000;
  const states: RecorderState['kind'][] = [];
  const mic = fakeStream();
  const captures: { stopped: boolean; cancelled: boolean; options: Parameters<VoiceControllerDeps['capture']>[1] }[] = [];
  const transcribed: Recording[] = [];
  const delivered: string[] = [];
  let beforeInput = 0;
  let transcript: () => Promise<string> = async () => 'open the weather page';
  const deps: VoiceControllerDeps = {
    settings: async () => ({ ...DEFAULT_VOICE_SETTINGS, ...voice }),
    recordingType: () => 'audio/ogg;codecs=opus',
    acquire: async (): Promise<MicAccess> => ({ stream: mic.stream }),
    recognize: () => undefined,
    capture: (_stream, options) => {
      const capture = { stopped: false, cancelled: false, options };
      captures.push(capture);
      return {
        stop: async () => {
          capture.stopped = true;
          return RECORDING;
        },
        cancel: () => void (capture.cancelled = true),
      };
    },
    transcribe: async (recording) => {
      transcribed.push(recording);
      return transcript();
    },
    transcriptionFault: (error) => ({ code: (error as { code: string }).code, message: `failed: ${(error as Error).message}` }),
    micFault: (code) => ({ code, message: `mic: ${code}` }),
    deliver: async (text) => void delivered.push(text),
    beforeInput: () => void beforeInput++,
    onChange: (state) => void states.push(state.kind),
    onLevel: () => undefined,
    now: () => clock,
    ...over,
  };
  const controller = new VoiceController(deps);
  return {
    controller,
    states,
    mic,
    captures,
    transcribed,
    delivered,
    beforeInput: () => beforeInput,
    advance: (ms: number) => void (clock += ms),
    failWith: (code: string, message: string) => (transcript = async () => Promise.reject(Object.assign(new Error(message), { code }))),
    succeedWith: (text: string) => (transcript = async () => text),
  };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

test('a click starts recording with the settings’ limits; a second click transcribes and delivers the words', async () => {
  const v = setup({}, { maxSeconds: 30, silenceSeconds: 1.5 });
  v.controller.pressed();
  v.controller.released();
  await settle();
  expect(v.controller.state.kind).toBe('recording');
  expect(v.captures[0]!.options).toMatchObject({ mimeType: 'audio/ogg;codecs=opus', maxSeconds: 30, silenceSeconds: 1.5 });
  expect(v.beforeInput()).toBe(1); // speech being read stops
  v.advance(2000);
  v.controller.pressed();
  v.controller.released();
  await settle();
  expect(v.captures[0]!.stopped).toBe(true);
  expect(v.transcribed).toEqual([RECORDING]);
  expect(v.delivered).toEqual(['open the weather page']);
  expect(v.states).toEqual(['requesting', 'recording', 'stopping', 'transcribing', 'idle']);
});

test('hold-to-talk: held past the hold time, releasing stops and sends', async () => {
  const v = setup();
  v.controller.pressed();
  await settle();
  expect(v.controller.state.kind).toBe('recording');
  v.advance(HOLD_MS + 1000);
  v.controller.released();
  await settle();
  expect(v.delivered).toEqual(['open the weather page']);
});

test('the length limit or silence stops it by itself (the capture asks)', async () => {
  const v = setup();
  v.controller.toggle();
  await settle();
  v.captures[0]!.options.onAutoStop('silence');
  await settle();
  expect(v.captures[0]!.stopped).toBe(true);
  expect(v.delivered).toEqual(['open the weather page']);
});

test('Esc cancels: the capture is dropped, nothing is transcribed or sent', async () => {
  const v = setup();
  v.controller.toggle();
  await settle();
  v.controller.cancel();
  await settle();
  expect(v.captures[0]!.cancelled).toBe(true);
  expect(v.transcribed).toEqual([]);
  expect(v.delivered).toEqual([]);
  expect(v.controller.state.kind).toBe('idle');
});

test('cancelled while the browser was still asked: the microphone is released as soon as it comes', async () => {
  let grant: (access: MicAccess) => void = () => undefined;
  const mic = fakeStream();
  const v = setup({ acquire: () => new Promise((r) => (grant = r)) });
  v.controller.toggle();
  await settle();
  expect(v.controller.state.kind).toBe('requesting');
  v.controller.cancel();
  grant({ stream: mic.stream });
  await settle();
  expect(mic.track.stopped).toBe(true);
  expect(v.captures).toHaveLength(0);
  expect(v.controller.state.kind).toBe('idle');
});

test.each(['mic_denied', 'mic_missing', 'mic_needs_permission'] as const)('a microphone fault (%s) shows its own message; nothing was recorded', async (fault) => {
  const v = setup({ acquire: async () => ({ fault }) });
  v.controller.toggle();
  await settle();
  expect(v.controller.state).toEqual({ kind: 'error', fault: { code: fault, message: `mic: ${fault}` } });
  expect(v.captures).toHaveLength(0);
});

test('a failure while getting the microphone is a fault, not a recording stuck asking', async () => {
  const v = setup({ acquire: async () => Promise.reject(new Error('tabs.create failed')) });
  v.controller.toggle();
  await settle();
  expect(v.controller.state).toMatchObject({ kind: 'error', fault: { code: 'mic_failed' } });
});

test('no Opus recorder in this browser is its own fault', async () => {
  const v = setup({ recordingType: () => undefined });
  v.controller.toggle();
  await settle();
  expect(v.controller.state).toMatchObject({ kind: 'error', fault: { code: 'recorder_unsupported' } });
});

test('a transcription fault keeps the recording; Retry sends the same audio again and it goes through', async () => {
  const v = setup();
  v.failWith('voice_unreachable', 'server down');
  v.controller.toggle();
  await settle();
  v.controller.toggle();
  await settle();
  expect(v.controller.state).toEqual({ kind: 'error', fault: { code: 'voice_unreachable', message: 'failed: server down' }, recording: RECORDING });
  expect(v.delivered).toEqual([]);
  // A new recording cannot start over the kept one.
  v.controller.toggle();
  await settle();
  expect(v.captures).toHaveLength(1);
  v.succeedWith('book a table');
  await v.controller.retry();
  expect(v.transcribed).toEqual([RECORDING, RECORDING]);
  expect(v.delivered).toEqual(['book a table']);
  expect(v.controller.state.kind).toBe('idle');
});

test('Discard drops a kept recording', async () => {
  const v = setup();
  v.failWith('voice_too_long', 'too long');
  v.controller.toggle();
  await settle();
  v.controller.toggle();
  await settle();
  v.controller.discard();
  expect(v.controller.state.kind).toBe('idle');
  await v.controller.retry();
  expect(v.transcribed).toHaveLength(1);
});

describe('the browser’s own recognition (provider `browser`)', () => {
  function session(result: () => Promise<string>) {
    const log: string[] = [];
    let ended: () => void = () => undefined;
    return {
      log,
      endByItself: () => ended(),
      recognize: (lang: string, onEnded: () => void) => {
        log.push(`listen ${lang}`);
        ended = onEnded;
        return { finish: () => (log.push('finish'), result()), abort: () => void log.push('abort') };
      },
    };
  }

  test('listens without recording or the microphone route; the words heard are delivered, nothing is uploaded', async () => {
    const s = session(async () => 'open my mail');
    let acquired = 0;
    const v = setup({ recognize: s.recognize, acquire: async () => (acquired++, { fault: 'mic_denied' }) }, { provider: 'browser', language: 'de' });
    v.controller.toggle();
    await settle();
    expect(v.controller.state.kind).toBe('recording');
    v.controller.toggle();
    await settle();
    expect(s.log).toEqual(['listen de', 'finish']);
    expect(v.delivered).toEqual(['open my mail']);
    expect(v.transcribed).toEqual([]);
    expect(v.captures).toEqual([]);
    expect(acquired).toBe(0);
    expect(v.states).toEqual(['requesting', 'recording', 'stopping', 'idle']);
  });

  test('the browser ending it by itself (the speaker stopped) delivers the words', async () => {
    const s = session(async () => 'next page');
    const v = setup({ recognize: s.recognize }, { provider: 'browser' });
    v.controller.toggle();
    await settle();
    s.endByItself();
    await settle();
    expect(v.delivered).toEqual(['next page']);
  });

  test('no recognition in this browser, nothing heard, a refusal: each its own fault; Esc aborts', async () => {
    const none = setup({ recognize: () => undefined }, { provider: 'browser' });
    none.controller.toggle();
    await settle();
    expect(none.controller.state).toMatchObject({ kind: 'error', fault: { code: 'recognition_unavailable' } });

    const empty = setup({ recognize: session(async () => '').recognize }, { provider: 'browser' });
    empty.controller.toggle();
    await settle();
    empty.controller.toggle();
    await settle();
    expect(empty.controller.state).toMatchObject({ kind: 'error', fault: { code: 'recognition_empty' } });
    expect(empty.delivered).toEqual([]);

    const denied = setup({ recognize: session(async () => Promise.reject(new RecognitionError('mic_denied', 'not-allowed'))).recognize }, { provider: 'browser' });
    denied.controller.toggle();
    await settle();
    denied.controller.toggle();
    await settle();
    expect(denied.controller.state).toMatchObject({ kind: 'error', fault: { code: 'mic_denied' } });

    const s = session(async () => 'never');
    const cancelled = setup({ recognize: s.recognize }, { provider: 'browser' });
    cancelled.controller.toggle();
    await settle();
    cancelled.controller.cancel();
    expect(s.log).toEqual(['listen ', 'abort']);
    expect(cancelled.controller.state.kind).toBe('idle');
  });
});

test('a recording that holds no sound is its own fault: nothing is uploaded or kept', async () => {
  const v = setup({
    capture: () => ({
      stop: async () => Promise.reject(new SilentRecordingError()),
      cancel: () => undefined,
    }),
  });
  v.controller.toggle();
  await settle();
  v.controller.toggle();
  await settle();
  expect(v.controller.state).toEqual({ kind: 'error', fault: { code: 'mic_silent', message: 'mic: mic_silent' } });
  expect(v.transcribed).toHaveLength(0);
});
