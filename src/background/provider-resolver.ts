import { loadSettings, type KeyValueStore, type Settings } from '../shared/settings';
import { LlmError } from './llm/errors';
import { createProvider } from './llm/router';
import type { LlmProvider } from './llm/types';

/**
 * The provider the settings name, with a model to talk to. With no model chosen yet, the first
 * one the server lists is used, so a fresh install with one local model just works.
 */
export async function resolveProvider(
  store: KeyValueStore,
  { requireModel = true }: { requireModel?: boolean } = {},
): Promise<{ provider: LlmProvider; settings: Settings }> {
  const settings = await loadSettings(store);
  const provider = createProvider(settings.provider, settings.requestTimeoutMs);
  if (!requireModel || settings.provider.model) return { provider, settings };
  const [first] = await provider.listModels();
  if (!first) {
    throw new LlmError('no_model', 'The server has no models to chat with.', {
      hint: settings.provider.kind === 'ollama' ? 'Pull one, e.g. `ollama pull qwen3:4b`, then retry.' : 'Choose a model in FoxAgent’s settings.',
    });
  }
  return { provider, settings: { ...settings, provider: { ...settings.provider, model: first.id } } };
}
