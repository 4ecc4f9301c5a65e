/**
 * Where the families added from the sixth held-out round stop: Gemma 4's bare `call:name{…}` (its
 * wrapper tokens stripped by the server, strings unquoted), Ornith's `[Tool Call] name=… args={…}`
 * line, and a `[TOOL_CALLS]` element whose arguments are a guess. Each shape quoted inside a
 * sentence, in a fence presented as an example, or in a block quote is no call and no failure, and
 * the filter shows it whole; as the reply, its markup is hidden in every chunking.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { describeCallShapes } from '../../support/family-shapes';
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

describeCallShapes(SHAPES, TOOLS, ['search', { query: 'rice', limit: 3 }]);

describe('the new families quoted', () => {
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

  test('a closed wrapper between words on one line is a call, as servers read the special-token pair; an open one is no call', () => {
    const result = parseToolCalls('Before. <|tool_call>call:search{query:<|"|>rice<|"|>}<tool_call|> After.', TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    expect(squash(result.text)).toBe('Before. After.');
    expect(parseToolCalls('Before. <|tool_call>call:search{query:<|"|>rice<|"|>} After.', TOOLS).calls).toEqual([]);
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
