/**
 * Where the shapes added from the ninth held-out round stop: Phi-4-mini's lone `functools{…}` call
 * without the list's brackets, and a Gemma 4 call the reply ended in after a complete last value.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { describeCallShapes } from '../../support/family-shapes';
import { CHUNK_SIZES as SIZES, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [{ name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' }, filter: { type: 'object' } } } }];

describeCallShapes([['Phi-4-mini lone functools call', 'functools{"name": "search", "arguments": {"query": "rice", "limit": 3}}']], TOOLS, ['search', { query: 'rice', limit: 3 }]);

describe('a Gemma 4 call the reply ended in', () => {
  test.each([
    ['after a closed string', '<|tool_call>call:search{query:<|"|>rice<|"|>', { query: 'rice' }],
    ['after a closed object', '<|tool_call>call:search{filter:{kind:<|"|>grain<|"|>}', { filter: { kind: 'grain' } }],
  ])('%s: only braces were missing, so it is the call, hidden in every chunking', (_name, text, args) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: args }]);
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: '' });
  });

  test.each([
    ['inside a string', '<|tool_call>call:search{query:<|"|>ri'],
    ['after a number that may go on', '<|tool_call>call:search{limit:3'],
  ])('%s: the value may be cut, so it is a cut-off failure, never a call', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });
});

describe("Phi-4-mini's list after the model's words on its line", () => {
  test('is the call, hidden in every chunking, even one character at a time', () => {
    const text = 'Sure. functools[{"name": "search", "arguments": {"query": "rice"}}]';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: 'Sure.' });
  });

  test('words that only begin like it are shown as they come', () => {
    const text = 'The fun function features five fine fields.';
    for (const size of SIZES) expect({ size, shown: streamThrough(text, TOOLS, size) }).toEqual({ size, shown: text });
  });
});
