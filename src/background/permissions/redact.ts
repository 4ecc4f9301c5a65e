import { isSensitiveField, type TargetInfo } from './tiers';

const SECRET_KEY = /pass(word)?|secret|token|api.?key|otp|pin|cvv|cvc|card/i;

/** Arguments fit for a log: secrets, and whatever was typed into a sensitive field, hidden. */
export function redactArgs(args: Record<string, unknown>, target?: TargetInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const typedIntoSecret = key === 'text' && isSensitiveField(target);
    out[key] = SECRET_KEY.test(key) || typedIntoSecret ? '[redacted]' : value;
  }
  return out;
}
