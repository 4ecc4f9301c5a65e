import { PROVIDER_PRESETS, type ProviderSettings } from '../../../shared/settings';
import { createOllamaProvider } from './ollama';
import { createOpenAiProvider } from './openai';
import { fetchJson, probeContext } from '../context-probe';
import type { LlmProvider } from '../types';

/** OpenRouter asks apps to identify themselves with these headers. */
const OPENROUTER_HEADERS = { 'HTTP-Referer': 'https://github.com/foxagent/foxagent', 'X-Title': 'FoxAgent' };

/** Builds the provider the settings describe. */
export function createProvider(settings: ProviderSettings, idleTimeoutMs: number): LlmProvider {
  const baseUrl = settings.baseUrl || PROVIDER_PRESETS[settings.kind].baseUrl;
  if (settings.kind === 'ollama') return createOllamaProvider({ baseUrl, idleTimeoutMs });
  return createOpenAiProvider({
    kind: settings.kind,
    baseUrl,
    apiKey: settings.apiKey,
    idleTimeoutMs,
    ...(settings.kind === 'openrouter' ? { headers: OPENROUTER_HEADERS } : {}),
    // Local servers (Ollama's /v1, llama.cpp, LM Studio) say what window they loaded the model with.
    ...(settings.kind === 'openai-compatible' ? { probeContext: async (model: string, signal?: AbortSignal) => (await probeContext(baseUrl, model, fetchJson, signal))?.tokens } : {}),
  });
}
