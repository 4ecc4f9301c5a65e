import { capabilitiesFromTable, ModeCache } from '../../../src/background/llm/capabilities';
import { capabilitiesFromShow } from '../../../src/background/llm/providers/ollama';
import { capabilitiesFromListing } from '../../../src/background/llm/providers/openai';
import { MemoryStorage } from '../../support/memory-storage';

test('Ollama /api/show: capabilities and the architecture’s context length', () => {
  const caps = capabilitiesFromShow({ capabilities: ['completion', 'tools'], model_info: { 'qwen2.context_length': 32768, 'general.architecture': 'qwen2' } }, 'qwen2.5:7b');
  expect(caps).toEqual({ tools: true, vision: false, contextLength: 32768, source: 'server' });
  expect(capabilitiesFromShow({ capabilities: ['completion', 'vision'], model_info: {} }, 'gemma3:4b')).toMatchObject({ tools: false, vision: true, source: 'server' });
});

test('OpenRouter’s listing says tools, vision and context length itself', () => {
  const caps = capabilitiesFromListing({ id: 'meta-llama/llama-3.2-3b-instruct', context_length: 131072, supported_parameters: ['temperature'], architecture: { input_modalities: ['text'] } });
  expect(caps).toEqual({ tools: false, vision: false, contextLength: 131072, source: 'server' });
});

test('a bare model id falls back to the known-models table, then to a safe default', () => {
  expect(capabilitiesFromTable('gpt-4o-mini')).toMatchObject({ tools: true, contextLength: 128_000, source: 'table' });
  expect(capabilitiesFromTable('openai/gpt-4.1')).toMatchObject({ contextLength: 1_047_576 });
  expect(capabilitiesFromTable('my-finetune')).toEqual({ contextLength: 8192, source: 'default' });
});

test('the mode a model fell back to is remembered across restarts, per model', async () => {
  const storage = new MemoryStorage();
  const key = ModeCache.keyOf('ollama', 'http://127.0.0.1:11434/', 'gemma:2b');
  const other = ModeCache.keyOf('ollama', 'http://127.0.0.1:11434', 'phi3:mini');
  await new ModeCache(storage).remember(key, 'constrained');
  await new ModeCache(storage).remember(other, 'xml');
  expect(await new ModeCache(storage).modeOf(key)).toBe('constrained');
  expect(await new ModeCache(storage).modeOf(other)).toBe('xml');
  expect(await new ModeCache(storage).modeOf(ModeCache.keyOf('ollama', 'http://127.0.0.1:11434', 'other'))).toBeUndefined();
});

test('an entry stored before constrained mode (a bare time) still loads, as text mode', async () => {
  const storage = new MemoryStorage();
  await storage.set({ textToolModels: { 'ollama|http://127.0.0.1:11434|gemma:2b': 1_700_000_000_000 } });
  const cache = new ModeCache(storage);
  expect(await cache.modeOf('ollama|http://127.0.0.1:11434|gemma:2b')).toBe('xml');
  await cache.remember('b', 'constrained', 1_800_000_000_000);
  expect(await new ModeCache(storage).modeOf('ollama|http://127.0.0.1:11434|gemma:2b')).toBe('xml');
  expect(await new ModeCache(storage).modeOf('b')).toBe('constrained');
});

test('the mode cache is bounded: the model learnt longest ago rolls off, a model learnt again stays', async () => {
  const storage = new MemoryStorage();
  const cache = new ModeCache(storage, 3);
  for (const [i, model] of ['a', 'b', 'c'].entries()) await cache.remember(model, 'xml', 10 + i);
  await cache.remember('a', 'constrained', 20);
  await cache.remember('d', 'xml', 21);
  const after = new ModeCache(storage, 3);
  expect(await Promise.all(['a', 'b', 'c', 'd'].map((m) => after.modeOf(m)))).toEqual(['constrained', undefined, 'xml', 'xml']);
});

test('/api/show details give the size in billions and the family; a size that is not a size is left out', () => {
  const show = (parameter_size: unknown, family: unknown = 'qwen2') => capabilitiesFromShow({ capabilities: ['completion', 'tools'], model_info: {}, details: { parameter_size, family } }, 'm');
  expect(show('7.6B')).toMatchObject({ parameterBillions: 7.6, family: 'qwen2' });
  expect(show('270M').parameterBillions).toBeCloseTo(0.27);
  expect(show(' 70B ').parameterBillions).toBe(70);
  expect(show('1.2T').parameterBillions).toBe(1200);
  for (const junk of ['', 'big', '7.6', 7.6, null, '9'.repeat(40) + 'B']) expect(show(junk).parameterBillions).toBeUndefined();
  expect(show('3B', 42)).not.toHaveProperty('family');
  // Without a capabilities list (older servers), the size still counts.
  expect(capabilitiesFromShow({ details: { parameter_size: '3B' } }, 'qwen2.5:3b')).toMatchObject({ parameterBillions: 3, source: 'table' });
});
