/**
 * Where the shapes added from the seventh held-out round stop: Hunyuan 3's `<tool_call>name<tool_sep>`
 * calls (JSON or key/value pairs, any tag suffix such as `:opensource`), an invoke whose body is a
 * JSON object, a template's wrapper glued to the word before it, and values under a type name of the
 * tool's own. Quoted inside a sentence, in a fence presented as an example, or in a block quote, each
 * is no call and no failure; as the reply, its markup is hidden in every chunking.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { describeCallShapes } from '../../support/family-shapes';
import { CHUNK_SIZES as SIZES, expectNoCall, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  { name: 'list_tabs', parameters: { type: 'object', properties: {} } },
];

const SHAPES: [string, string][] = [
  ['Hunyuan 3 pairs with suffixed tags', '<tool_calls:opensource>\n<tool_call:opensource>search<tool_sep:opensource>\n<arg_key:opensource>query</arg_key:opensource>\n<arg_value:opensource>rice</arg_value:opensource>\n<arg_key:opensource>limit</arg_key:opensource>\n<arg_value:opensource>3</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>'],
  ['Hunyuan 3 JSON ended by its own token', '<tool_call:opensource>search<tool_sep:opensource>{"query": "rice", "limit": 3}<end_of_tool_call:opensource>'],
  ['Hunyuan 3 without suffixes', '<tool_calls>\n<tool_call>search<tool_sep>\n<arg_key>query</arg_key>\n<arg_value>rice</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n</tool_calls>'],
  ['DeepSeek V3.2 invoke with a JSON body', '<｜DSML｜function_calls>\n<｜DSML｜invoke name="search">\n{"query": "rice", "limit": 3}\n</｜DSML｜invoke>\n</｜DSML｜function_calls>'],
  ['an invoke with a JSON body', '<minimax:tool_call>\n<invoke name="search">{"query": "rice", "limit": 3}</invoke>\n</minimax:tool_call>'],
];

const expectNothing = (text: string) => expectNoCall(text, TOOLS);

describeCallShapes(SHAPES, TOOLS, ['search', { query: 'rice', limit: 3 }], ['an invoke with a JSON body', 'DeepSeek V3.2 invoke with a JSON body']);

describe('Hunyuan 3', () => {
  test('its reasoning, opened by the template and closed by a suffixed tag, is never shown; the words after it are', () => {
    const text = 'pondering</think:opensource>Checking.\n<tool_call:opensource>list_tabs<tool_sep:opensource>\n</tool_call:opensource>';
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'list_tabs', arguments: {} }]);
    expect(result.text).toBe('Checking.');
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: 'Checking.' });
  });

  test('two calls back to back are both read, in order', () => {
    const text = '<tool_call:opensource>list_tabs<tool_sep:opensource>{}<end_of_tool_call:opensource><tool_call:opensource>search<tool_sep:opensource>{"query": "x"}<end_of_tool_call:opensource>';
    expect(parseToolCalls(text, TOOLS).calls.map((c) => c.name)).toEqual(['list_tabs', 'search']);
  });

  test('a call the reply cut inside its JSON is a cut-off failure, never a call', () => {
    const result = parseToolCalls('<tool_call:opensource>search<tool_sep:opensource>{"query": "ri', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('a value the reply cut is a cut-off failure', () => {
    const result = parseToolCalls('<tool_call>search<tool_sep><arg_key>query</arg_key><arg_value>ri', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('an unknown tool is a failure that names it', () => {
    const result = parseToolCalls('<tool_call:opensource>delete_all<tool_sep:opensource>{}<end_of_tool_call:opensource>', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures).toMatchObject([{ problem: 'unknown_tool', name: 'delete_all' }]);
  });
});

describe('a wrapper glued to the word before it', () => {
  test('is a call, as a template emits it, with the words around it kept', () => {
    const text = 'prefix<|tool_call>call:search{query:<|"|>rice<|"|>}<tool_call|>tail';
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    expect(squash(result.text)).toBe('prefix tail');
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: 'prefix tail' });
  });

  test('set off by a blank and followed by words, a plain tag is a quotation: prose', () => {
    expectNothing('The footer holds <tool_call>{"name": "search", "arguments": {"query": "x"}}</tool_call> in small print.');
  });

  test('set off by a blank and followed by words, a closed special-token pair is still a call', () => {
    const result = parseToolCalls('Before. <|tool_call>call:search{query:<|"|>rice<|"|>}<tool_call|>After.', TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    expect(squash(result.text)).toBe('Before. After.');
  });

  test('tags that are not a template wrapper never count glued', () => {
    expectNothing('Press<search query="x" />now.');
  });
});

describe('a type the tool names itself', () => {
  const tools = [{ name: 'set', parameters: { type: 'object', properties: { a: { type: 'float' }, b: { type: 'other_type' }, c: { type: 'other_type' } } } }];
  test('`float` is a number; an unknown type reads a JSON or Python literal, and keeps other text as text', () => {
    const text = '<tool_call>\n<function=set>\n<parameter=a>41.9</parameter>\n<parameter=b>{\'x\': 3, \'y\': [1, True]}</parameter>\n<parameter=c>plain words</parameter>\n</function>\n</tool_call>';
    expect(parseToolCalls(text, tools).calls).toEqual([{ name: 'set', arguments: { a: 41.9, b: { x: 3, y: [1, true] }, c: 'plain words' } }]);
  });
});

describe('Glimmer messages (a header `to=recipient<|message|>` before each)', () => {
  const tools = [{ name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } }];
  const shownIn = (text: string) => SIZES.map((size) => squash(streamThrough(text, tools, size)));

  test('a message to self is reasoning, a message to a tool its call: nothing of either is shown', () => {
    const text = ' to=self<|message|>Need the weather.<|eom|><|start|>assistant to=get_weather<|message|><atem:function_calls>\n<atem:invoke name="get_weather">\n<atem:parameter name="location">Tokyo</atem:parameter>\n</atem:invoke>\n</atem:function_calls>';
    const result = parseToolCalls(text, tools);
    expect(result.calls).toEqual([{ name: 'get_weather', arguments: { location: 'Tokyo' } }]);
    expect(result.text).toBe('');
    expect(shownIn(text)).toEqual(SIZES.map(() => ''));
  });

  test('a message to the user is shown without its header, the reasoning before it hidden', () => {
    const text = ' to=self<|message|>Let me think.<|eom|><|start|>assistant to=user<|message|>The answer is 4.';
    expect(parseToolCalls(text, tools)).toMatchObject({ calls: [], text: 'The answer is 4.' });
    expect(shownIn(text)).toEqual(SIZES.map(() => 'The answer is 4.'));
  });

  test('the header written inside a sentence is prose, and hides nothing after it', () => {
    const text = 'The page says to=self<|message|> hides thoughts, which is not so.';
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });
});

describe("an end-of-sequence token after a call (Mistral's `</s>`)", () => {
  test('goes with the call, in the parser and in every chunking, and the prose after it stays', () => {
    const text = 'Looking.\n\n[TOOL_CALLS][{"name": "search", "arguments": {"query": "rice"}}]</s> Done soon.';
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    expect(squash(result.text)).toBe('Looking. Done soon.');
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: 'Looking. Done soon.' });
  });

  test('anywhere else it is the user\'s strikethrough and stays', () => {
    const text = 'The price was <s>20 €</s> and is now 15 €.';
    expect(squash(expectNothing(text).text)).toBe(squash(text));
  });
});
