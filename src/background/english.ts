/**
 * English words for a {@link Localized} message, for what the background itself writes in
 * English: `Error.message`, logs, and the text stored beside a key for readers that know no
 * keys (exports, older builds). The user sees the key resolved in their language.
 */
import catalogue from '../../_locales/en/messages.json';
import { wordedIn, type Localized } from '../shared/i18n';

export function english(text: Localized | string): string {
  return typeof text === 'string' ? text : wordedIn(catalogue, text);
}
