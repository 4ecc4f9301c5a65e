import { z } from 'zod';

/** What reading a stored value gave: the value to use, and what was wrong with what was stored. */
export interface Decoded<T> {
  value: T;
  /** Empty when the stored value was sound (or absent); otherwise what was dropped or replaced. */
  problems: string[];
}

/** One typed value under one storage key. */
export interface StoreRecord<T> {
  readonly key: string;
  /** Checks a stored value; never throws: a corrupt value becomes the fallback, saying why. */
  decode(stored: unknown): Decoded<T>;
}

const issues = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'value'}: ${i.message}`)
    .join('; ');

/** A value checked whole: absent gives the fallback quietly, invalid gives it with the reason. */
export function single<T>(key: string, schema: z.ZodType<T>, fallback: () => T, readAs = 'replaced by the default'): StoreRecord<T> {
  return {
    key,
    decode(stored) {
      if (stored === undefined) return { value: fallback(), problems: [] };
      const parsed = schema.safeParse(stored);
      return parsed.success ? { value: parsed.data, problems: [] } : { value: fallback(), problems: [`unreadable, ${readAs} (${issues(parsed.error)})`] };
    },
  };
}

/** A value that may be absent (`undefined` when absent or unreadable). */
export function optional<T>(key: string, schema: z.ZodType<T>): StoreRecord<T | undefined> {
  return single<T | undefined>(key, schema, () => undefined, 'read as absent');
}

/**
 * A list checked item by item: an unreadable item is dropped and reported, the others are kept,
 * so one bad entry never costs the rest.
 */
export function list<T>(key: string, item: z.ZodType<T>): StoreRecord<T[]> {
  return {
    key,
    decode(stored) {
      if (stored === undefined) return { value: [], problems: [] };
      if (!Array.isArray(stored)) return { value: [], problems: [`not a list (${typeof stored}), read as empty`] };
      const value: T[] = [];
      const problems: string[] = [];
      stored.forEach((raw, i) => {
        const parsed = item.safeParse(raw);
        if (parsed.success) value.push(parsed.data);
        else if (problems.length < 5) problems.push(`item ${i} unreadable, dropped (${issues(parsed.error)})`);
        else if (problems.length === 5) problems.push('more unreadable items dropped');
      });
      return { value, problems };
    },
  };
}

/** Records with one key each under a common prefix (`conversation:<id>`). */
export function family<Id extends string | number, T>(key: (id: Id) => string, make: (key: string) => StoreRecord<T>): (id: Id) => StoreRecord<T> {
  return (id) => make(key(id));
}

/**
 * Roll-off for a bounded collection kept newest first: what stays, and what goes (whose own
 * records the owner then removes).
 */
export function rollOff<T>(newestFirst: readonly T[], max: number): { kept: T[]; dropped: T[] } {
  return { kept: newestFirst.slice(0, max), dropped: newestFirst.slice(max) };
}
