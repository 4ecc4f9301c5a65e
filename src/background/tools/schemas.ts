import { z } from 'zod';
import { INVISIBLE_CHARS } from '../../shared/invisible';

/** Models write booleans as true, "true", "yes", 1…; `z.coerce.boolean` would read "false" as true. */
export const looseBoolean = z.preprocess((value) => {
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (['true', 'yes', '1', 'on', 'checked'].includes(v)) return true;
    if (['false', 'no', '0', 'off', 'unchecked'].includes(v)) return false;
  }
  if (value === 1 || value === 0) return value === 1;
  return value;
}, z.boolean());

/** An element id as the snapshot shows it: 12, "12" or "[12]". */
export const elementId = z.preprocess(
  (value) => (typeof value === 'string' ? Number(value.replace(/[[\]\s#]/g, '')) : value),
  z.number().int().positive(),
).describe('The [id] of the element in the latest page snapshot.');

/**
 * Characters a URL may be wrapped in that the browser ignores but a naive parser does not:
 * whitespace of every kind (including no-break and zero-width spaces), controls, BOM, bidi marks.
 */
const PADDING = new RegExp(`[\\s${INVISIBLE_CHARS}]`);

/** `text` without padding at either end; walks in from both ends (linear on any input). */
function trimPadding(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PADDING.test(text[start]!)) start++;
  while (end > start && PADDING.test(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * A web address as it will load: trimmed, `https://` added where the scheme is missing, parsed,
 * and written back in the parser's own form. The permission gate and the tab see this one string,
 * so what is judged is exactly what loads. Only http and https pages can be opened.
 */
export function normalizeWebUrl(raw: string): { ok: true; url: string } | { ok: false; error: string } {
  const text = trimPadding(raw);
  // `host:port/…` has no scheme; `name:` followed by anything else does.
  const hasScheme = /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text);
  if (!hasScheme && text.startsWith('/') && !text.startsWith('//')) {
    return { ok: false, error: 'give the full address (https://site/path), not a path alone' };
  }
  let parsed: URL;
  try {
    parsed = new URL(hasScheme ? text : `https://${text.replace(/^\/\//, '')}`);
  } catch {
    return { ok: false, error: 'not a web address; give the full address, such as https://example.org/page' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, error: `only http and https pages can be opened, not ${parsed.protocol} addresses` };
  if (!parsed.hostname) return { ok: false, error: 'the address has no site; give the full address, such as https://example.org/page' };
  return { ok: true, url: parsed.href };
}

/** A URL argument, normalised by `normalizeWebUrl`; an address that cannot load is refused. */
export const webUrl = z
  .string()
  .min(1)
  .transform((raw, ctx) => {
    const result = normalizeWebUrl(raw);
    if (result.ok) return result.url;
    ctx.addIssue({ code: 'custom', message: result.error });
    return z.NEVER;
  })
  .describe('The full address, starting with https://');
