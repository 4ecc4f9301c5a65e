/**
 * Whether a model reads images: what an OpenAI-compatible server or the known-models table says,
 * unless the user set it for that model — through the real client against the scripted server.
 */
import { ModeCache } from '../../../src/background/llm/capabilities';
import { createProvider } from '../../../src/background/llm/providers';
import { LlmRouter } from '../../../src/background/llm/router';
import { parseSettings } from '../../../src/shared/settings';
import { startLlmServer } from '../../support/llm-server';
import { MemoryStorage } from '../../support/memory-storage';

test('the user’s setting for a model wins over the table and the server; other models keep theirs', async () => {
  const server = await startLlmServer({ models: [{ name: 'gpt-4o-mini' }, { name: 'my-llava' }, { name: 'listed-vision', vision: true }] });
  try {
    const provider = createProvider({ kind: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: '', model: 'my-llava' }, 5_000);
    const router = (set: Record<string, boolean>) =>
      new LlmRouter({ provider, modeCache: new ModeCache(new MemoryStorage()), cacheKey: (m) => m, visionOverride: (m) => (Object.hasOwn(set, m) ? set[m] : undefined) });
    const detected = router({});
    expect([(await detected.describe('gpt-4o-mini')).vision, (await detected.describe('my-llava')).vision, (await detected.describe('listed-vision')).vision]).toEqual([true, undefined, true]);
    const chosen = router({ 'my-llava': true, 'listed-vision': false });
    expect([(await chosen.describe('gpt-4o-mini')).vision, (await chosen.describe('my-llava')).vision, (await chosen.describe('listed-vision')).vision]).toEqual([true, true, false]);
  } finally {
    await server.close();
  }
});

test('stored settings without the field load with no model set, and only booleans are kept', () => {
  expect(parseSettings({}).modelVision).toEqual({});
  expect(parseSettings({ modelVision: { 'my-llava': true } }).modelVision).toEqual({ 'my-llava': true });
});
