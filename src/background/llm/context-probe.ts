/**
 * The context window an OpenAI-compatible server really gives a model, asked of the server
 * itself where it says: an Ollama behind its /v1 endpoint (which ignores `num_ctx`, so the window
 * is what the model was loaded with: /api/ps, else the Modelfile's num_ctx from /api/show, else
 * Ollama's default), llama.cpp's server (/props, `n_ctx`), LM Studio (/api/v0/models/<id>, the
 * loaded context length). Undefined when none of them answers: the known-models table decides.
 */

/** What Ollama gives a model loaded without a num_ctx of its own. */
export const OLLAMA_DEFAULT_CONTEXT = 4096;
const PROBE_TIMEOUT_MS = 3_000;

export type FetchJson = (url: string, init?: { method?: string; body?: string; signal?: AbortSignal }) => Promise<unknown>;

export interface ProbedContext {
  tokens: number;
  /** Which server said so. */
  from: 'ollama-ps' | 'ollama-show' | 'ollama-default' | 'llama.cpp' | 'lm-studio';
}

/** The server's root: the base URL without its trailing /v1 (or /api/v1). */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/(api\/)?v1$/, '');
}

export async function probeContext(baseUrl: string, model: string, fetchJson: FetchJson, signal?: AbortSignal): Promise<ProbedContext | undefined> {
  const root = serverRoot(baseUrl);
  const ask = async (path: string, init?: { method?: string; body?: string }) => {
    try {
      return await fetchJson(`${root}${path}`, { ...init, signal: AbortSignal.any([AbortSignal.timeout(PROBE_TIMEOUT_MS), ...(signal ? [signal] : [])]) });
    } catch {
      return undefined;
    }
  };
  const [ps, props, studio] = await Promise.all([ask('/api/ps'), ask('/props'), ask(`/api/v0/models/${encodeURIComponent(model)}`)]);

  const loaded = listOf(ps, 'models').find((m) => m.name === model || m.model === model);
  if (loaded && positive(loaded.context_length)) return { tokens: loaded.context_length as number, from: 'ollama-ps' };
  if (ps && typeof ps === 'object' && 'models' in ps) {
    // An Ollama that has not loaded the model yet: its Modelfile's num_ctx, else Ollama's default.
    const shown = (await ask('/api/show', { method: 'POST', body: JSON.stringify({ model }) })) as { parameters?: unknown; model_info?: Record<string, unknown> } | undefined;
    const numCtx = typeof shown?.parameters === 'string' ? Number(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(shown.parameters)?.[1]) : NaN;
    const trained = Number(Object.entries(shown?.model_info ?? {}).find(([k]) => k.endsWith('.context_length'))?.[1]);
    if (positive(numCtx)) return { tokens: numCtx, from: 'ollama-show' };
    return { tokens: positive(trained) ? Math.min(trained, OLLAMA_DEFAULT_CONTEXT) : OLLAMA_DEFAULT_CONTEXT, from: 'ollama-default' };
  }
  const settings = (props as { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown } | undefined) ?? {};
  const nCtx = settings.default_generation_settings?.n_ctx ?? settings.n_ctx;
  if (positive(nCtx)) return { tokens: nCtx as number, from: 'llama.cpp' };
  const lm = (studio ?? {}) as { loaded_context_length?: unknown; max_context_length?: unknown };
  const lmTokens = positive(lm.loaded_context_length) ? lm.loaded_context_length : lm.max_context_length;
  if (positive(lmTokens)) return { tokens: lmTokens as number, from: 'lm-studio' };
  return undefined;
}

function positive(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function listOf(value: unknown, key: string): Record<string, unknown>[] {
  const list = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? list.filter((m): m is Record<string, unknown> => Boolean(m) && typeof m === 'object') : [];
}

/** `fetch` as the probe wants it: JSON on 2xx, an error otherwise. */
export const fetchJson: FetchJson = async (url, init) => {
  const response = await fetch(url, { method: init?.method ?? 'GET', body: init?.body, signal: init?.signal, headers: init?.body ? { 'content-type': 'application/json' } : undefined });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
};
