/**
 * Where the fixes from the thirty-seventh held-out round stop: DeepSeek V4's DSML with its bars lost; Anthropic tool_use
 * blocks a gateway leaked into the text, glued to the words and to each other; Mistral's tokens decoded with blanks
 * around them; a ReAct action ending the reply with no input; a call fence's Python calls naming tools never offered;
 * arguments wrapped in `properties` and encoded as a string; GPT-OSS's recipient header inside a `<tool_call>`; a
 * recipient header after an end token; "looks like" presenting an example only where it ends the words before the markup.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'Read', parameters: object({ file_path: { type: 'string' }, limit: { type: 'integer' }, offset: { type: 'integer' } }, ['file_path']) },
  { name: 'read', parameters: object({ filePath: { type: 'string' } }, ['filePath']) },
  { name: 'example_tool', parameters: object({ arg1: { type: 'string' }, arg2: { type: 'integer' } }) },
  { name: 'get_now', parameters: object({}) },
  { name: 'search', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'get_menu', parameters: object({}) },
  { name: 'get_weather', parameters: object({ city: { type: 'string' } }, ['city']) },
  { name: 'get_current_location', parameters: object({}) },
];
const read = (text: string) => {
  const r = parseToolCalls(text, TOOLS);
  return { calls: r.calls, failures: r.failures.map((f) => [f.problem, f.name]) };
};
const READ = { name: 'Read', arguments: { file_path: '/src/game.js', limit: 30, offset: 1 } };

describe("DeepSeek V4's DSML with its bars lost", () => {
  const block = (open: string, close: string) =>
    `Let me read it.\n\n${open}tool_calls>\n${open}invoke name="Read">\n${open}parameter name="file_path"><![CDATA[/src/game.js]]>${close}parameter>\n${open}parameter name="limit"><![CDATA[30]]>${close}parameter>\n${open}parameter name="offset"><![CDATA[1]]>${close}parameter>\n${close}invoke>\n${close}tool_calls>`;
  test.each([
    ['the leading bar', '<DSML｜', '</DSML｜'],
    ['both bars', '<DSML', '</DSML'],
    ['the ASCII leading bar', '<DSML|', '</DSML|'],
  ])('without %s: the calls, typed by the schema, and the words before them', (_name, open, close) => {
    expectReadAs(block(open, close), TOOLS, [READ], 'Let me read it.');
  });

  test('a DSML tag named in a sentence stays prose', () => {
    expectNoCall('DeepSeek writes <DSMLinvoke name="Read"> when its bars are lost.', TOOLS);
  });
});

describe('Anthropic tool_use blocks leaked into the text', () => {
  const block = (id: string, path: string) => `{'id': 'toolu_${id}', 'input': {'filePath': '${path}'}, 'name': 'read', 'type': 'tool_use', 'cache_control': None}`;
  test('glued to the words and to each other, ending the reply: its calls', () => {
    expectReadAs(`Now let me look at the key files:${block('01A', '/src/app.py')}${block('01B', '/src/config.py')}`, TOOLS, [
      { name: 'read', arguments: { filePath: '/src/app.py' } },
      { name: 'read', arguments: { filePath: '/src/config.py' } },
    ], 'Now let me look at the key files:');
  });

  test('followed by words, after words that quote a page, or naming no offered tool: prose', () => {
    expectNoCall(`Reading:${block('01A', '/a')} and then more words.`, TOOLS);
    expectNoCall(`The page says:${block('01A', '/a')}`, TOOLS);
    expect(read(`Reading: ${block('01A', '/a').replace("'read'", "'rm'")}`)).toEqual({ calls: [], failures: [] });
  });

  test('"looks like" presents an example only where it ends the words before the markup', () => {
    expectReadAs(`It looks like they use a newer feature:${block('01A', '/a')}`, TOOLS, [{ name: 'read', arguments: { filePath: '/a' } }], 'It looks like they use a newer feature:');
    expectNoCall('The call looks like this: {"name": "search", "arguments": {"query": "x"}}', TOOLS);
  });
});

describe("Mistral's tokens decoded with blanks around them", () => {
  test('`[TOOL_CALLS] name [ARGS]{…}`, alone or after words on its line', () => {
    expectReadAs('[TOOL_CALLS] example_tool [ARGS]{"arg1": "value1", "arg2": 42}', TOOLS, [{ name: 'example_tool', arguments: { arg1: 'value1', arg2: 42 } }], '');
    expectReadAs('Reasoning before tool call [TOOL_CALLS] example_tool [ARGS]{"arg1": "value1"}', TOOLS, [{ name: 'example_tool', arguments: { arg1: 'value1' } }], 'Reasoning before tool call');
  });

  test('a name and `[ARGS]` inside a sentence, without the token, stay prose', () => {
    expectNoCall('Use example_tool [ARGS]{"arg1": "x"} in the prompt.', TOOLS);
  });
});

describe('a ReAct action ending the reply with no input', () => {
  test('of a tool that takes no arguments: the call; of one that requires some: a failure for the repair turn', () => {
    expectReadAs('Action: get_now', TOOLS, [{ name: 'get_now', arguments: {} }], '');
    expectReadAs('Thought: I need the time.\nAction: get_now\n', TOOLS, [{ name: 'get_now', arguments: {} }], 'Thought: I need the time.');
    expect(read('Action: search')).toEqual({ calls: [], failures: [['unparsable', 'search']] });
  });

  test('followed by words, naming no offered tool, or inside a sentence: prose', () => {
    expectNoCall('Action: get_now\nThen I will answer.', TOOLS);
    expectNoCall('The next step is\nAction: unknown_tool', TOOLS);
    expectNoCall('I think the Action: get_now', TOOLS);
  });
});

describe("a call fence's Python calls naming tools never offered", () => {
  test('each is an unknown tool; beside an offered one, that one runs', () => {
    expect(read("```tool_code\nadd_to_order(item='Americano', size='Tall')\nadd_to_order(item='Muffin')\n```")).toEqual({
      calls: [],
      failures: [['unknown_tool', 'add_to_order'], ['unknown_tool', 'add_to_order']],
    });
    expect(read('```tool_code\nget_menu()\nget_order()\n```')).toEqual({ calls: [{ name: 'get_menu', arguments: {} }], failures: [['unknown_tool', 'get_order']] });
  });

  test('hidden in the stream as the parser hides them', () => {
    expectReadAs('```tool_code\nget_order()\n```', TOOLS, [], '');
  });

  test('in a python fence they are code shown to the user', () => {
    expectNoCall("```python\nadd_to_order(item='x')\nget_order()\n```", TOOLS);
  });
});

describe('more', () => {
  test('arguments wrapped in `properties` and encoded as a Python dict string: the object it holds', () => {
    expectReadAs(`<|python_tag|>{"type": "function", "function": {"name": "search", "parameters": {"properties": "{'query': 'Large Language Model'}"}}`, TOOLS, [{ name: 'search', arguments: { query: 'Large Language Model' } }], '');
  });

  test("GPT-OSS's recipient header inside a `<tool_call>`", () => {
    expectReadAs('Some preamble.\n<tool_call>assistant to=functions.get_weather json\n{"city": "NYC"}\n</tool_call>', TOOLS, [{ name: 'get_weather', arguments: { city: 'NYC' } }], 'Some preamble.');
  });

  test("Onyx's recipient header after the reasoning's end token is the template's", () => {
    expectReadAs(' to=self<|message|>Let me check the location first.<|eom|> to=get_current_location<|message|><atem:function_calls>\n<atem:invoke name="get_current_location">\n</atem:invoke>\n</atem:function_calls><|eot|>', TOOLS, [{ name: 'get_current_location', arguments: {} }], '');
  });
});
