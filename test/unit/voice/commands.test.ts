/** What a transcript does: stop by voice, send when the user stops talking, or land in the composer. */
import { deliverTranscript, type TranscriptDeps } from '../../../src/sidebar/voice/commands';

function fake({ running = false, sends = true, draft = '' } = {}) {
  const log: string[] = [];
  let text = draft;
  const deps: TranscriptDeps = {
    running: () => running,
    stopTask: async () => void log.push('stop'),
    send: async (message) => {
      log.push(`send:${message}`);
      return sends;
    },
    draft: () => text,
    setDraft: (value) => void (text = value),
  };
  return { deps, log, draft: () => text };
}

test('with send-on-stop the transcript is sent as a message; the typed draft stays as it was', async () => {
  const f = fake({ draft: 'half-typed note' });
  expect(await deliverTranscript(' Open the weather page. ', true, f.deps)).toBe('sent');
  expect(f.log).toEqual(['send:Open the weather page.']);
  expect(f.draft()).toBe('half-typed note');
});

test('without send-on-stop it lands in the composer after what was typed', async () => {
  const f = fake({ draft: 'Summarise   ' });
  expect(await deliverTranscript('the second section', false, f.deps)).toBe('drafted');
  expect(f.draft()).toBe('Summarise the second section');
  expect(f.log).toEqual([]);
  const empty = fake();
  await deliverTranscript('hello', false, empty.deps);
  expect(empty.draft()).toBe('hello');
});

test('a spoken “stop” while a task runs stops it: no message is sent', async () => {
  const f = fake({ running: true, draft: 'kept' });
  expect(await deliverTranscript('Stop.', true, f.deps)).toBe('stopped');
  expect(f.log).toEqual(['stop']);
  expect(f.draft()).toBe('kept');
});

test('a lone “stop” with nothing running does nothing at all', async () => {
  const f = fake();
  expect(await deliverTranscript('abbrechen', true, f.deps)).toBe('ignored');
  expect(f.log).toEqual([]);
  expect(f.draft()).toBe('');
});

test('while a task runs, or when the background refuses it, the words go to the composer instead of being lost', async () => {
  const busy = fake({ running: true });
  expect(await deliverTranscript('and then book it', true, busy.deps)).toBe('drafted');
  expect(busy.log).toEqual([]);
  expect(busy.draft()).toBe('and then book it');
  const refused = fake({ sends: false });
  expect(await deliverTranscript('book it', true, refused.deps)).toBe('drafted');
  expect(refused.draft()).toBe('book it');
});
