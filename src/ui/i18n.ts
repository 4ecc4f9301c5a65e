import browser from 'webextension-polyfill';

/**
 * A user-visible string from `_locales`. A missing key shows as the key itself, which a test
 * catches, rather than as an empty label.
 */
export function t(key: string, substitutions?: string | string[]): string {
  const message = browser.i18n.getMessage(key, substitutions);
  return message || key;
}
