import { say } from '../../shared/i18n';
import { LlmError } from './errors';
import type { LlmMessage, ToolSpec } from './types';

/** Rough token count: ~4 characters a token for English and code, the usual planning figure. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** What an image costs in a prompt, roughly: vision models spend several hundred tokens on a picture. */
export const IMAGE_TOKENS = 1000;

export function estimateRequestTokens(messages: readonly LlmMessage[], tools: readonly ToolSpec[] = []): number {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length + 16; // role and framing tokens
    if (m.role === 'assistant' && m.toolCalls) chars += JSON.stringify(m.toolCalls).length;
    if ((m.role === 'user' || m.role === 'tool') && m.images) chars += m.images.length * IMAGE_TOKENS * 4;
  }
  if (tools.length) chars += JSON.stringify(tools).length;
  return Math.ceil(chars / 4);
}

/** Tokens kept free for the answer. */
export const ANSWER_RESERVE = 2048;
const MIN_WINDOW = 4096;

/**
 * The context window to ask for: room for the prompt and an answer, rounded up to a multiple of
 * 2048 so that Ollama can reuse a loaded model across turns, never more than the model has.
 * A prompt that cannot fit is refused here, loudly, rather than silently cut by the server.
 */
export function contextWindowFor(promptTokens: number, modelContextLength: number): number {
  const needed = promptTokens + ANSWER_RESERVE;
  if (promptTokens + 256 > modelContextLength) {
    throw new LlmError('context_overflow', say('errorContextOverflow', promptTokens, modelContextLength), {
      hint: say('hintContextOverflow'),
      retryable: false,
    });
  }
  const rounded = Math.ceil(Math.max(needed, MIN_WINDOW) / 2048) * 2048;
  return Math.min(rounded, modelContextLength);
}
