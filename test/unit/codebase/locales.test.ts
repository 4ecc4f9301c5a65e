/**
 * Every locale is complete and consistent: the same keys, the same placeholders per key, every
 * key the code names exists, and a translation is a translation (not the English left in place).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Catalogue } from '../../../src/shared/i18n';

const ROOT = path.resolve(__dirname, '../../..');
const LOCALES_DIR = path.join(ROOT, '_locales');
const locales = readdirSync(LOCALES_DIR).sort();
const catalogues: Record<string, Catalogue> = Object.fromEntries(
  locales.map((locale) => [locale, JSON.parse(readFileSync(path.join(LOCALES_DIR, locale, 'messages.json'), 'utf8')) as Catalogue]),
);
const english = catalogues.en!;

/** Names and brand words that read the same in every language. */
const SAME_IN_EVERY_LANGUAGE = new Set(['extensionName', 'sidebarTitle', 'provider_openai', 'provider_openrouter', 'settingsToolMode_xml', 'intent_chat', 'intent_plan', 'chats', 'auditTool', 'mode_agent', 'voiceProvider_openai', 'voiceProvider_groq']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The placeholders a message uses, and what each one is filled from. */
function placeholders(entry: { message: string; placeholders?: Record<string, { content: string }> }) {
  const used = [...entry.message.matchAll(/\$([A-Z0-9_]+)\$/gi)].map((m) => m[1]!.toLowerCase());
  const declared = Object.fromEntries(Object.entries(entry.placeholders ?? {}).map(([name, p]) => [name, p.content]));
  return { used: [...new Set(used)].sort(), declared };
}

test('there is a second locale beside English', () => {
  expect(locales).toEqual(expect.arrayContaining(['en', 'de']));
});

test.each(locales.flatMap((a) => locales.filter((b) => b !== a).map((b) => [a, b] as const)))('every key of %s is in %s', (a, b) => {
  const missing = Object.keys(catalogues[a]!).filter((key) => !(key in catalogues[b]!));
  expect(missing).toEqual([]);
});

test.each(locales)('%s: every message uses exactly the placeholders English declares for it', (locale) => {
  const mismatched = Object.entries(catalogues[locale]!).flatMap(([key, entry]) => {
    const mine = placeholders(entry);
    const theirs = placeholders(english[key] ?? { message: '' });
    const declaredNames = Object.keys(mine.declared).sort();
    const ok = JSON.stringify(mine.used) === JSON.stringify(theirs.used) && JSON.stringify(declaredNames) === JSON.stringify(mine.used) && JSON.stringify(mine.declared) === JSON.stringify(theirs.declared);
    return ok ? [] : [{ key, used: mine.used, declared: mine.declared, english: theirs }];
  });
  expect(mismatched).toEqual([]);
});

test.each(locales.filter((l) => l !== 'en'))('%s translates every message (no empty text, no English left in place)', (locale) => {
  const untranslated = Object.entries(catalogues[locale]!)
    .filter(([key, entry]) => !entry.message.trim() || (entry.message === english[key]?.message && !SAME_IN_EVERY_LANGUAGE.has(key)))
    .map(([key]) => key);
  expect(untranslated).toEqual([]);
});

test('every key the code and the manifest name is in the English catalogue', () => {
  const named = new Set<string>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:t|say)\(\s*'([^']+)'/g)) named.add(m[1]!);
    // Keys built from a prefix (`toolStatus_${status}`): the prefix must name some keys.
    for (const m of text.matchAll(/\bt\(\s*`([A-Za-z_]+)\$\{/g)) named.add(`${m[1]!}*`);
  }
  const manifest = readFileSync(path.join(ROOT, 'manifest.json'), 'utf8');
  for (const m of manifest.matchAll(/__MSG_([A-Za-z0-9_]+)__/g)) named.add(m[1]!);
  expect(named.size).toBeGreaterThan(100);
  const missing = [...named].filter((key) => (key.endsWith('*') ? !Object.keys(english).some((k) => k.startsWith(key.slice(0, -1))) : !(key in english)));
  expect(missing).toEqual([]);
});
