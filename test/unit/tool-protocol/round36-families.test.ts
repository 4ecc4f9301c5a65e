/**
 * Where the fixes from the thirty-sixth held-out round stop: `tool_arguments` and `tool_args` as a call's arguments
 * (smolagents, CAMEL); Llama's python tag written again after a model ran past its end token, and Llama 3's next header
 * after a call; a python tag's call JSON the reply ended inside; a `<tool_call>` left open and opened again holding the
 * same call (a stutter, run once); an apostrophe in a single-quoted Python string; a JSON call list naming offered tools
 * and others, fenced or bare; a tool's response the model invents right after its call.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'get_weather', parameters: object({ location: { type: 'string' }, celsius: { type: 'boolean' } }, ['location']) },
  { name: 'search', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'get_current_weather', parameters: object({ location: { type: 'string' }, unit: { type: 'string' } }, ['location']) },
  { name: 'analyze_health_data', parameters: object({ data: { type: 'string' } }, ['data']) },
  { name: 'skill', parameters: object({ name: { type: 'string' } }, ['name']) },
  { name: 'click', parameters: object({ id: { type: 'integer' } }, ['id']) },
  { name: 'sentiment_analysis', parameters: object({ text: { type: 'string' }, language: { type: 'string' } }, ['text']) },
  { name: 'list_dir', parameters: object({ path: { type: 'string' } }, ['path']) },
];
const read = (text: string) => {
  const r = parseToolCalls(text, TOOLS);
  return { calls: r.calls, failures: r.failures.map((f) => [f.problem, f.name]) };
};
const PARIS = { name: 'get_weather', arguments: { location: 'Paris', celsius: true } };

describe('`tool_arguments` and `tool_args` as the arguments key', () => {
  test("smolagents' action JSON, and CAMEL's with the server's index beside the call", () => {
    expectReadAs('Action:\n{\n  "tool_name": "get_weather",\n  "tool_arguments": {"location": "Paris", "celsius": true}\n}', TOOLS, [PARIS], '');
    expectReadAs('Here is the call:\n```json\n{"server_idx": 0, "tool_name": "search", "tool_args": {"query": "hello"}}\n```', TOOLS, [{ name: 'search', arguments: { query: 'hello' } }], 'Here is the call:');
  });

  test('a data object holding the same keys, naming no offered tool, is prose', () => {
    expectNoCall('The log row was {"tool_name": "rm", "tool_args": {"path": "/"}} at noon.', TOOLS);
  });
});

describe("Llama's python tag after its end token", () => {
  const call = (unit: string) => `<|python_tag|>{"name": "get_current_weather", "parameters": {"location": "Boston", "unit": "${unit}"}}`;
  const weather = (unit: string) => ({ name: 'get_current_weather', arguments: { location: 'Boston', unit } });

  test('a model running on past `<|eom_id|>` tags another call: both are read, no markup shown', () => {
    expectReadAs(`${call('celsius')}<|eom_id|><|start_header_id|>assistant<|end_header_id|>\n\n${call('fahrenheit')}<|eom_id|><|start_header_id|>assistant<|end_header_id|>\n`, TOOLS, [weather('celsius'), weather('fahrenheit')], '');
    expectReadAs(`${call('celsius')}<|eom_id|>\n${call('fahrenheit')}`, TOOLS, [weather('celsius'), weather('fahrenheit')], '');
  });

  test("a JSON call followed by its end token and the next turn's header, then words: the call, and the words shown", () => {
    expectReadAs('{"type": "function", "name": "get_current_weather", "parameters": {"location": "Boston", "unit": "fahrenheit"}}<|eom_id|><|start_header_id|>assistant<|end_header_id|>\n\nThis JSON calls the tool.', TOOLS, [weather('fahrenheit')], 'This JSON calls the tool.');
  });

  test('a call JSON the reply ended inside is cut off, not code for an interpreter', () => {
    expect(read('<|python_tag|>{"name": "analyze_health_data", "parameters": {"data": "[{"-')).toEqual({ calls: [], failures: [['cut_off', 'analyze_health_data']] });
    // Code after the tag is still code.
    expect(read('<|python_tag|>import os\nprint(os.getcwd())').failures).toEqual([['unknown_tool', 'code_interpreter']]);
  });

  test('a tag named in a sentence is still prose', () => {
    expectNoCall('Llama writes `<|python_tag|>` before a call; a second <|python_tag|> here is words.', TOOLS);
  });
});

describe('a `<tool_call>` left open and opened again', () => {
  test('holding the same call: one call (a stutter), no markup shown', () => {
    expectReadAs('<tool_call>skill\n{"name":"git-diff-review"}\n<tool_call>skill\n{"name":"git-diff-review"}</tool_call>', TOOLS, [{ name: 'skill', arguments: { name: 'git-diff-review' } }], '');
    expectReadAs('<tool_call>{"name": "click", "arguments": {"id": 3}}\n<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>', TOOLS, [{ name: 'click', arguments: { id: 3 } }], '');
  });

  test('holding another call, or closed before: each call runs', () => {
    expectReadAs('<tool_call>{"name": "click", "arguments": {"id": 3}}\n<tool_call>{"name": "click", "arguments": {"id": 4}}</tool_call>', TOOLS, [{ name: 'click', arguments: { id: 3 } }, { name: 'click', arguments: { id: 4 } }], '');
    expectReadAs('<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>\n<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>', TOOLS, [{ name: 'click', arguments: { id: 3 } }, { name: 'click', arguments: { id: 3 } }], '');
  });
});

describe("an apostrophe in Python's single quotes", () => {
  test('between two letters it is part of the string (Nemotron-4 in BFCL)', () => {
    expectReadAs("[sentiment_analysis(text='I love the food here! It's always fresh and delicious.', language='English')]\n", TOOLS, [
      { name: 'sentiment_analysis', arguments: { text: "I love the food here! It's always fresh and delicious.", language: 'English' } },
    ], '');
    expectReadAs("search(query='O'Brien's pub')", TOOLS, [{ name: 'search', arguments: { query: "O'Brien's pub" } }], '');
    expectReadAs("{'name': 'search', 'arguments': {'query': 'don't stop'}}", TOOLS, [{ name: 'search', arguments: { query: "don't stop" } }], '');
  });

  test('a quote ending a string before a comma, a bracket or a blank still ends it', () => {
    expectReadAs("[search(query='cats'), click(id=3)]", TOOLS, [{ name: 'search', arguments: { query: 'cats' } }, { name: 'click', arguments: { id: 3 } }], '');
    expectReadAs("search(query='')", TOOLS, [{ name: 'search', arguments: { query: '' } }], '');
  });

  test('a string the reply ended inside is still cut off', () => {
    expect(read("[sentiment_analysis(text='It's always fre").failures).toEqual([['cut_off', 'sentiment_analysis']]);
  });
});

describe('a JSON call list naming offered tools and others', () => {
  const list = '[{"name": "click", "arguments": {"id": 3}}, {"name": "press_key", "arguments": {"key": "Enter"}}]';
  test('fenced, bare or in a wrapper: the calls of offered tools, and an unknown tool for the others', () => {
    for (const text of [`\`\`\`json\n${list}\n\`\`\``, list, `<tool_call>${list}</tool_call>`]) {
      expect(read(text)).toEqual({ calls: [{ name: 'click', arguments: { id: 3 } }], failures: [['unknown_tool', 'press_key']] });
    }
    expectReadAs(`Sure.\n\`\`\`json\n${list}\n\`\`\`\nDone.`, TOOLS, [{ name: 'click', arguments: { id: 3 } }], 'Sure. Done.');
  });

  test('naming no offered tool: a failure as the whole reply, prose after words presenting it', () => {
    expect(read('```json\n[{"name": "press_key", "arguments": {"key": "Enter"}}]\n```').failures).toEqual([['unknown_tool', 'press_key']]);
    expectNoCall('For example:\n```json\n[{"name": "press_key", "arguments": {"key": "Enter"}}]\n```\nThat is the format.', TOOLS);
    expectNoCall('```python\n[{"name": "press_key", "arguments": {"key": "Enter"}}]\n```\n\nThe key would be pressed.', TOOLS);
  });
});

describe("a tool's response the model invents after its call", () => {
  const LIST = { name: 'list_dir', arguments: { path: 'engine/' } };
  test('right after the call, on its own line: hidden with the made-up result, closed or not; words after it shown', () => {
    expectReadAs('<tool_call>{"name": "list_dir", "arguments": {"path": "engine/"}}</tool_call>\n<tool_response>\n["config.py", "main.py"]\n</tool_response>\nThe folder holds two files.', TOOLS, [LIST], 'The folder holds two files.');
    expectReadAs('<tool_call>{"name": "list_dir", "arguments": {"path": "engine/"}}</tool_call>\n\n<tool_response>\n["config.py"', TOOLS, [LIST], '');
  });

  test('a second call built on the invented listing still runs', () => {
    expectReadAs('{"name": "list_dir", "arguments": {"path": "engine/"}}\n\n<tool_response>\nconfig.py\n</tool_response>\n\n{"name": "search", "arguments": {"query": "PREFETCH"}}\n', TOOLS, [LIST, { name: 'search', arguments: { query: 'PREFETCH' } }], '');
  });

  test('with no call before it, after words, or in a sentence, the tag is the model\'s words', () => {
    expectNoCall('It seems there was an error. Let us try again.\n\n<tool_response>\n[{"a": 1}]\n</tool_response>', TOOLS);
    expectReadAs('<tool_call>{"name": "list_dir", "arguments": {"path": "engine/"}}</tool_call>\nDone. <tool_response>x</tool_response>', TOOLS, [LIST], 'Done. <tool_response>x</tool_response>');
    expectNoCall('Results come back in a <tool_response> block after each call.', TOOLS);
  });
});
