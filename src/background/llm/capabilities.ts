import type { ProviderKind } from '../../shared/settings';
import { MAX_TEXT_MODE_MODELS, RECORDS, rollOff, storeOf, type Store, type StoreOrArea } from '../../shared/store';

/** What a model can do, and how sure we are. */
export interface ModelCapabilities {
  /** true / false when the server said so; undefined when unknown (auto mode tries native). */
  tools?: boolean;
  vision?: boolean;
  contextLength: number;
  source: 'server' | 'table' | 'default';
  /** Billions of parameters, where the server says (Ollama's details.parameter_size). */
  parameterBillions?: number;
  /** The model's family, where the server says (Ollama's details.family). */
  family?: string;
}

/** A context length to assume when nobody says: small enough not to overflow small local models. */
export const DEFAULT_CONTEXT_LENGTH = 8192;

/**
 * Well-known model families, for servers that report nothing (OpenAI's /v1/models, LM Studio,
 * llama.cpp). First match wins; names are matched without any "vendor/" prefix.
 */
const KNOWN_MODELS: readonly [RegExp, Omit<ModelCapabilities, 'source'>][] = [
  [/^gpt-5/, { tools: true, vision: true, contextLength: 400_000 }],
  [/^gpt-4\.1/, { tools: true, vision: true, contextLength: 1_047_576 }],
  [/^gpt-4o/, { tools: true, vision: true, contextLength: 128_000 }],
  [/^gpt-4-turbo/, { tools: true, vision: true, contextLength: 128_000 }],
  [/^gpt-4/, { tools: true, vision: false, contextLength: 8_192 }],
  [/^gpt-3\.5/, { tools: true, vision: false, contextLength: 16_385 }],
  [/^o[1345](-|$)/, { tools: true, vision: true, contextLength: 200_000 }],
  [/^claude/, { tools: true, vision: true, contextLength: 200_000 }],
  [/^gemini/, { tools: true, vision: true, contextLength: 1_048_576 }],
  [/^gemma-?3/, { tools: false, vision: true, contextLength: 131_072 }],
  [/^llama-?3\.[123]/, { tools: true, vision: false, contextLength: 131_072 }],
  [/^qwen3/, { tools: true, vision: false, contextLength: 40_960 }],
  [/^qwen2\.5/, { tools: true, vision: false, contextLength: 32_768 }],
  [/^(mistral|mixtral|ministral)/, { tools: true, vision: false, contextLength: 32_768 }],
  [/^deepseek-r1/, { tools: false, vision: false, contextLength: 65_536 }],
  [/^deepseek/, { tools: true, vision: false, contextLength: 65_536 }],
  [/^phi-?[34]/, { tools: false, vision: false, contextLength: 16_384 }],
];

export function capabilitiesFromTable(model: string): ModelCapabilities {
  const name = model.toLowerCase().replace(/^.*\//, '');
  const hit = KNOWN_MODELS.find(([pattern]) => pattern.test(name));
  return hit ? { ...hit[1], source: 'table' } : { contextLength: DEFAULT_CONTEXT_LENGTH, source: 'default' };
}

/** The tool-call modes `auto` can settle on for a model after native calls failed it. */
export type LearntMode = 'constrained' | 'xml';

/**
 * Remembers, per model, the mode `auto` fell back to (schema-constrained replies, or text tool
 * calls), so later turns go straight there. Kept in storage: the lesson survives a browser restart.
 * Entries stored before constrained mode existed (a bare time) read as text mode. Bounded: the
 * models learnt longest ago roll off past `MAX_TEXT_MODE_MODELS`.
 */
export class ModeCache {
  private loaded: Record<string, LearntModeEntry> | undefined;
  private readonly store: Store;

  constructor(
    storage: StoreOrArea,
    private readonly max = MAX_TEXT_MODE_MODELS,
  ) {
    this.store = storeOf(storage);
  }

  static keyOf(kind: ProviderKind, baseUrl: string, model: string): string {
    return `${kind}|${baseUrl.replace(/\/+$/, '')}|${model}`;
  }

  async modeOf(key: string): Promise<LearntMode | undefined> {
    const entry = (await this.all())[key];
    if (entry === undefined) return undefined;
    return typeof entry === 'number' ? 'xml' : entry.mode;
  }

  async remember(key: string, mode: LearntMode, now = Date.now()): Promise<void> {
    const rest = Object.entries(await this.all()).filter(([k]) => k !== key);
    const newestFirst = [[key, { mode, at: now }] as const, ...rest.sort((a, b) => timeOf(b[1]) - timeOf(a[1]))];
    const all = Object.fromEntries(rollOff(newestFirst, this.max).kept);
    this.loaded = all;
    await this.store.set(RECORDS.textToolModels, all);
  }

  private async all(): Promise<Record<string, LearntModeEntry>> {
    this.loaded ??= await this.store.read(RECORDS.textToolModels);
    return this.loaded;
  }
}

type LearntModeEntry = number | { mode: LearntMode; at: number };

const timeOf = (entry: LearntModeEntry) => (typeof entry === 'number' ? entry : entry.at);
