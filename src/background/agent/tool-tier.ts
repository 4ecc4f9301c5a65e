/**
 * Which tool set a model is offered. A model of a few billion parameters picks the right tool
 * more often among eight than among twenty, so small models get the compact set (and can ask for
 * the rest); models that are large, or whose size nobody says, get every tool.
 */
import type { ToolTier } from '../../shared/settings';
import type { ModelCapabilities } from '../llm/capabilities';

/** Models up to this many billions of parameters are offered the compact set. */
export const SMALL_MODEL_BILLIONS = 8;

/** Why the tier is what it is: shown with the timeline's tool information. */
export type TierReason = 'setting' | 'small_model' | 'large_model' | 'size_unknown' | 'asked_for_more';

export interface TierChoice {
  tier: ToolTier;
  reason: TierReason;
  /** The size the choice was made on, in billions of parameters. */
  billions?: number;
}

/** Small model families whose names carry no size ("phi-3-mini", "smollm2", "tinyllama"). */
const SMALL_FAMILIES: readonly RegExp[] = [/^phi-?\d(\.\d)?[-:_ ]?mini/, /^smollm/, /^tinyllama/, /^gemma-?\dn/, /^ministral/];

/** "3b", "1.5b", "270m" as a word of the name; "8x7b" as its product; not "a3b" (active parameters). */
const SIZE_IN_NAME = /(?:^|[^a-z0-9.])(?:(\d{1,3})x)?(\d{1,4}(?:\.\d{1,2})?)([bm])(?![a-z0-9])/g;

/** The tier for `model`: the user's setting, else by its size (from the server, else its name), else full. */
export function chooseTier(model: string, caps: Pick<ModelCapabilities, 'parameterBillions' | 'family'>, setting?: ToolTier): TierChoice {
  if (setting) return { tier: setting, reason: 'setting' };
  const billions = caps.parameterBillions ?? sizeFromName(model);
  if (billions !== undefined) return { tier: billions <= SMALL_MODEL_BILLIONS ? 'compact' : 'full', reason: billions <= SMALL_MODEL_BILLIONS ? 'small_model' : 'large_model', billions };
  if (isSmallFamily(model) || (caps.family !== undefined && isSmallFamily(caps.family))) return { tier: 'compact', reason: 'small_model' };
  return { tier: 'full', reason: 'size_unknown' };
}

/** The largest size written in a model id ("qwen2.5:3b" → 3, "llama3.2-3b-instruct" → 3, "mixtral-8x7b" → 56). */
export function sizeFromName(model: string): number | undefined {
  const name = bareName(model);
  let largest: number | undefined;
  for (const match of name.matchAll(SIZE_IN_NAME)) {
    const experts = match[1] ? Number(match[1]) : 1;
    const billions = (Number(match[2]) * experts) / (match[3] === 'm' ? 1000 : 1);
    largest = Math.max(largest ?? 0, billions);
  }
  return largest;
}

function isSmallFamily(name: string): boolean {
  const bare = bareName(name);
  return SMALL_FAMILIES.some((family) => family.test(bare));
}

/** Lower case, without a "vendor/" prefix; model ids are short (settings cap them at 300). */
function bareName(model: string): string {
  return model.slice(0, 300).toLowerCase().replace(/^.*\//, '');
}
