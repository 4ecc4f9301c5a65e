/**
 * One module owns storage: every key is named in `src/shared/store/keys.ts`, and no other module
 * writes a key string or reaches `browser.storage` except to hand it to a `Store`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { KEYS } from '../../../src/shared/store';

const SRC = path.resolve(__dirname, '../../../src');
const STORE_DIR = 'shared/store/';
/** Where a `Store` is made over `browser.storage.local`: the background's composition root and the sidebar's. */
const OPENERS = ['background/index.ts', 'sidebar/lib/store.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

const files = sources(SRC).map((file) => ({ file: path.relative(SRC, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }));
const outside = files.filter((f) => !f.file.startsWith(STORE_DIR));

const fixed: string[] = Object.values(KEYS as Record<string, unknown>).filter((k): k is string => typeof k === 'string');
const prefixes = [KEYS.conversation(''), KEYS.auditSegment(0).replace(/0$/, '')];

/**
 * String literals (quoted, or a template's head) in a source text, but not those that are
 * plainly something else with the same name: a locale string (`t('sensitiveSites')`) or a
 * method named in a type (`Pick<PolicyStore, 'sensitiveSites'>`).
 */
const literals = (text: string) =>
  text.split('\n').flatMap((line) =>
    [...line.matchAll(/'([^']*)'|"([^"]*)"|`([^`$]*)[^`]*`/g)]
      .filter((m) => !/(\bt\(|Pick<[^>]*)$/.test(line.slice(0, m.index)))
      .map((m) => m[1] ?? m[2] ?? m[3] ?? ''),
  );

test('the key list is what the tests below look for, and the scan finds a key where one is written', () => {
  expect(fixed).toEqual(expect.arrayContaining(['settings', 'conversationIndex', 'activeConversationId', 'auditIndex', 'permissionPolicies', 'composerDraft', 'schemaVersion']));
  expect(prefixes).toEqual(['conversation:', 'audit:']);
  expect(literals("await storage.get('composerDraft'); const k = `conversation:${id}`; t('settings')")).toEqual(['composerDraft', 'conversation:']);
});

test.each(outside.map((f) => [f.file, f.text]))('%s names no storage key', (_file, text) => {
  const found = literals(text as string).filter((s) => fixed.includes(s) || prefixes.some((p) => s.startsWith(p)));
  expect(found).toEqual([]);
});

test.each(outside.map((f) => [f.file, f.text]))('%s reaches browser.storage only to open the store', (file, text) => {
  const uses = (text as string).match(/\bbrowser\.storage\b/g) ?? [];
  if (OPENERS.includes(file as string)) expect(uses.length).toBeGreaterThan(0);
  else expect(uses).toEqual([]);
});
