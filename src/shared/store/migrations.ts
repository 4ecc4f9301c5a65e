/**
 * The storage layout's versions. The version is stored with the data (`schemaVersion`; absent
 * means 0: written before the store layer). When the background opens the store, each migration
 * above the stored version runs in order, and the version is written after each one, so a
 * migration cut off (the browser closing) runs again from where the last one ended. Every
 * migration must be safe to run twice and must lose nothing it does not replace.
 */
import { KEYS } from './keys';
import type { StorageArea, StoreProblem } from './store';

export interface Migration {
  /** The version the data has after this migration. */
  to: number;
  /** What it changes, for the report if it fails. */
  what: string;
  run(area: StorageArea): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    to: 1,
    // Version 1 is the layout of version 0 with its version recorded: the same keys and shapes,
    // so nothing is rewritten. Records are checked by their schemas as they are read.
    what: 'record the layout version of data written before the store layer',
    run: async () => undefined,
  },
];

/** The layout this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.to;

/**
 * Brings the stored layout up to the last migration's version. Never throws: a failed migration is
 * reported and leaves the version where it was (the data stays as it was, to be tried again at
 * the next start); data from a newer FoxAgent is left untouched and read as far as it can be.
 */
export async function runMigrations(area: StorageArea, migrations: readonly Migration[], report: (problem: StoreProblem) => void): Promise<void> {
  const key = KEYS.schemaVersion;
  try {
    const stored = (await area.get(key))[key];
    const version = stored === undefined ? 0 : stored;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
      report({ key, message: `is ${JSON.stringify(stored)}, not a version: no migration was run` });
      return;
    }
    const latest = migrations.at(-1)?.to ?? 0;
    if (version > latest) {
      report({ key, message: `is ${version}: written by a newer FoxAgent (this one knows up to ${latest}); read as far as this version understands it` });
      return;
    }
    for (const migration of migrations) {
      if (migration.to <= version) continue;
      try {
        await migration.run(area);
      } catch (error) {
        report({ key, message: `stays at ${migration.to - 1}: the migration to ${migration.to} (${migration.what}) failed: ${error instanceof Error ? error.message : String(error)}` });
        return;
      }
      await area.set({ [key]: migration.to });
    }
  } catch (error) {
    report({ key, message: `could not be read or written, no migration was run: ${error instanceof Error ? error.message : String(error)}` });
  }
}
