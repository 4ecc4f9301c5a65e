/** Getting the microphone: granted, denied, missing, and the first time (the permission page opens). */
import { acquireMicrophone, micFaultCode, queryMicPermission, type MicAccessDeps, type MicPermission } from '../../../src/sidebar/voice/microphone';
import { pickRecordingType } from '../../../src/sidebar/voice/container';

const stream = { getTracks: () => [] } as unknown as MediaStream;
const domError = (name: string) => Object.assign(new Error(name), { name });

function deps(permission: MicPermission, getUserMedia: MicAccessDeps['getUserMedia'], timeoutMs = 50) {
  const opened: string[] = [];
  return { opened, deps: { permission: async () => permission, getUserMedia, openPermissionPage: async () => void opened.push('page'), timeoutMs } };
}

test('granted: the sidebar records directly, no page opens', async () => {
  const d = deps('granted', async () => stream);
  expect(await acquireMicrophone(d.deps)).toEqual({ stream });
  expect(d.opened).toEqual([]);
});

test('denied on record: says how to allow it, without asking again or opening a page', async () => {
  let asked = 0;
  const d = deps('denied', async () => (asked++, stream));
  expect(await acquireMicrophone(d.deps)).toEqual({ fault: 'mic_denied' });
  expect(asked).toBe(0);
  expect(d.opened).toEqual([]);
});

test('not decided yet and refused in the sidebar (no prompt can show there): the permission page opens', async () => {
  const d = deps('prompt', async () => Promise.reject(domError('NotAllowedError')));
  expect(await acquireMicrophone(d.deps)).toEqual({ fault: 'mic_needs_permission' });
  expect(d.opened).toEqual(['page']);
});

test('a prompt the sidebar cannot show hangs: after the wait the page opens, and a late grant is released', async () => {
  let grant: (s: MediaStream) => void = () => undefined;
  const track = { stopped: false, stop() { this.stopped = true; } };
  const d = deps('unknown', () => new Promise((r) => (grant = r)), 30);
  expect(await acquireMicrophone(d.deps)).toEqual({ fault: 'mic_needs_permission' });
  expect(d.opened).toEqual(['page']);
  grant({ getTracks: () => [track] } as unknown as MediaStream);
  await new Promise((r) => setTimeout(r, 0));
  expect(track.stopped).toBe(true);
});

test('where the browser cannot say and no prompt is needed, it just records', async () => {
  const d = deps('unknown', async () => stream);
  expect(await acquireMicrophone(d.deps)).toEqual({ stream });
  expect(d.opened).toEqual([]);
});

test.each([
  ['NotFoundError', 'mic_missing'],
  ['OverconstrainedError', 'mic_missing'],
  ['NotReadableError', 'mic_busy'],
  ['SecurityError', 'mic_denied'],
  ['TypeError', 'mic_failed'],
] as const)('%s from getUserMedia is %s', async (name, code) => {
  expect(micFaultCode(domError(name))).toBe(code);
  const d = deps('granted', async () => Promise.reject(domError(name)));
  expect(await acquireMicrophone(d.deps)).toEqual({ fault: code });
  expect(d.opened).toEqual([]);
});

test('the permission state is read where the browser tells it, and unknown where it cannot', async () => {
  expect(await queryMicPermission({ query: async () => ({ state: 'granted' }) as PermissionStatus })).toBe('granted');
  expect(await queryMicPermission({ query: async () => Promise.reject(new TypeError("'microphone' is not a valid value")) })).toBe('unknown');
  expect(await queryMicPermission(undefined)).toBe('unknown');
});

test('Opus in Ogg where the browser records it, else in WebM, else none', () => {
  expect(pickRecordingType(() => true)).toBe('audio/ogg;codecs=opus');
  expect(pickRecordingType((t) => t.startsWith('audio/webm'))).toBe('audio/webm;codecs=opus');
  expect(pickRecordingType(() => false)).toBeUndefined();
});
