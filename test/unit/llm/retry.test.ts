import { LlmError } from '../../../src/background/llm/errors';
import { withRetries } from '../../../src/background/llm/retry';
import type { ChatEvent } from '../../../src/background/llm/types';

async function collect(it: AsyncIterable<ChatEvent>) {
  const out: ChatEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test('429 is retried after Retry-After, then the answer streams', async () => {
  const waits: number[] = [];
  let attempts = 0;
  const events = await collect(
    withRetries(
      async function* () {
        if (attempts++ === 0) throw new LlmError('rate_limited', 'slow down', { retryAfterMs: 1500 });
        yield { type: 'text', delta: 'ok' };
      },
      new AbortController().signal,
      { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 10_000, sleep: async (ms) => void waits.push(ms) },
    ),
  );
  expect(waits).toEqual([1500]);
  expect(events).toEqual([{ type: 'text', delta: 'ok' }]);
});

test('5xx backs off exponentially and gives up after the limit', async () => {
  const waits: number[] = [];
  const run = collect(
    withRetries(
      async function* () {
        throw new LlmError('server_error', 'boom');
      },
      new AbortController().signal,
      { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 10_000, sleep: async (ms) => void waits.push(ms) },
    ),
  );
  await expect(run).rejects.toMatchObject({ code: 'server_error' });
  expect(waits).toEqual([100, 200]);
});

test('a failure after output is not retried: the user already saw the text', async () => {
  let attempts = 0;
  const run = collect(
    withRetries(
      async function* () {
        attempts++;
        yield { type: 'text', delta: 'partial' };
        throw new LlmError('server_error', 'boom');
      },
      new AbortController().signal,
      { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 },
    ),
  );
  await expect(run).rejects.toMatchObject({ code: 'server_error' });
  expect(attempts).toBe(1);
});

test('a bad key is never retried', async () => {
  let attempts = 0;
  const run = collect(
    withRetries(
      async function* () {
        attempts++;
        throw new LlmError('unauthorized', 'no');
      },
      new AbortController().signal,
    ),
  );
  await expect(run).rejects.toMatchObject({ code: 'unauthorized' });
  expect(attempts).toBe(1);
});

test('Stop during the wait ends it at once', async () => {
  const controller = new AbortController();
  const run = collect(
    withRetries(
      async function* () {
        throw new LlmError('rate_limited', 'wait', { retryAfterMs: 60_000 });
      },
      controller.signal,
    ),
  );
  setTimeout(() => controller.abort(), 20);
  await expect(run).rejects.toMatchObject({ code: 'aborted' });
});
