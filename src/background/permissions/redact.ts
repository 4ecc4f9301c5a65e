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

/** How much of a tool call the audit log keeps: enough to tell what happened, never a page's worth. */
export const LOG_LIMITS = { string: 300, items: 20, keys: 30, depth: 4, argsJson: 2_000 };

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`]+/gi;

/** A URL without what tends to carry personal data: query string, fragment, user and password. */
function bareUrl(text: string): string {
  try {
    const url = new URL(text);
    if (!url.search && !url.hash && !url.username && !url.password) return text;
    url.search = '';
    url.hash = '';
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return text.replace(/[?#].*$/s, '');
  }
}

/** Text fit for the log: every URL in it bare, and cut to a bound that says how long it was. */
export function textForLog(text: string, limit = LOG_LIMITS.string): string {
  const trimmed = text.trim();
  const stripped = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/\s/.test(trimmed) ? bareUrl(trimmed) : text.replace(URL_IN_TEXT, bareUrl);
  return stripped.length > limit ? `${stripped.slice(0, limit)}… [${stripped.length.toLocaleString('en')} characters]` : stripped;
}

function valueForLog(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return textForLog(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= LOG_LIMITS.depth) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, LOG_LIMITS.items).map((v) => valueForLog(v, depth + 1));
    return value.length > LOG_LIMITS.items ? [...items, `… ${value.length - LOG_LIMITS.items} more`] : items;
  }
  const entries = Object.entries(value);
  const kept = Object.fromEntries(entries.slice(0, LOG_LIMITS.keys).map(([k, v]) => [k, valueForLog(v, depth + 1)]));
  return entries.length > LOG_LIMITS.keys ? { ...kept, '…': `${entries.length - LOG_LIMITS.keys} more` } : kept;
}

/**
 * Arguments as the audit log stores them (after `redactArgs`): URLs bare, strings, lists and
 * nesting cut short, and the whole bounded, so one call cannot make every later append costly.
 */
export function argsForLog(args: Record<string, unknown>): Record<string, unknown> {
  const bounded = valueForLog(args, 0) as Record<string, unknown>;
  const json = JSON.stringify(bounded);
  if (json.length <= LOG_LIMITS.argsJson) return bounded;
  // Still too big (many long values): keep the first values whole, note the rest.
  const out: Record<string, unknown> = {};
  let size = 2;
  for (const [key, value] of Object.entries(bounded)) {
    const cost = JSON.stringify({ [key]: value }).length;
    if (size + cost > LOG_LIMITS.argsJson - 60) {
      out['…'] = `arguments cut: ${json.length.toLocaleString('en')} characters in all`;
      break;
    }
    out[key] = value;
    size += cost;
  }
  return out;
}
