import { say } from '../../shared/i18n';
import { LlmError } from './errors';
import type { ChatEvent } from './types';

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  /** Never wait longer than this for one retry, whatever Retry-After says. */
  maxDelayMs: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  onRetry?: (error: LlmError, delayMs: number, attempt: number) => void;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 30_000 };

function shouldRetry(error: unknown): error is LlmError {
  return error instanceof LlmError && ['rate_limited', 'server_error'].includes(error.code);
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new LlmError('aborted', say('stopped')));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError('aborted', say('stopped')));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Retries a chat stream that fails with 429 or 5xx BEFORE it produced anything (a retry after
 * output would repeat text the user has already seen). Honours Retry-After, backs off
 * exponentially otherwise, and stops waiting the moment the user presses Stop.
 */
export async function* withRetries(
  start: () => AsyncIterable<ChatEvent>,
  signal: AbortSignal,
  policy: RetryPolicy = DEFAULT_RETRY,
): AsyncGenerator<ChatEvent> {
  for (let attempt = 0; ; attempt++) {
    let produced = false;
    try {
      for await (const event of start()) {
        produced = true;
        yield event;
      }
      return;
    } catch (error) {
      if (produced || !shouldRetry(error) || attempt >= policy.maxRetries || signal.aborted) throw error;
      const backoff = policy.baseDelayMs * 2 ** attempt;
      const delay = Math.min(error.options.retryAfterMs ?? backoff, policy.maxDelayMs);
      policy.onRetry?.(error, delay, attempt + 1);
      await (policy.sleep ?? sleep)(delay, signal);
    }
  }
}
