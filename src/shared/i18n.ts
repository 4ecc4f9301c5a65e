import { z } from 'zod';
import type english from '../../_locales/en/messages.json';

/** A key of the English catalogue, which every other locale mirrors (a unit test checks). */
export type MessageKey = keyof typeof english;

/**
 * A user-visible message as it crosses contexts and is stored: a catalogue key and its
 * substitutions, turned into words only where it is shown, in the user's language.
 */
export interface Localized {
  key: MessageKey;
  args?: string[];
}

/** Received and stored text: a key the catalogue may no longer hold still parses (it shows as the key). */
export const LocalizedSchema = z.object({ key: z.string(), args: z.array(z.string()).optional() }) as unknown as z.ZodType<Localized>;

export function say(key: MessageKey, ...args: (string | number)[]): Localized {
  return args.length ? { key, args: args.map(String) } : { key };
}

export interface CatalogueEntry {
  message: string;
  placeholders?: Record<string, { content: string }>;
}
export type Catalogue = Record<string, CatalogueEntry>;

/** What `browser.i18n.getMessage` does: named placeholders filled from `$1`…`$9`; '' for a missing key. */
export function formatMessage(catalogue: Catalogue, key: string, substitutions: readonly string[] = []): string {
  const entry = catalogue[key];
  if (!entry) return '';
  const fill = (text: string) => text.replace(/\$(\d)/g, (_m, n: string) => substitutions[Number(n) - 1] ?? '');
  // One pass, so that a substitution holding `$$` or `$NAME$` (a server's words) stays as it is.
  return entry.message.replace(/\$\$|\$([A-Z0-9_]+)\$/gi, (match, name?: string) => (name ? fill(entry.placeholders?.[name.toLowerCase()]?.content ?? '') : '$'));
}
