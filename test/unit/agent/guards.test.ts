import { DedupWindow, RepeatGuard, signatureOf } from '../../../src/background/agent/guards';

test('a signature ignores argument order', () => {
  expect(signatureOf('fill', { id: 1, text: 'a' })).toBe(signatureOf('fill', { text: 'a', id: 1 }));
  expect(signatureOf('fill', { id: 1, text: 'a' })).not.toBe(signatureOf('fill', { id: 2, text: 'a' }));
});

test.each([
  [['A', 'A', 'A'], ['A']],
  [['A', 'B', 'A', 'B', 'A', 'B'], ['A', 'B']],
  [['X', 'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'], ['A', 'B', 'C']],
])('the cycle %j is caught', (calls, block) => {
  const guard = new RepeatGuard();
  let found: string[] | undefined;
  for (const c of calls) found = guard.record(c) ?? found;
  expect(found).toEqual(block);
});

test('progress is not mistaken for a cycle', () => {
  const guard = new RepeatGuard();
  for (const c of ['read', 'fill1', 'fill2', 'click', 'read', 'done']) expect(guard.record(c)).toBeUndefined();
});

test('the dedup window remembers the last calls and forgets after a page change', () => {
  const window = new DedupWindow(2);
  window.remember('a', 'ok a');
  window.remember('b', 'ok b');
  expect(window.find('a')).toBe('ok a');
  window.remember('c', 'ok c');
  expect(window.find('a')).toBeUndefined();
  window.clear();
  expect(window.find('c')).toBeUndefined();
});
