import { fromStatus, isToolsRejection, LlmError, parseRetryAfter } from '../../../src/background/llm/errors';

const ollama = { kind: 'ollama' as const, baseUrl: 'http://127.0.0.1:11434', model: 'llama3' };
const openai = { kind: 'openai' as const, baseUrl: 'https://api.openai.com/v1', model: 'gpt-x' };

test.each([
  [400, 'registry.ollama.ai/library/gemma:2b does not support tools'],
  [400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'],
  [404, 'No endpoints found that support tool use. To learn more about provider routing, visit …'],
  [400, 'tools is not supported for this model'],
])('%i “%s” is recognised as a tools rejection', (status, message) => {
  expect(isToolsRejection(status, message)).toBe(true);
  expect(fromStatus(status, message, ollama).code).toBe('tools_unsupported');
});

test('an unrelated 400 is not a tools rejection', () => {
  expect(isToolsRejection(400, 'messages: field required')).toBe(false);
  expect(fromStatus(400, 'messages: field required', openai).code).toBe('bad_request');
});

test('a 403 from Ollama explains OLLAMA_ORIGINS; from OpenAI it talks about access', () => {
  const fromOllama = fromStatus(403, '', ollama);
  expect(fromOllama.code).toBe('ollama_origin');
  expect(fromOllama.hint).toContain('OLLAMA_ORIGINS');
  expect(fromStatus(403, 'forbidden', openai).code).toBe('forbidden');
});

test('401 asks for the key and is not worth retrying as is', () => {
  const error = fromStatus(401, 'Incorrect API key provided', openai);
  expect(error.code).toBe('unauthorized');
  expect(error.retryable).toBe(false);
  expect(error.message).toContain('Incorrect API key provided');
});

test('an unknown Ollama model says how to pull it', () => {
  const error = fromStatus(404, 'model "llama3" not found, try pulling it first', ollama);
  expect(error.code).toBe('unknown_model');
  expect(error.hint).toContain('ollama pull llama3');
});

test('429 keeps Retry-After; 5xx is a retryable server error', () => {
  const limited = fromStatus(429, 'slow down', openai, 2000);
  expect(limited).toBeInstanceOf(LlmError);
  expect(limited.options.retryAfterMs).toBe(2000);
  expect(fromStatus(503, '', openai)).toMatchObject({ code: 'server_error', retryable: true });
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  expect(parseRetryAfter('3')).toBe(3000);
  expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
  expect(parseRetryAfter('soon')).toBeUndefined();
  expect(parseRetryAfter(null)).toBeUndefined();
});
