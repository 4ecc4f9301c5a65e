import { z } from 'zod';
import { PlanSettingsSchema } from './plan-settings';
import { DEFAULT_VOICE_SETTINGS, VoiceSettingsSchema, type VoiceSettings } from './voice';

/** Which kind of server the user points FoxAgent at. */
export const ProviderKindSchema = z.enum(['ollama', 'openai', 'openrouter', 'openai-compatible']);
export type ProviderKind = z.infer<typeof ProviderKindSchema>;

export const ToolCallModeSchema = z.enum(['auto', 'native', 'constrained', 'xml']);
export type ToolCallMode = z.infer<typeof ToolCallModeSchema>;

/** Which tools the agent offers a model: a few with short descriptions (small models choose better), or all. */
export const ToolTierSchema = z.enum(['compact', 'full']);
export type ToolTier = z.infer<typeof ToolTierSchema>;

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
  /**
   * The base URL the key was saved for; the background sends the key nowhere else. Set by the
   * background when it saves; absent in settings saved before keys were bound (bound to `baseUrl`).
   */
  keyFor: z.string().optional(),
  model: z.string().default(''),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

export const SettingsSchema = z.object({
  provider: ProviderSettingsSchema,
  toolCallMode: ToolCallModeSchema.default('auto'),
  stepLimit: z.number().int().min(1).max(25).default(10),
  /** Milliseconds a provider may stay silent before a request is abandoned. */
  requestTimeoutMs: z.number().int().min(1_000).max(600_000).default(120_000),
  /**
   * Context windows the user set, in tokens, by model id: they win over what the server says and
   * over the known-models table (for servers that say nothing, or say it wrong).
   */
  modelContext: z.record(z.string().max(300), z.number().int().min(512).max(10_000_000)).default({}),
  /** The tool set the user chose, by model id: it wins over the choice by the model's size. */
  modelToolTier: z.record(z.string().max(300), ToolTierSchema).default({}),
  /**
   * Whether a model reads images, as the user set it by model id: it wins over what the server
   * says and over the known-models table (OpenAI-compatible servers mostly say nothing).
   */
  modelVision: z.record(z.string().max(300), z.boolean()).default({}),
  /** Voice commands: the transcription server (its key bound like the model key), sending, spoken replies. */
  voice: VoiceSettingsSchema.default(DEFAULT_VOICE_SETTINGS),
  /** Workflow plans: approval of read-only plans, the tabs a plan opened, concurrency. */
  plans: PlanSettingsSchema.default(PlanSettingsSchema.parse({})),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  provider: { kind: 'ollama', baseUrl: PROVIDER_PRESETS.ollama.baseUrl, apiKey: '', model: '' },
  toolCallMode: 'auto',
  stepLimit: 10,
  requestTimeoutMs: 120_000,
  modelContext: {},
  modelToolTier: {},
  modelVision: {},
  voice: DEFAULT_VOICE_SETTINGS,
  plans: PlanSettingsSchema.parse({}),
};

/** Settings as stored: fields an older or partly written copy lacks are filled in from the defaults. */
export const StoredSettingsSchema = z.preprocess((stored) => {
  const candidate = typeof stored === 'object' && stored !== null ? (stored as Partial<Settings>) : {};
  return { ...DEFAULT_SETTINGS, ...candidate, provider: { ...DEFAULT_SETTINGS.provider, ...(candidate.provider ?? {}) } };
}, SettingsSchema);

/**
 * Reads settings from a stored value, falling back field by field to the defaults so that a
 * partly written or older settings object never leaves the extension unusable.
 */
export function parseSettings(stored: unknown): Settings {
  const parsed = StoredSettingsSchema.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

/** Base URLs compared as the user means them: surrounding space and trailing slashes do not count. */
export function sameBaseUrl(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, '').toLowerCase();
  return norm(a) === norm(b);
}

/** Whether two provider settings talk to the same server (same kind, same base URL). */
export function sameServer(a: ProviderSettings, b: ProviderSettings): boolean {
  return a.kind === b.kind && sameBaseUrl(a.baseUrl, b.baseUrl);
}

/** A server's settings that hold a key bound to a base URL (the model provider, the transcription server). */
interface KeyedServer {
  baseUrl: string;
  apiKey: string;
  keyFor?: string;
}

/** The base URL the stored key may be sent to. */
export function keyBoundTo(server: Pick<KeyedServer, 'baseUrl' | 'keyFor'>): string {
  return server.keyFor ?? server.baseUrl;
}

/** Whether two transcription settings talk to the same server (same provider, same base URL). */
export function sameVoiceServer(a: VoiceSettings, b: VoiceSettings): boolean {
  return a.provider === b.provider && sameBaseUrl(a.baseUrl, b.baseUrl);
}

/**
 * One server's settings to store when `incoming` replaces `previous`. A key follows no change of
 * server: unless a new key was entered with the change, it is removed. A page that is not the
 * options page never holds the key, so its save keeps the stored one (subject to the same rule).
 */
function bindKey<T extends KeyedServer>(previous: T, incoming: T, fromOptionsPage: boolean, sameServerAs: (a: T, b: T) => boolean): T {
  const apiKey = fromOptionsPage ? incoming.apiKey : previous.apiKey;
  const keptOldKey = apiKey !== '' && apiKey === previous.apiKey;
  const cleared = keptOldKey && !sameServerAs(previous, incoming);
  const key = cleared ? '' : apiKey;
  // Saved from the options page, the key is bound to the base URL shown next to it there.
  const keyFor = key === '' ? undefined : fromOptionsPage ? incoming.baseUrl : keyBoundTo(previous);
  const server: T = { ...incoming, apiKey: key };
  delete server.keyFor;
  return keyFor === undefined ? server : { ...server, keyFor };
}

/** The settings to store when `incoming` replaces `previous`: the model key and the transcription key each bound to their server. */
export function settingsToStore(previous: Settings, incoming: Settings, { fromOptionsPage }: { fromOptionsPage: boolean }): Settings {
  return {
    ...incoming,
    provider: bindKey(previous.provider, incoming.provider, fromOptionsPage, sameServer),
    voice: bindKey(previous.voice, incoming.voice, fromOptionsPage, sameVoiceServer),
  };
}

function keyless<T extends KeyedServer>(server: T): T {
  const copy: T = { ...server, apiKey: '' };
  delete copy.keyFor;
  return copy;
}

/** Settings as any page but the options page receives them: without the keys. */
export function withoutKey(settings: Settings): Settings {
  return { ...settings, provider: keyless(settings.provider), voice: keyless(settings.voice) };
}
