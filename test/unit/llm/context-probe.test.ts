/**
 * The context window a local OpenAI-compatible server really gives a model, read from the server
 * over real HTTP (the scripted server answering as Ollama's /api/ps and /api/show, and as
 * llama.cpp's /props); a window the user set wins; and the page budget of a question follows it.
 */
import { fetchJson, OLLAMA_DEFAULT_CONTEXT, probeContext, serverRoot } from '../../../src/background/llm/context-probe';
import { createProvider } from '../../../src/background/llm/providers';
import { LlmRouter } from '../../../src/background/llm/router';
import { ModeCache } from '../../../src/background/llm/capabilities';
import { pageBudgetChars } from '../../../src/background/page/question-context';
import { startLlmServer } from '../../support/llm-server';
import { MemoryStorage } from '../../support/memory-storage';

test('the server root is the base URL without /v1', () => {
  expect(serverRoot('http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434');
  expect(serverRoot('http://127.0.0.1:1234/api/v1')).toBe('http://127.0.0.1:1234');
  expect(serverRoot('https://example.com/openai')).toBe('https://example.com/openai');
});

test('an Ollama behind /v1: the loaded window from /api/ps; not loaded, its default capped by the model; nothing said, undefined', async () => {
  const server = await startLlmServer({ models: [{ name: 'qwen2.5:3b', contextLength: 32_768, loadedContext: 8_192 }, { name: 'phi3:mini', contextLength: 131_072 }] });
  try {
    expect(await probeContext(`${server.url}/v1`, 'qwen2.5:3b', fetchJson)).toEqual({ tokens: 8_192, from: 'ollama-ps' });
    expect(await probeContext(`${server.url}/v1`, 'phi3:mini', fetchJson)).toEqual({ tokens: OLLAMA_DEFAULT_CONTEXT, from: 'ollama-default' });
  } finally {
    await server.close();
  }
  const silent = await startLlmServer({ models: [{ name: 'gpt-4o', contextLength: 128_000 }] });
  try {
    expect(await probeContext(`${silent.url}/v1`, 'gpt-4o', fetchJson)).toBeUndefined();
  } finally {
    await silent.close();
  }
});

test('llama.cpp: the slots’ n_ctx from /props', async () => {
  const server = await startLlmServer({ models: [{ name: 'local-model' }], llamaCppContext: 6_144 });
  try {
    expect(await probeContext(`${server.url}/v1`, 'local-model', fetchJson)).toEqual({ tokens: 6_144, from: 'llama.cpp' });
  } finally {
    await server.close();
  }
});

test('the router describes an OpenAI-compatible model with the window its server runs it with, unless the user set one', async () => {
  const server = await startLlmServer({ models: [{ name: 'qwen2.5:3b', contextLength: 32_768, loadedContext: 4_096 }] });
  try {
    const provider = createProvider({ kind: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: '', model: 'qwen2.5:3b' }, 5_000);
    const router = (override?: number) => new LlmRouter({ provider, modeCache: new ModeCache(new MemoryStorage()), cacheKey: (m) => m, contextOverride: () => override });
    expect((await router().describe('qwen2.5:3b')).contextLength).toBe(4_096);
    expect((await router(16_384).describe('qwen2.5:3b')).contextLength).toBe(16_384);
    // Before, the known-models table said 32,768 for qwen2.5, and a question sent page text for that.
    expect(pageBudgetChars(4_096, 0)).toBeLessThan(pageBudgetChars(32_768, 0) / 2);
  } finally {
    await server.close();
  }
});
