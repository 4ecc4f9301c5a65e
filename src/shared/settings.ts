import { z } from 'zod';

/** Which kind of server the user points FoxAgent at. */
export const ProviderKindSchema = z.enum(['ollama', 'openai', 'openrouter', 'openai-compatible']);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

export const ToolCallModeSchema = z.enum(['auto', 'native', 'xml']);
export type ToolCallMode = z.infer<typeof ToolCallModeSchema>;

/** Where each provider lives when the user has not said otherwise. */
export const PROVIDER_PRESETS: Record<ProviderKind, { baseUrl: string; needsKey: boolean }> = {
  ollama: { baseUrl: 'http://127.0.0.1:11434', needsKey: false },
  openai: { baseUrl: 'https://api.openai.com/v1', needsKey: true },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', needsKey: true },
  'openai-compatible': { baseUrl: 'http://127.0.0.1:1234/v1', needsKey: false },
};

export const ProviderSettingsSchema = z.object({
  kind: ProviderKindSchema,
  baseUrl: z.string().url(),
  apiKey: z.string().default(''),
  model: z.string().default(''),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const SettingsSchema = z.object({
  provider: ProviderSettingsSchema,
  toolCallMode: ToolCallModeSchema.default('auto'),
  stepLimit: z.number().int().min(1).max(25).default(10),
  /** Milliseconds a provider may stay silent before a request is abandoned. */
  requestTimeoutMs: z.number().int().min(1_000).max(600_000).default(120_000),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  provider: { kind: 'ollama', baseUrl: PROVIDER_PRESETS.ollama.baseUrl, apiKey: '', model: '' },
  toolCallMode: 'auto',
  stepLimit: 10,
  requestTimeoutMs: 120_000,
};

export const SETTINGS_KEY = 'settings';

/**
 * Reads settings from a stored value, falling back field by field to the defaults so that a
 * partly written or older settings object never leaves the extension unusable.
 */
export function parseSettings(stored: unknown): Settings {
  const candidate = typeof stored === 'object' && stored !== null ? (stored as Partial<Settings>) : {};
  const merged = {
    ...DEFAULT_SETTINGS,
    ...candidate,
    provider: { ...DEFAULT_SETTINGS.provider, ...(candidate.provider ?? {}) },
  };
  const parsed = SettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

/** The minimal storage surface settings need; `browser.storage.local` satisfies it. */
export interface KeyValueStore {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export async function loadSettings(store: KeyValueStore): Promise<Settings> {
  const items = await store.get(SETTINGS_KEY);
  return parseSettings(items[SETTINGS_KEY]);
}

export async function saveSettings(store: KeyValueStore, settings: Settings): Promise<Settings> {
  const valid = SettingsSchema.parse(settings);
  await store.set({ [SETTINGS_KEY]: valid });
  return valid;
}
