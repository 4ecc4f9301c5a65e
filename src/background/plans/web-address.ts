/**
 * Web addresses in plans: a step opens, links to and names sites only by http(s) addresses. What a
 * page or a model wrote is parsed once here; anything else (`javascript:`, `file:`, a relative path) is none.
 */

/** The value as an absolute http(s) URL, or undefined. */
export function webURL(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Longest address a step opens. */
const MAX_ADDRESS_CHARS = 2000;

/** The http(s) address a step may open, or undefined. */
export function webAddress(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= MAX_ADDRESS_CHARS ? webURL(value)?.href : undefined;
}

/** The site (origin) of an http(s) address, or undefined. */
export function webOrigin(value: unknown): string | undefined {
  return webURL(value)?.origin;
}
