/** The recorder's moves: the happy path, cancel, a fault that keeps the recording, Retry, Discard. */
import { IDLE, isCapturing, nextState, type RecorderEvent, type RecorderState } from '../../../src/sidebar/voice/machine';

const recording = { audio: 'T2dnUw==', mimeType: 'audio/ogg;codecs=opus', durationMs: 1200 };
const fault = { code: 'voice_unreachable', message: 'Cannot reach the transcription server.' };

function run(events: RecorderEvent[], from: RecorderState = IDLE): RecorderState {
  return events.reduce(nextState, from);
}

test('start, grant, stop, recorded, transcribed goes round to idle through each state', () => {
  const seen: string[] = [];
  let state = IDLE;
  for (const event of [{ type: 'start' }, { type: 'granted', at: 5 }, { type: 'stop' }, { type: 'recorded', recording }, { type: 'transcribed' }] as RecorderEvent[]) {
    state = nextState(state, event);
    seen.push(state.kind);
  }
  expect(seen).toEqual(['requesting', 'recording', 'stopping', 'transcribing', 'idle']);
  expect(run([{ type: 'start' }, { type: 'granted', at: 5 }])).toEqual({ kind: 'recording', startedAt: 5 });
  expect(run([{ type: 'start' }, { type: 'granted', at: 5 }, { type: 'stop' }, { type: 'recorded', recording }])).toEqual({ kind: 'transcribing', recording });
});

test.each(['requesting', 'recording', 'stopping'] as const)('cancel while %s drops everything and nothing is transcribed', (kind) => {
  const before = { requesting: run([{ type: 'start' }]), recording: run([{ type: 'start' }, { type: 'granted', at: 1 }]), stopping: run([{ type: 'start' }, { type: 'granted', at: 1 }, { type: 'stop' }]) }[kind];
  expect(before.kind).toBe(kind);
  expect(isCapturing(before)).toBe(true);
  const after = nextState(before, { type: 'cancel' });
  expect(after).toEqual(IDLE);
  // A late `recorded` from the stopped MediaRecorder must not start a transcription.
  expect(nextState(after, { type: 'recorded', recording })).toEqual(IDLE);
});

test('a transcription fault keeps the recording; Retry transcribes the same recording again', () => {
  const failed = run([{ type: 'start' }, { type: 'granted', at: 1 }, { type: 'stop' }, { type: 'recorded', recording }, { type: 'failed', fault }]);
  expect(failed).toEqual({ kind: 'error', fault, recording });
  // A new recording cannot push the kept one out, and cancel does not drop it.
  expect(nextState(failed, { type: 'start' })).toBe(failed);
  expect(nextState(failed, { type: 'cancel' })).toBe(failed);
  expect(nextState(failed, { type: 'retry' })).toEqual({ kind: 'transcribing', recording });
  // Failing again keeps it again.
  const again = run([{ type: 'retry' }, { type: 'failed', fault: { code: 'voice_timeout', message: 'Too slow.' } }], failed);
  expect(again).toEqual({ kind: 'error', fault: { code: 'voice_timeout', message: 'Too slow.' }, recording });
});

test('Discard drops a kept recording; then a new recording can start', () => {
  const failed: RecorderState = { kind: 'error', fault, recording };
  expect(nextState(failed, { type: 'discard' })).toEqual(IDLE);
  expect(run([{ type: 'discard' }, { type: 'start' }], failed)).toEqual({ kind: 'requesting' });
});

test('a microphone fault has no recording to keep: Retry does nothing, starting again asks again', () => {
  const denied = run([{ type: 'start' }, { type: 'failed', fault: { code: 'mic_denied', message: 'Denied.' } }]);
  expect(denied).toEqual({ kind: 'error', fault: { code: 'mic_denied', message: 'Denied.' } });
  expect(nextState(denied, { type: 'retry' })).toBe(denied);
  expect(nextState(denied, { type: 'start' })).toEqual({ kind: 'requesting' });
});

test('moves a state does not allow leave it as it is', () => {
  expect(nextState(IDLE, { type: 'stop' })).toBe(IDLE);
  expect(nextState(IDLE, { type: 'granted', at: 1 })).toBe(IDLE);
  expect(nextState(IDLE, { type: 'transcribed' })).toBe(IDLE);
  expect(nextState(IDLE, { type: 'failed', fault })).toBe(IDLE);
  const recordingState = run([{ type: 'start' }, { type: 'granted', at: 1 }]);
  expect(nextState(recordingState, { type: 'start' })).toBe(recordingState);
  expect(nextState(recordingState, { type: 'recorded', recording })).toBe(recordingState);
  const transcribing: RecorderState = { kind: 'transcribing', recording };
  expect(nextState(transcribing, { type: 'cancel' })).toBe(transcribing);
  expect(nextState(transcribing, { type: 'start' })).toBe(transcribing);
  expect(isCapturing(transcribing)).toBe(false);
});

test('a recording kept from before is shown again only when nothing else is under way', () => {
  const restored = nextState(IDLE, { type: 'restore', fault, recording });
  expect(restored).toEqual({ kind: 'error', fault, recording });
  expect(nextState(restored, { type: 'retry' })).toEqual({ kind: 'transcribing', recording });
  const recordingNow = run([{ type: 'start' }, { type: 'granted', at: 1 }]);
  expect(nextState(recordingNow, { type: 'restore', fault, recording })).toBe(recordingNow);
});
