/**
 * What the user is told travels as catalogue keys: LLM errors, their hints and the loop's stops
 * carry a key every locale holds, keep their English words for logs and old readers, and show in
 * German with the German catalogue. The background writes no user-facing English of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromStatus, LlmError, streamCut, unreachable, type ErrorContext } from '../../../src/background/llm/errors';
import { INTERRUPTED } from '../../../src/background/interrupted';
import type { UserError } from '../../../src/shared/conversation';
import { formatMessage, wordedIn, type Catalogue, type Localized } from '../../../src/shared/i18n';

const ROOT = path.resolve(__dirname, '../../..');
const catalogue = (locale: string) => JSON.parse(readFileSync(path.join(ROOT, '_locales', locale, 'messages.json'), 'utf8')) as Catalogue;
const en = catalogue('en');
const de = catalogue('de');

const ollama: ErrorContext = { kind: 'ollama', baseUrl: 'http://127.0.0.1:11434', model: 'llama3' };
const openai: ErrorContext = { kind: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o' };

const errors: [string, LlmError][] = [
  ['unreachable', unreachable(ollama)],
  ['stream cut', streamCut()],
  ...[400, 401, 403, 404, 429, 500, 502].flatMap((status): [string, LlmError][] => [
    [`${status} from Ollama`, fromStatus(status, status === 404 ? 'model not found' : '', ollama)],
    [`${status} from OpenAI, with the server's words`, fromStatus(status, status === 404 ? 'The model does not exist' : 'Nope', openai)],
  ]),
  ['tools rejected', fromStatus(400, 'llama3 does not support tools', ollama)],
];

function parts(text: Localized | Localized[] | undefined): Localized[] {
  return text === undefined ? [] : [text].flat();
}

test.each(errors)('%s: carries keys every locale holds, and its English words are the English catalogue’s', (_, error) => {
  const shown: UserError = error.toUserError();
  expect(shown.text).toBeDefined();
  const keys = [shown.text!.message, ...parts(shown.text!.hint)];
  for (const { key } of keys) {
    expect({ key, en: key in en, de: key in de }).toEqual({ key, en: true, de: true });
  }
  expect(shown.message).toBe(wordedIn(en, shown.text!.message));
  if (shown.text!.hint) expect(shown.hint).toBe(parts(shown.text!.hint).map((p) => wordedIn(en, p)).join(' '));
  const german = wordedIn(de, shown.text!.message);
  expect(german).not.toBe(shown.message);
  expect(german).not.toMatch(/\$[A-Z_]+\$|\$\d/);
});

test('the server’s own words and the model name reach the German text unchanged', () => {
  const { text } = fromStatus(404, 'model "llama3" not found, try pulling it first', ollama).toUserError();
  expect(wordedIn(de, text!.message)).toBe('Das Modell „llama3“ wurde auf dem Server nicht gefunden. Der Server meldete: „model "llama3" not found, try pulling it first“');
  expect(parts(text!.hint).map((p) => wordedIn(de, p))).toEqual(['Lade es mit `ollama pull llama3` herunter oder wähle ein anderes Modell.']);
});

test('a restart’s error is a key too, worded in English as before', () => {
  expect(INTERRUPTED.text?.message.key).toBe('errorInterrupted');
  expect(INTERRUPTED.message).toBe('FoxAgent was restarted before this finished.');
  expect(formatMessage(de, (INTERRUPTED.text!.hint as Localized).key)).toMatch(/^Versuche es erneut/);
});

test('an error made from another error’s text keeps that text and claims no key', () => {
  const error = new LlmError('bad_response', 'socket hang up');
  expect(error.toUserError()).toMatchObject({ message: 'socket hang up' });
  expect(error.toUserError().text).toBeUndefined();
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

test('the background words no error, hint, stop or timeline line of its own as an English literal', () => {
  const literal = /new LlmError\([^,]+,\s*['"`]|\bhint:\s*['"`]|\bstop\([^,]+,\s*['"`]|\bmessage:\s*['"`][A-Z][a-z]+ |\bpreview:\s*['"]/;
  const offenders = sourceFiles(path.join(ROOT, 'src/background')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ where: `${path.relative(ROOT, file)}:${i + 1}`, line: line.trim() }))
      .filter(({ line }) => literal.test(line)),
  );
  expect(offenders).toEqual([]);
});
