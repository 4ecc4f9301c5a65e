import { Deadline } from '../../../src/background/llm/deadline';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('a silent request times out, and says it was the deadline', () => {
  const deadline = new Deadline(new AbortController().signal, 1000);
  jest.advanceTimersByTime(999);
  expect(deadline.signal.aborted).toBe(false);
  jest.advanceTimersByTime(1);
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.timedOut).toBe(true);
});

test('each chunk pushes the deadline back', () => {
  const deadline = new Deadline(new AbortController().signal, 1000);
  for (let i = 0; i < 5; i++) {
    jest.advanceTimersByTime(800);
    deadline.touch();
  }
  expect(deadline.signal.aborted).toBe(false);
  deadline.dispose();
});

test('the caller aborting ends it at once, and it is not a timeout', () => {
  const caller = new AbortController();
  const deadline = new Deadline(caller.signal, 1000);
  caller.abort();
  expect(deadline.signal.aborted).toBe(true);
  expect(deadline.timedOut).toBe(false);
});
