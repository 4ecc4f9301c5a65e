/**
 * An error is shown in the page's language from its keys, after a reload too; an error saved
 * before keys existed still shows the English it was saved with.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserErrorSchema } from '../../../src/shared/conversation';
import { formatMessage, type Catalogue } from '../../../src/shared/i18n';
import { errorWords } from '../../../src/ui/i18n';

const german = JSON.parse(readFileSync(path.resolve(__dirname, '../../../_locales/de/messages.json'), 'utf8')) as Catalogue;
const global = globalThis as { browser?: unknown };

beforeAll(() => {
  global.browser = { i18n: { getMessage: (key: string, subs?: string | string[]) => formatMessage(german, key, subs === undefined ? [] : [subs].flat()) } };
});
afterAll(() => {
  delete global.browser;
});

test('a stored error with keys shows in German, its hint parts joined', () => {
  const stored = JSON.parse(
    JSON.stringify({
      code: 'unknown_model',
      message: 'The model “llama3” was not found on the server.',
      hint: 'Models on this server: qwen3:4b. Pull it with `ollama pull llama3`, or choose another model.',
      text: { message: { key: 'errorUnknownModel', args: ['llama3'] }, hint: [{ key: 'hintModelsOnServer', args: ['qwen3:4b'] }, { key: 'hintPullModel', args: ['llama3'] }] },
    }),
  );
  expect(errorWords(UserErrorSchema.parse(stored))).toEqual({
    message: 'Das Modell „llama3“ wurde auf dem Server nicht gefunden.',
    hint: 'Modelle auf diesem Server: qwen3:4b. Lade es mit `ollama pull llama3` herunter oder wähle ein anderes Modell.',
  });
});

test('an error saved before keys keeps its English words', () => {
  const old = UserErrorSchema.parse({ code: 'timeout', message: 'Ollama did not answer in time.', hint: 'Retry.' });
  expect(errorWords(old)).toEqual({ message: 'Ollama did not answer in time.', hint: 'Retry.' });
});

test('a key with no hint key keeps the English hint beside the translated message', () => {
  const mixed = UserErrorSchema.parse({ code: 'x', message: 'Stopped.', hint: 'plain words', text: { message: { key: 'stopped' } } });
  expect(errorWords(mixed)).toEqual({ message: 'Angehalten.', hint: 'plain words' });
});

test('substitutions are filled as given: a server’s words holding $$ or $NAME$ stay as they are', () => {
  const catalogue: Catalogue = { said: { message: 'Costs $$5. Said: $SAID$', placeholders: { said: { content: '$1' } } } };
  expect(formatMessage(catalogue, 'said', ['pay $$ to $SAID$ now'])).toBe('Costs $5. Said: pay $$ to $SAID$ now');
  expect(formatMessage(catalogue, 'missing')).toBe('');
});
