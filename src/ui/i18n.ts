import type { Browser } from 'webextension-polyfill';
import type { ErrorText } from '../shared/conversation';
import { wordsOf, type Localized, type MessageKey } from '../shared/i18n';

/** Firefox's own extension API (extension pages always have it; component tests provide one). */
declare const browser: Browser | undefined;

/**
 * A user-visible string from `_locales`. A missing key shows as the key itself, which a test
 * catches, rather than as an empty label.
 */
export function t(key: MessageKey, substitutions?: string | string[]): string {
  const message = typeof browser === 'undefined' ? '' : browser.i18n.getMessage(key, substitutions);
  return message || key;
}

/** A message the background sent as keys, in the user's language (several parts joined by `joiner`). */
export function shown(text: Localized | Localized[], joiner = ' '): string {
  return [text].flat().map((part) => wordsOf(part, (key, substitutions) => t(key as MessageKey, substitutions))).join(joiner);
}

/**
 * An error's words as the user reads them: from its keys where it carries them, otherwise the
 * English it was stored with (errors saved before keys, text no catalogue holds).
 */
export function errorWords(error: { message: string; hint?: string; text?: ErrorText }): { message: string; hint?: string } {
  const { text } = error;
  if (!text) return { message: error.message, hint: error.hint };
  return { message: shown(text.message), hint: text.hint ? shown(text.hint) : error.hint };
}
