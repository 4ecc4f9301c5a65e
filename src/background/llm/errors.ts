import type { UserError } from '../../shared/conversation';
import type { ProviderKind } from '../../shared/settings';

export type LlmErrorCode =
  | 'server_unreachable'
  | 'unauthorized'
  | 'forbidden'
  | 'ollama_origin'
  | 'unknown_model'
  | 'no_model'
  | 'rate_limited'
  | 'server_error'
  | 'stream_cut'
  | 'timeout'
  | 'tools_unsupported'
  | 'bad_response'
  | 'bad_request'
  | 'context_overflow'
  /** Extension storage refused a write (full, or failing). */
  | 'storage_failed'
  /** The stored API key was saved for another server than the settings now name. */
  | 'key_mismatch'
  | 'aborted';

/** One error type for every provider failure, worded so the user can act on it. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly options: { hint?: string; status?: number; retryAfterMs?: number; retryable?: boolean } = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.options.retryable ?? !['unauthorized', 'forbidden', 'ollama_origin', 'no_model', 'aborted'].includes(this.code);
  }

  toUserError(): UserError {
    return { code: this.code, message: this.message, hint: this.options.hint, retryable: this.retryable };
  }
}

export interface ErrorContext {
  kind: ProviderKind;
  baseUrl: string;
  model?: string;
}

const START_HINTS: Record<ProviderKind, string> = {
  ollama: 'Start it with `ollama serve` (or open the Ollama app), then press Retry.',
  openai: 'Check your internet connection and the base URL in FoxAgent’s settings.',
  openrouter: 'Check your internet connection and the base URL in FoxAgent’s settings.',
  'openai-compatible': 'Start your server (LM Studio, llama.cpp `llama-server`, vLLM …) and check the base URL in settings.',
};

export function unreachable(ctx: ErrorContext): LlmError {
  return new LlmError('server_unreachable', `Cannot reach the ${label(ctx.kind)} server at ${ctx.baseUrl}.`, {
    hint: START_HINTS[ctx.kind],
  });
}

export function label(kind: ProviderKind): string {
  return { ollama: 'Ollama', openai: 'OpenAI', openrouter: 'OpenRouter', 'openai-compatible': 'OpenAI-compatible' }[kind];
}

/** Turns an HTTP status and the server's own words into an {@link LlmError}. */
export function fromStatus(status: number, serverMessage: string, ctx: ErrorContext, retryAfterMs?: number): LlmError {
  const said = serverMessage.trim() ? ` The server said: “${serverMessage.trim().slice(0, 300)}”` : '';
  if (isToolsRejection(status, serverMessage)) {
    return new LlmError('tools_unsupported', `The model ${ctx.model ?? ''} does not support tool calling.`, { status });
  }
  if (status === 401) {
    return new LlmError('unauthorized', `${label(ctx.kind)} rejected the API key (401).${said}`, {
      status,
      hint: 'Check the API key in FoxAgent’s settings.',
    });
  }
  if (status === 403 && ctx.kind === 'ollama') {
    return new LlmError('ollama_origin', 'Ollama refused the request from the browser extension (403).', {
      status,
      hint: 'Ollama only accepts extensions it is told to trust. Set OLLAMA_ORIGINS=moz-extension://* and restart Ollama (e.g. `OLLAMA_ORIGINS="moz-extension://*" ollama serve`).',
    });
  }
  if (status === 403) {
    return new LlmError('forbidden', `${label(ctx.kind)} refused the request (403).${said}`, {
      status,
      hint: 'Your key may lack access to this model, or your account may need credit.',
    });
  }
  if (status === 404 && /model/i.test(serverMessage)) {
    return new LlmError('unknown_model', `The model “${ctx.model ?? ''}” was not found on the server.${said}`, {
      status,
      hint: ctx.kind === 'ollama' ? `Pull it with \`ollama pull ${ctx.model ?? '<model>'}\`, or choose another model.` : 'Choose a model the server lists.',
    });
  }
  if (status === 404) {
    return new LlmError('bad_request', `Nothing answers at ${ctx.baseUrl} for this request (404).`, {
      status,
      hint: ctx.kind === 'ollama' ? 'The base URL should look like http://127.0.0.1:11434.' : 'The base URL usually ends in /v1.',
    });
  }
  if (status === 429) {
    return new LlmError('rate_limited', `${label(ctx.kind)} is rate-limiting requests (429).${said}`, {
      status,
      retryAfterMs,
      hint: 'Wait a moment and retry, or check your plan’s limits.',
    });
  }
  if (status >= 500) {
    return new LlmError('server_error', `${label(ctx.kind)} had an internal error (${status}).${said}`, {
      status,
      hint: 'This is usually temporary: retry in a moment.',
    });
  }
  return new LlmError('bad_request', `${label(ctx.kind)} rejected the request (${status}).${said}`, { status });
}

/** Servers word "this model cannot use tools" in many ways; these are the ones seen in the wild. */
export function isToolsRejection(status: number, message: string): boolean {
  if (status !== 400 && status !== 404 && status !== 422 && status !== 500) return false;
  return /does not support tools|tool[s_ ]*(use|calling|choice)?[^.]{0,40}not supported|support tool use|"auto" tool choice|tool_choice|tools? (is|are) not supported/i.test(message);
}

/** Parses Retry-After (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `instanceof` fails across realms (a fetch from another global); names and messages do not. */
export function isErrorNamed(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as Error).name === name;
}

/** A fetch that failed at the network level: nothing listening, DNS, a dropped connection. */
export function isNetworkError(error: unknown): boolean {
  if (isErrorNamed(error, 'TypeError')) return true;
  const message = error instanceof Error || (typeof error === 'object' && error !== null) ? String((error as Error).message) : '';
  return /fetch failed|NetworkError|Failed to fetch|network error|terminated|ECONNREFUSED|ECONNRESET|socket hang up/i.test(message);
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}
