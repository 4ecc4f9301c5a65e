import { say } from '../shared/i18n';
import { keyBoundTo, sameBaseUrl, type Settings } from '../shared/settings';
import { loadSettings } from '../shared/settings-store';
import { storeOf, type StoreOrArea } from '../shared/store';
import type { Session } from './chat-service';
import { ModeCache } from './llm/capabilities';
import { LlmError } from './llm/errors';
import { createProvider } from './llm/providers';
import { LlmRouter } from './llm/router';
import type { LlmProvider } from './llm/types';

/**
 * Builds the provider and router the settings name, reusing them while the settings stay the
 * same (so what was learnt about a model is kept), and picks a model: the chosen one, or with
 * none chosen the first the server lists, so a fresh install with one local model just works.
 */
export function createSessionFactory(storage: StoreOrArea) {
  const store = storeOf(storage);
  const modeCache = new ModeCache(store);
  let cached: { key: string; provider: LlmProvider; router: LlmRouter } | undefined;

  const build = (settings: Settings) => {
    refuseForeignKey(settings);
    const key = JSON.stringify([settings.provider.kind, settings.provider.baseUrl, settings.provider.apiKey, settings.requestTimeoutMs, settings.modelContext, settings.modelVision]);
    if (cached?.key !== key) {
      const provider = createProvider(settings.provider, settings.requestTimeoutMs);
      const router = new LlmRouter({
        provider,
        modeCache,
        cacheKey: (model) => ModeCache.keyOf(settings.provider.kind, settings.provider.baseUrl, model),
        contextOverride: (model) => settings.modelContext[model],
        visionOverride: (model) => (Object.hasOwn(settings.modelVision, model) ? settings.modelVision[model] : undefined),
      });
      cached = { key, provider, router };
    }
    return cached;
  };

  return {
    async provider(): Promise<LlmProvider> {
      return build(await loadSettings(store)).provider;
    },
    async session(model?: string): Promise<Session> {
      const settings = await loadSettings(store);
      const { provider, router } = build(settings);
      const chosen = model || settings.provider.model;
      if (chosen) return { router, settings, model: chosen };
      const [first] = await provider.listModels();
      if (!first) {
        throw new LlmError('no_model', say('errorNoModels'), {
          hint: settings.provider.kind === 'ollama' ? say('hintPullAnyModel') : say('hintChooseModelInSettings'),
        });
      }
      return { router, settings, model: first.id };
    },
  };
}

/**
 * Defence in depth: a key goes only to the base URL it was saved for. Saving a new base URL clears
 * the key, so this trips only on settings written some other way.
 */
function refuseForeignKey(settings: Settings): void {
  const { apiKey, baseUrl } = settings.provider;
  if (!apiKey || sameBaseUrl(keyBoundTo(settings.provider), baseUrl)) return;
  throw new LlmError('key_mismatch', say('errorKeyMismatch', baseUrl), {
    hint: say('hintKeyMismatch'),
    retryable: false,
  });
}
