/**
 * Where the families added from the sixth held-out round stop: Gemma 4's bare `call:name{…}` (its
 * wrapper tokens stripped by the server, strings unquoted), Ornith's `[Tool Call] name=… args={…}`
 * line, and a `[TOOL_CALLS]` element whose arguments are a guess. Each shape quoted inside a
 * sentence, in a fence presented as an example, or in a block quote is no call and no failure, and
 * the filter shows it whole; as the reply, its markup is hidden in every chunking.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { CHUNK_SIZES as SIZES, expectNoCall, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  { name: 'fill_form', parameters: { type: 'object', properties: { fields: { type: 'object' } } } },
];

/** Each new family's call, as its model writes it. */
const SHAPES: [string, string][] = [
  ['Gemma 4 bare call', 'call:search{query:rice,limit:3}'],
  ['Ornith field line', '[Tool Call] name=search id=3d4e5f6a-7b8c args={"query": "rice", "limit": 3}'],
];

const expectNothing = (text: string) => expectNoCall(text, TOOLS);

describe('the new families as the reply', () => {
  test.each(SHAPES)('%s: one call of search with its typed arguments, its markup hidden', (_family, shape) => {
    const result = parseToolCalls(shape, TOOLS);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['search', { query: 'rice', limit: 3 }]]);
    expect(result.text).toBe('');
    for (const size of SIZES) expect({ size, shown: streamThrough(shape, TOOLS, size) }).toEqual({ size, shown: '' });
  });

  test.each(SHAPES)('%s after a line of prose: the call, and the prose kept', (_family, shape) => {
    const result = parseToolCalls(`Let me look that up.\n${shape}`, TOOLS);
    expect(result.calls.map((c) => c.name)).toEqual(['search']);
    expect(squash(result.text)).toBe('Let me look that up.');
  });
});

describe('the new families quoted', () => {
  test.each(SHAPES)('%s inside a sentence: prose', (_family, shape) => {
    const text = `The model wrote ${shape} in its reply, which the server did not parse.`;
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });

  test.each(SHAPES)('%s in a fence presented as an example: prose', (_family, shape) => {
    const text = `For example, the format looks like this:\n\n\`\`\`\n${shape}\n\`\`\`\n\nThat is what the template asks for.`;
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });

  test.each(SHAPES)('%s in a block quote: prose', (_family, shape) => {
    const text = `The log shows:\n\n> ${shape}\n\nThat was another model.`;
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });

  test('a bare Gemma call of a tool nobody offered stays prose', () => {
    const text = 'call:delete_everything{path:/}';
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });
});

describe('Gemma 4 wrappers and the rule for special tokens', () => {
  test('a wrapper starting its line is a call, words may follow it there', () => {
    const result = parseToolCalls('<|tool_call>call:search{query:<|"|>rice<|"|>}<tool_call|> Looking it up now.', TOOLS);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['search', { query: 'rice' }]]);
    expect(squash(result.text)).toBe('Looking it up now.');
  });

  test('a wrapper glued between words on one line is prose, as a quoted call is', () => {
    const text = 'Before. <|tool_call>call:search{query:<|"|>rice<|"|>}<tool_call|>After.';
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });

  test('bare call: lines inside a wrapper belong to it', () => {
    const result = parseToolCalls('<|tool_call>\ncall:search{query:<|"|>a<|"|>}\ncall:search{query:<|"|>b<|"|>}\n<tool_call|>', TOOLS);
    expect(result.calls.map((c) => c.arguments.query)).toEqual(['a', 'b']);
    expect(result.text).toBe('');
  });
});

describe('a [TOOL_CALLS] element whose arguments are a guess', () => {
  test('one undeclared object beside the name: an unparsable failure, the other calls run', () => {
    const result = parseToolCalls('[TOOL_CALLS][{"name": "search", "arguments": {"query": "rice"}}, {"name": "search", "options": {"query": "beans"}}]', TOOLS);
    expect(result.calls.map((c) => c.arguments)).toEqual([{ query: 'rice' }]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['unparsable', 'search']]);
  });

  test('the name under "tool_name" with an arguments object: a call', () => {
    const result = parseToolCalls('[TOOL_CALLS][{"tool_name": "search", "arguments": {"query": "rice"}}]', TOOLS);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['search', { query: 'rice' }]]);
    expect(result.failures).toEqual([]);
  });

  test('an object under a parameter the tool declares: that argument', () => {
    const result = parseToolCalls('[TOOL_CALLS][{"name": "fill_form", "fields": {"email": "a@b.example"}}]', TOOLS);
    expect(result.calls.map((c) => [c.name, c.arguments])).toEqual([['fill_form', { fields: { email: 'a@b.example' } }]]);
  });
});

describe('the new families cut off', () => {
  test('an Ornith line whose arguments were cut: a cut_off failure, hidden', () => {
    const text = '[Tool Call] name=search id=c1 args={"query": "ri';
    const result = parseToolCalls(text, TOOLS);
    expect({ calls: result.calls, problems: result.failures.map((f) => f.problem) }).toEqual({ calls: [], problems: ['cut_off'] });
    expect(result.text).toBe('');
  });
});
