import type { Browser } from 'webextension-polyfill';

/** Firefox's own extension API (extension pages always have it; component tests provide one). */
declare const browser: Browser | undefined;

/**
 * A user-visible string from `_locales`. A missing key shows as the key itself, which a test
 * catches, rather than as an empty label.
 */
export function t(key: string, substitutions?: string | string[]): string {
  const message = typeof browser === 'undefined' ? '' : browser.i18n.getMessage(key, substitutions);
  return message || key;
}
