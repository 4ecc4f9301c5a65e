import type { UserError } from '../../shared/conversation';
import { say, type Localized, type MessageKey } from '../../shared/i18n';
import type { ProviderKind } from '../../shared/settings';
import { english } from '../english';

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
  /** The server refused a reply format (a JSON Schema for the reply). */
  | 'schema_unsupported'
  /** The server took the reply format but the reply does not keep to it. */
  | 'schema_ignored'
  | 'bad_response'
  | 'bad_request'
  | 'context_overflow'
  /** Extension storage refused a write (full, or failing). */
  | 'storage_failed'
  /** The stored API key was saved for another server than the settings now name. */
  | 'key_mismatch'
  /** The planner's plan stayed invalid after one repair round. */
  | 'plan_invalid'
  | 'aborted';

/**
 * One error type for every provider failure, worded so the user can act on it. The words are
 * catalogue keys (shown in the user's language); a plain string is text no catalogue holds, such
 * as another error's message. `message` and `hint` are always the English words.
 */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly text: Localized | string;
  constructor(
    readonly code: LlmErrorCode,
    text: Localized | string,
    readonly options: { hint?: Hint; status?: number; retryAfterMs?: number; retryable?: boolean } = {},
  ) {
    super(english(text));
    this.text = text;
  }

  get hint(): string | undefined {
    const { hint } = this.options;
    if (hint === undefined) return undefined;
    return Array.isArray(hint) ? hint.map(english).join(' ') : english(hint);
  }

  get retryable(): boolean {
    return this.options.retryable ?? !['unauthorized', 'forbidden', 'ollama_origin', 'no_model', 'aborted'].includes(this.code);
  }

  /** The error as it crosses to the sidebar and is stored: English words, and keys where there are keys. */
  toUserError(): UserError {
    const text = typeof this.text === 'string' ? undefined : { message: this.text, hint: typeof this.options.hint === 'object' ? this.options.hint : undefined };
    return { code: this.code, message: this.message, hint: this.hint, ...(text && { text }), retryable: this.retryable };
  }
}

/** What to do about an error: one message, several said one after the other, or text no catalogue holds. */
export type Hint = Localized | Localized[] | string;

export interface ErrorContext {
  kind: ProviderKind;
  baseUrl: string;
  model?: string;
}

const START_HINTS: Record<ProviderKind, Localized> = {
  ollama: say('hintStartOllama'),
  openai: say('hintCheckConnection'),
  openrouter: say('hintCheckConnection'),
  'openai-compatible': say('hintStartServer'),
};

export function unreachable(ctx: ErrorContext): LlmError {
  return new LlmError('server_unreachable', say('errorUnreachable', label(ctx.kind), ctx.baseUrl), {
    hint: START_HINTS[ctx.kind],
  });
}

/** The connection closed before the answer was complete. */
export function streamCut(): LlmError {
  return new LlmError('stream_cut', say('errorStreamCut'), { hint: say('hintStreamCut') });
}

export function label(kind: ProviderKind): string {
  return { ollama: 'Ollama', openai: 'OpenAI', openrouter: 'OpenRouter', 'openai-compatible': 'OpenAI-compatible' }[kind];
}

/** Turns an HTTP status and the server's own words into an {@link LlmError}. */
export function fromStatus(status: number, serverMessage: string, ctx: ErrorContext, retryAfterMs?: number): LlmError {
  const trimmed = serverMessage.trim().slice(0, 300);
  /** The message, with the server's own words after it when it gave any. */
  const saying = (key: MessageKey, keySaid: MessageKey, ...args: string[]): Localized => (trimmed ? say(keySaid, ...args, trimmed) : say(key, ...args));
  const name = label(ctx.kind);
  if (isToolsRejection(status, serverMessage)) {
    return new LlmError('tools_unsupported', say('errorToolsUnsupported', ctx.model ?? ''), { status });
  }
  if (isSchemaRejection(status, serverMessage)) {
    return new LlmError('schema_unsupported', say('errorSchemaUnsupported', ctx.model ?? '', trimmed), { status, hint: say('hintSchemaUnsupported') });
  }
  if (status === 401) {
    return new LlmError('unauthorized', saying('errorUnauthorized', 'errorUnauthorizedSaid', name), { status, hint: say('hintCheckApiKey') });
  }
  if (status === 403 && ctx.kind === 'ollama') {
    return new LlmError('ollama_origin', say('errorOllamaOrigin'), { status, hint: say('hintOllamaOrigins') });
  }
  if (status === 403) {
    return new LlmError('forbidden', saying('errorForbidden', 'errorForbiddenSaid', name), { status, hint: say('hintForbidden') });
  }
  if (status === 404 && /model/i.test(serverMessage)) {
    return new LlmError('unknown_model', saying('errorUnknownModel', 'errorUnknownModelSaid', ctx.model ?? ''), {
      status,
      hint: ctx.kind === 'ollama' ? say('hintPullModel', ctx.model ?? '<model>') : say('hintChooseListedModel'),
    });
  }
  if (status === 404) {
    return new LlmError('bad_request', say('errorNotFound', ctx.baseUrl), {
      status,
      hint: ctx.kind === 'ollama' ? say('hintOllamaBaseUrl') : say('hintBaseUrlV1'),
    });
  }
  if (status === 429) {
    return new LlmError('rate_limited', saying('errorRateLimited', 'errorRateLimitedSaid', name), { status, retryAfterMs, hint: say('hintRateLimited') });
  }
  if (status >= 500) {
    return new LlmError('server_error', saying('errorServerError', 'errorServerErrorSaid', name, String(status)), { status, hint: say('hintTemporary') });
  }
  return new LlmError('bad_request', saying('errorBadRequest', 'errorBadRequestSaid', name, String(status)), { status });
}

/** Servers word "this model cannot use tools" in many ways; these are the ones seen in the wild. */
/**
 * A 400 (or 422) whose words name the reply format: the server cannot constrain replies to a
 * schema. Ollama before 0.5 took `format` only as a string, and refuses an object while decoding
 * the request.
 */
export function isSchemaRejection(status: number, message: string): boolean {
  if (status !== 400 && status !== 422) return false;
  return /response_format|json[ _-]?schema|structured output|grammar|\bformat\b[^.]{0,40}(schema|json|not supported|unsupported|invalid)|invalid[^.]{0,20}\bformat\b|unmarshal[^\n]{0,60}\.format\b/i.test(message);
}

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
