/**
 * A server that stops answering: the error names the provider as the user knows it (OpenAI,
 * OpenRouter), or "the server" for one of their own, through the real client against a hanging
 * scripted server.
 */
import { createProvider } from '../../../src/background/llm/providers';
import type { LlmError } from '../../../src/background/llm/errors';
import { english } from '../../../src/background/english';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'gpt-4o-mini', tools: true }] });
  server.setFallback({ fault: 'hang' });
});
afterAll(() => server.close());

async function timeoutWords(kind: 'openai' | 'openrouter' | 'openai-compatible'): Promise<string> {
  const provider = createProvider({ kind, baseUrl: `${server.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' }, 300);
  try {
    for await (const _ of provider.chat({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, new AbortController().signal)) void _;
  } catch (error) {
    return english((error as LlmError).text);
  }
  throw new Error('the hanging server did not time out');
}

test.each([
  ['openai', 'OpenAI did not answer in time.'],
  ['openrouter', 'OpenRouter did not answer in time.'],
  ['openai-compatible', 'The server did not answer in time.'],
] as const)('%s: %s', async (kind, words) => {
  expect(await timeoutWords(kind)).toBe(words);
});
