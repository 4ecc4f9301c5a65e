/**
 * Where the families added from the fifth held-out round stop (MiniMax M3's element arguments,
 * xing4's `<param_key>` pairs, MiniCPM5's `<function name>`, DeepSeek V4's `<tool_call name>` and
 * DSML `tool_calls`, DeepSeek calls without their section tokens, a call wrapper in the fence of
 * the reply, Llama 3.2's mistyped arguments key, FunctionGemma without `call:`): each shape quoted inside a sentence, in a fence
 * presented as an example, or in a block quote is no call and no failure, and the filter shows it
 * whole; a special-token pair inside a sentence stays a call. Each family's call cut off at the end of the reply is a failure, hidden from the user.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { CHUNK_SIZES as SIZES, expectNoCall, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
];

/** Each new family's call, as its model writes it. */
const SHAPES: [string, string][] = [
  ['MiniMax M3', '<minimax:tool_call><invoke name="search"><query>rice</query><limit>3</limit></invoke></minimax:tool_call>'],
  ['xing4', '<tool_call>search<param_key>query</param_key><param_value>rice</param_value></tool_call>'],
  ['MiniCPM5', '<function name="search"><param name="query">rice</param></function>'],
  ['DeepSeek V4 named tool_call', '<tool_call id="call_0" name="search">{"query": "rice"}</tool_call>'],
  ['DeepSeek V4 DSML', '<｜DSML｜tool_calls><｜DSML｜invoke name="search"><｜DSML｜parameter name="query" string="true">rice</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>'],
  ['DeepSeek R1 call tokens', '<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"query": "rice"}\n```<｜tool▁call▁end｜>'],
  ['Llama 3.2 mistyped key', `{"name":"search","parameters':{'query':'rice'}}`],
];

const expectNothing = (text: string) => expectNoCall(text, TOOLS);

describe('the new families as the reply', () => {
  test.each(SHAPES)('%s: one call of search, its markup hidden', (_family, shape) => {
    const result = parseToolCalls(shape, TOOLS);
    expect(result.calls.map((c) => c.name)).toEqual(['search']);
    expect(result.calls[0]!.arguments.query).toBe('rice');
    for (const size of SIZES) expect({ size, shown: streamThrough(shape, TOOLS, size) }).toEqual({ size, shown: '' });
  });
});

describe('the new families quoted', () => {
  // Special-token pairs are never prose: DeepSeek's call tokens and DSML, MiniMax M3's namespaced wrapper, xing4's argument tokens.
  const PAIRS = ['DeepSeek R1 call tokens', 'DeepSeek V4 DSML', 'MiniMax M3', 'xing4'];
  test.each(SHAPES.filter(([family]) => !PAIRS.includes(family)))('%s inside a sentence: prose', (_family, shape) => {
    const text = `The model wrote ${shape.replace(/\n/g, ' ')} in its reply, which the server did not parse.`;
    const result = expectNothing(text);
    expect(squash(result.text)).toBe(squash(text));
  });

  test.each(SHAPES.filter(([family]) => PAIRS.includes(family)))('%s inside a sentence: a call, hidden, the words kept', (_family, shape) => {
    const text = `The model wrote ${shape.replace(/\n/g, ' ')} in its reply.`;
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls.map((c) => c.name)).toEqual(['search']);
    expect(squash(result.text)).toBe('The model wrote in its reply.');
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: 'The model wrote in its reply.' });
  });

  test.each(SHAPES)('%s in a fence presented as an example: prose', (_family, shape) => {
    const text = `For example, the format looks like this:\n\n\`\`\`\n${shape}\n\`\`\`\n\nThat is what the template asks for.`;
    const result = expectNothing(text);
    expect(squash(result.text)).toBe(squash(text));
  });

  test.each(SHAPES)('%s in a block quote: prose', (_family, shape) => {
    const text = `The log shows:\n\n${shape
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n')}\n\nThat was another model.`;
    const result = expectNothing(text);
    expect(squash(result.text)).toBe(squash(text));
  });
});

describe('a wrapped call in a fence', () => {
  const fenced = '```xml\n<function_call>\n{"name": "search", "arguments": {"query": "rice"}}\n</function_call>\n```';

  test('opening the reply, it is the call', () => {
    expect(parseToolCalls(fenced, TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    for (const size of SIZES) expect({ size, shown: streamThrough(fenced, TOOLS, size) }).toEqual({ size, shown: '' });
  });

  test('after prose, it is code the model shows', () => {
    const text = `Here is the markup the old template used:\n\n${fenced}`;
    const result = expectNothing(text);
    expect(squash(result.text)).toBe(squash(text));
  });
});

describe("FunctionGemma's call without `call:`", () => {
  test('naming an offered tool, closed with a mistyped end token: the call, hidden', () => {
    const text = '<start_function_call>search{query:<escape>rice<escape>}</end_function_call>';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    for (const size of SIZES) expect({ size, shown: streamThrough(text, TOOLS, size) }).toEqual({ size, shown: '' });
  });

  test('naming no offered tool: no call, and no call read past the first', () => {
    const result = parseToolCalls('<start_function_call>lookup{query:<escape>rice<escape>}<end_function_call>', TOOLS);
    expect(result.calls).toEqual([]);
  });
});

/** Each family's call stopping inside its arguments at the end of the reply: cut off, and hidden. */
const CUT: [string, string][] = [
  ['MiniMax M3', '<minimax:tool_call><invoke name="search"><query>ri'],
  ['xing4', '<tool_call>search<param_key>query</param_key><param_value>ri'],
  ['MiniCPM5', '<function name="search"><param name="query">ri'],
  ['DeepSeek V4 named tool_call', '<tool_call id="call_0" name="search">{"query": "ri'],
  ['DeepSeek V4 DSML', '<｜DSML｜tool_calls><｜DSML｜invoke name="search"><｜DSML｜parameter name="query" string="true">ri'],
  ['DeepSeek R1 call tokens', '<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n```json\n{"query": "ri'],
];

describe('the new families cut off', () => {
  test.each(CUT)('%s: a cut_off failure, no call, nothing shown', (_family, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect({ calls: result.calls, failures: result.failures.map((f) => f.problem), text: result.text }).toEqual({ calls: [], failures: ['cut_off'], text: '' });
    for (const size of SIZES) expect({ size, shown: streamThrough(text, TOOLS, size) }).toEqual({ size, shown: '' });
  });
});

describe('typed values', () => {
  test('MiniMax M3 elements follow the schema: text stays text, numbers are read, entities decoded', () => {
    const text = '<minimax:tool_call><invoke name="search"><query>007 &amp; more</query><limit>3</limit></invoke></minimax:tool_call>';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([{ name: 'search', arguments: { query: '007 & more', limit: 3 } }]);
  });

  test('a MiniCPM5 CDATA value keeps its markup and its closing-tag lookalikes', () => {
    const text = '<function name="search"><param name="query"><![CDATA[a </param> & <b>]]></param></function>';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'a </param> & <b>' } }]);
  });

  test('a mistyped key that is no call key is not repaired: the garbled call is a failure', () => {
    // Its string `"query':'rice'}` never closes, so the call reads as cut off inside a value.
    const unclosed = parseToolCalls(`{"name":"search","query':'rice'}`, TOOLS);
    expect({ calls: unclosed.calls, failures: unclosed.failures.map((f) => f.problem) }).toEqual({ calls: [], failures: ['cut_off'] });
    const balanced = parseToolCalls(`{"name":"search", "args": {"query':'rice"}}`, TOOLS);
    expect({ calls: balanced.calls, failures: balanced.failures.map((f) => f.problem) }).toEqual({ calls: [], failures: ['unparsable'] });
  });
});
