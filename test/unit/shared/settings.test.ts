import { DEFAULT_SETTINGS, parseSettings } from '../../../src/shared/settings';
import { loadSettings, saveSettings } from '../../../src/shared/settings-store';
import { MemoryStorage } from '../../support/memory-storage';

test('nothing stored gives the defaults: Ollama on this machine, auto tool calls, 10 steps', () => {
  expect(parseSettings(undefined)).toEqual(DEFAULT_SETTINGS);
  expect(DEFAULT_SETTINGS.provider).toMatchObject({ kind: 'ollama', baseUrl: 'http://127.0.0.1:11434' });
});

test('a partly stored provider keeps what was stored and fills in the rest', () => {
  const settings = parseSettings({ provider: { model: 'qwen3:4b' } });
  expect(settings.provider.model).toBe('qwen3:4b');
  expect(settings.provider.baseUrl).toBe('http://127.0.0.1:11434');
});

test('corrupt settings fall back to defaults instead of breaking the extension', () => {
  expect(parseSettings({ provider: { kind: 'nonsense' }, stepLimit: 'many' })).toEqual(DEFAULT_SETTINGS);
});

test('saving rejects a step limit above 25 and round-trips a valid one', async () => {
  const storage = new MemoryStorage();
  await expect(saveSettings(storage, { ...DEFAULT_SETTINGS, stepLimit: 40 })).rejects.toThrow();
  await saveSettings(storage, { ...DEFAULT_SETTINGS, stepLimit: 25 });
  expect((await loadSettings(storage)).stepLimit).toBe(25);
});
