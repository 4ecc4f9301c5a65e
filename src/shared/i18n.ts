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
  /** Substitutions: plain text, or a message of its own (the element a question names), worded in the same language. */
  args?: (string | Localized)[];
}

/** How deep messages may nest inside substitutions; received text nested deeper is refused. */
const MAX_NESTING = 3;

function localizedSchema(depth: number): z.ZodType<Localized> {
  const arg = depth > 0 ? z.union([z.string(), localizedSchema(depth - 1)]) : z.string();
  return z.object({ key: z.string(), args: z.array(arg).max(12).optional() }) as unknown as z.ZodType<Localized>;
}

/** Received and stored text: a key the catalogue may no longer hold still parses (it shows as the key). */
export const LocalizedSchema = localizedSchema(MAX_NESTING);

export function say(key: MessageKey, ...args: (string | number | Localized)[]): Localized {
  return args.length ? { key, args: args.map((arg) => (typeof arg === 'number' ? String(arg) : arg)) } : { key };
}

/** Words for a message in one language: `word(key, substitutions)` looks a key up; nested messages are worded first. */
export function wordsOf(text: Localized, word: (key: string, substitutions: string[]) => string): string {
  const substitutions = (text.args ?? []).map((arg) => (typeof arg === 'string' ? arg : wordsOf(arg, word)));
  return word(text.key, substitutions) || text.key;
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

/** A message in the words of one catalogue (nested messages included); the key itself where the catalogue lacks it. */
export function wordedIn(catalogue: Catalogue, text: Localized): string {
  return wordsOf(text, (key, substitutions) => formatMessage(catalogue, key, substitutions));
}
