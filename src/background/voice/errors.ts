import type { UserError } from '../../shared/conversation';
import { say, type Localized } from '../../shared/i18n';
import type { TranscriptionErrorCode, VoiceProviderKind } from '../../shared/voice';
import { english } from '../english';

/**
 * Why a transcription failed, worded so the user can act on it: a code of
 * `TranscriptionErrorCodeSchema`, the message and hint as catalogue keys (English in `message`
 * and `hint`). It crosses to the sidebar the way an LlmError does.
 */
export class TranscriptionError extends Error {
  override readonly name = 'TranscriptionError';
  constructor(
    readonly code: TranscriptionErrorCode,
    readonly text: Localized,
    readonly hintText?: Localized,
    readonly status?: number,
  ) {
    super(english(text));
  }

  get hint(): string | undefined {
    return this.hintText && english(this.hintText);
  }

  toUserError(): UserError {
    return { code: this.code, message: this.message, hint: this.hint, text: { message: this.text, ...(this.hintText && { hint: this.hintText }) }, retryable: true };
  }
}

/** Where the failing request went: the words name the server, and the hint depends on whether it is the user's own. */
export interface ServerContext {
  provider: VoiceProviderKind;
  baseUrl: string;
}

const HOSTED: ReadonlySet<VoiceProviderKind> = new Set(['openai', 'groq']);

export const notConfigured = () => new TranscriptionError('voice_not_configured', say('voiceErrorNotConfigured'), say('voiceHintChooseServer'));

export function unreachable(ctx: ServerContext): TranscriptionError {
  const hint = HOSTED.has(ctx.provider) ? say('voiceHintCheckConnection') : say('voiceHintStartServer', ctx.baseUrl);
  return new TranscriptionError('voice_unreachable', say('voiceErrorUnreachable', ctx.baseUrl), hint);
}

export const timedOut = (ms: number) => new TranscriptionError('voice_timeout', say('voiceErrorTimeout', String(Math.ceil(ms / 1000))), say('voiceHintTimeout'));
export const emptyTranscript = () => new TranscriptionError('voice_empty', say('voiceErrorEmpty'), say('voiceHintEmpty'));
export const badResponse = (ctx: ServerContext) => new TranscriptionError('voice_bad_response', say('voiceErrorBadResponse', ctx.baseUrl), say('voiceHintBadResponse'));
export const unsupportedFormat = (mimeType: string, status?: number) => new TranscriptionError('voice_unsupported_format', say('voiceErrorFormat', mimeType), say('voiceHintFormat'), status);
export const undecodable = () => new TranscriptionError('voice_unsupported_format', say('voiceErrorDecode'), say('voiceHintFormat'));

/** A 400 whose words are about the audio: its format, its file, decoding it. */
function namesTheAudio(serverWords: string): boolean {
  return /\b(file|format|audio|wav|decod|codec|media type|mime|container|extension)/i.test(serverWords);
}

/** An HTTP failure as the code the user can act on. `serverWords` are the server's own, cut short. */
export function fromStatus(status: number, serverWords: string, ctx: ServerContext & { mimeType: string }): TranscriptionError {
  if (status === 401 || status === 403) return new TranscriptionError('voice_unauthorized', say('voiceErrorUnauthorized', ctx.baseUrl, String(status)), say('voiceHintCheckKey'), status);
  if (status === 413) return new TranscriptionError('voice_too_long', say('voiceErrorTooLong'), say('voiceHintTooLong'), status);
  if (status === 415 || (status === 400 && namesTheAudio(serverWords))) return unsupportedFormat(ctx.mimeType, status);
  return new TranscriptionError('voice_bad_response', say('voiceErrorServer', String(status), serverWords || '—'), say('voiceHintServer'), status);
}
