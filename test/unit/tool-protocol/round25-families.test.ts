/**
 * Where the fixes from the twenty-fifth held-out round stop: Llama 3.2's garbled separator between an arguments key and
 * its object (`"parameters=`, `"parameters(`, `"parameters "`, `"parameters\":` with the arguments escaped); a list of
 * strings that hold calls (JSON, or Python); Python's tuples as lists; a short label before calls opening the reply
 * (`tools call: [f(…)]`); a whole-reply Python list naming no offered tool, and one the reply ended inside; Command R+'s
 * `Action:` before its fence's marker on the same line, and the turn ending at an `Action:` fence (LangChain's structured
 * chat: the `Observation:` after it is made up); an opening tag written again as a call's closer; Llama 3's header closer
 * left after another template's header; an arguments key the tool declares as a parameter; and Python calls after
 * Mistral's `[TOOL_CALLS]`.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'get_time', parameters: object({ timezone: { type: 'string' } }) },
  { name: 'get_boiling_point', parameters: object({ liquid_name: { type: 'string' }, celsius: { type: 'boolean' } }, ['liquid_name']) },
  { name: 'web_search', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'get_weather', parameters: object({ location: { type: 'string' } }) },
  { name: 'fetch_sequence', parameters: object({ id: { type: 'string' }, format: { type: 'string' }, upstream: { type: 'integer' } }, ['id']) },
  { name: 'weather.by_coordinates', parameters: object({ coordinates: { type: 'array', items: { type: 'number' } }, date: { type: 'string' } }, ['coordinates']) },
  { name: 'displacement', parameters: object({ velocity: { type: 'integer' }, time: { type: 'integer' } }, ['velocity']) },
  { name: 'ask_ide', parameters: object({ input: { type: 'string' } }, ['input']) },
];

describe("an arguments key whose separator is garbled (Llama 3.2's)", () => {
  test.each([
    ['"parameters=', '{"name":"get_boiling_point","parameters={"celsius":false,"liquid_name":"polyjuice"}}'],
    ['"parameters "', '{"name":"get_boiling_point","parameters "{"celsius":false,"liquid_name":"polyjuice"}}'],
    ['"parameters(, a quote for its closing parenthesis', '{"name":"get_boiling_point","parameters({"celsius":false,"liquid_name":"polyjuice"}"'],
    ['"arguments>', '{"name":"get_boiling_point","arguments>{"celsius":false,"liquid_name":"polyjuice"}}'],
  ])('%s: the call', (_form, output) => {
    expectReadAs(output, TOOLS, [{ name: 'get_boiling_point', arguments: { celsius: false, liquid_name: 'polyjuice' } }], '');
  });

  test('the separator and the arguments escaped as inside a string: the call', () => {
    expectReadAs('{"name":"get_time","parameters\\":{\\"timezone\\":\\"UTC\\"}}', TOOLS, [{ name: 'get_time', arguments: { timezone: 'UTC' } }], '');
  });

  test('escaped arguments the reply ended inside: cut off, never run', () => {
    const result = parseToolCalls('{"name":"web_search","parameters\\":{\\"query\\":\\"how to', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('arguments given as a JSON string keep their reading (OpenAI style)', () => {
    expectReadAs('{"name": "web_search", "arguments": "{\\"query\\": \\"a=b (c)\\"}"}', TOOLS, [{ name: 'web_search', arguments: { query: 'a=b (c)' } }], '');
  });

  test('a value ending in a brace and a quote is kept whole', () => {
    expect(parseToolCalls('{"name": "web_search", "parameters": {"query": "a}"', TOOLS).calls).toEqual([{ name: 'web_search', arguments: { query: 'a}' } }]);
  });

  test('in a sentence: prose', () => {
    expectNoCall('I tried {"name":"get_time","parameters={"timezone":"UTC"}} but the page says: it failed.', TOOLS);
  });
});

describe('a list of strings that hold calls', () => {
  test("JSON calls encoded as strings (Llama 3.3 on watsonx): the calls", () => {
    const output = '["{\\"type\\": \\"function\\", \\"name\\": \\"get_weather\\", \\"parameters\\": {\\"location\\": \\"Paris\\"}}", "{\\"type\\": \\"function\\", \\"name\\": \\"get_time\\", \\"parameters\\": {\\"timezone\\": \\"CET\\"}}"]';
    expectReadAs(output, TOOLS, [
      { name: 'get_weather', arguments: { location: 'Paris' } },
      { name: 'get_time', arguments: { timezone: 'CET' } },
    ], '');
  });

  test('Python calls as strings, bare words for string values (Arctic in BFCL): the calls', () => {
    expectReadAs("['fetch_sequence(id=XYZ123, format=genbank, upstream=500)', 'fetch_sequence(id=XYZ123)']", TOOLS, [
      { name: 'fetch_sequence', arguments: { id: 'XYZ123', format: 'genbank', upstream: 500 } },
      { name: 'fetch_sequence', arguments: { id: 'XYZ123' } },
    ], '');
  });

  test('one string naming no offered tool, or one that is no call: no call', () => {
    expectNoCall('["fetch_sequence(id=1)", "apple"]', TOOLS);
    expectNoCall('["{\\"name\\": \\"delete_all\\", \\"arguments\\": {}}"]', TOOLS);
  });

  test('ending a sentence: a quotation', () => {
    expectNoCall('The page lists these examples: ["get_weather(location=Paris)"]', TOOLS);
    expectNoCall('The list is ["get_weather(location=Paris)"]', TOOLS);
  });
});

describe("Python's tuples", () => {
  test('a tuple for a list (Command R+ in BFCL): the call', () => {
    expectReadAs('weather.by_coordinates(coordinates=(46.603354, 1.8883340), date="2019-12-13")', TOOLS, [
      { name: 'weather.by_coordinates', arguments: { coordinates: [46.603354, 1.888334], date: '2019-12-13' } },
    ], '');
  });

  test('a one-element tuple, tuples in a list, a parenthesised value', () => {
    expect(parseToolCalls('[fetch_sequence(id=("a",), upstream=(5))]', ['fetch_sequence']).calls).toEqual([{ name: 'fetch_sequence', arguments: { id: ['a'], upstream: 5 } }]);
    expect(parseToolCalls('[fetch_sequence(id=[(1, 2), (3, 4)])]', ['fetch_sequence']).calls).toEqual([{ name: 'fetch_sequence', arguments: { id: [[1, 2], [3, 4]] } }]);
  });

  test('a call expression as a value stays unreadable; parentheses in a string stay text', () => {
    expect(parseToolCalls('[fetch_sequence(id=lookup(1))]', TOOLS).calls).toEqual([]);
    expect(parseToolCalls("[fetch_sequence(id='(a, b)')]", TOOLS).calls).toEqual([{ name: 'fetch_sequence', arguments: { id: '(a, b)' } }]);
  });
});

describe('a label before calls opening the reply', () => {
  test('`tools call:` then a call list (Claude in BFCL): the call, the label shown', () => {
    expectReadAs('tools call: [displacement(velocity=10, time=5)]', TOOLS, [{ name: 'displacement', arguments: { velocity: 10, time: 5 } }], 'tools call:');
  });

  test('a bold label, then a call without a list (Qwen2.5): the call', () => {
    expectReadAs('**Function Calling Response**: displacement(velocity=3)', TOOLS, [{ name: 'displacement', arguments: { velocity: 3 } }], '**Function Calling Response**:');
  });

  test('words that present an example or quote, a sentence, or words after the calls: prose', () => {
    expectNoCall('Example: [displacement(velocity=10)]', TOOLS);
    expectNoCall('The page says: [displacement(velocity=10)]', TOOLS);
    expectNoCall('I think we should call this: [displacement(velocity=10)]', TOOLS);
    expectNoCall('tools call: [displacement(velocity=10)] and then we wait', TOOLS);
  });

  test('on a later line: prose', () => {
    expectNoCall('I looked at it.\ntools call: [displacement(velocity=10)]', TOOLS);
  });
});

describe('a Python call list as the whole reply that runs nothing', () => {
  test('naming no offered tool: an unknown tool, hidden', () => {
    const result = parseToolCalls('[triangle_area(base=10, height=5)]', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['unknown_tool', 'triangle_area']]);
    expectReadAs('[triangle_area(base=10, height=5)]', TOOLS, [], '');
  });

  test('the reply ended inside its value: cut off', () => {
    const result = parseToolCalls('[fetch_sequence(id="MIIFdTCCBF2gAwIBAgISESGAAAAAAAAAAAAA', TOOLS);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('with words after it, or no call inside: prose', () => {
    expectNoCall('[triangle_area(base=10)] is what I would use, but it is not offered.', TOOLS);
    expectNoCall('[Note] The tool list is short.', TOOLS);
  });
});

describe("Command R+'s Action: before its fence's marker", () => {
  test('on the same line: the calls, nothing shown', () => {
    const output = 'Action: ```json\n[\n    {"tool_name": "web_search", "parameters": {"query": "kettle prices"}},\n    {"tool_name": "get_time", "parameters": {}}\n]\n```';
    expectReadAs(output, TOOLS, [
      { name: 'web_search', arguments: { query: 'kettle prices' } },
      { name: 'get_time', arguments: {} },
    ], '');
  });

  test('a fence of code after it stays code', () => {
    expectNoCall('Action: ```python\nprint("hello")\n```', TOOLS);
  });
});

describe("LangChain's structured chat: an Action: fence", () => {
  test('then a made-up Observation and Thought: the call, nothing after it shown', () => {
    const output = 'Question: What is the weather in London?\n\nAction:\n```\n{\n  "action": "get_weather",\n  "action_input": {"location": "London"}\n}\n```\nObservation: It is mostly cloudy, 12°C.\n\nThought: I now know the final answer\n';
    expectReadAs(output, TOOLS, [{ name: 'get_weather', arguments: { location: 'London' } }], 'Question: What is the weather in London?');
  });

  test('stopped at the Observation: stop string: the call, the string not shown', () => {
    expectReadAs('Action:\n```\n{"action": "get_weather", "action_input": {"location": "London"}}\n```\nObservation:\n', TOOLS, [{ name: 'get_weather', arguments: { location: 'London' } }], '');
  });

  test('presented as an example, the reply going on: prose', () => {
    expectNoCall('For example:\n\nAction:\n```\n{"action": "get_weather", "action_input": {"location": "London"}}\n```\nThat is the format.', TOOLS);
  });
});

describe('an arguments key the tool declares as a parameter', () => {
  test('`input` holding a string beside the name (Mistral Nemo): the parameter', () => {
    expectReadAs('  {"input": "What is the current version?", "name": "ask_ide"}', TOOLS, [{ name: 'ask_ide', arguments: { input: 'What is the current version?' } }], '');
  });

  test('a tool that does not declare it: no call run on a guess', () => {
    expect(parseToolCalls('{"input": "What is the current version?", "name": "get_time"}', TOOLS).calls).toEqual([]);
  });
});

describe("Mistral's [TOOL_CALLS] before Python calls", () => {
  test('one call, a positional argument named by the schema: the call', () => {
    expectReadAs('[TOOL_CALLS]web_search("apple")', TOOLS, [{ name: 'web_search', arguments: { query: 'apple' } }], '');
  });

  test('a list of calls: the calls', () => {
    expectReadAs('[TOOL_CALLS][get_weather(location="Oslo"), get_time(timezone="CET")]', TOOLS, [
      { name: 'get_weather', arguments: { location: 'Oslo' } },
      { name: 'get_time', arguments: { timezone: 'CET' } },
    ], '');
  });

  test('a call naming no offered tool: an unknown tool, never run', () => {
    const result = parseToolCalls('[TOOL_CALLS]delete_all(path="/")', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['unknown_tool']);
  });
});

describe('an opening tag written again as the closer', () => {
  test("Hermes 2 Pro's second <tool_call> ending the reply: one call, no failure", () => {
    const output = '<tool_call>\n{"arguments": {"query": "a"}, "name": "web_search"}\n<tool_call>\n';
    const result = parseToolCalls(output, TOOLS);
    expect(result.failures).toEqual([]);
    expectReadAs(output, TOOLS, [{ name: 'web_search', arguments: { query: 'a' } }], '');
  });

  test('an opening tag alone, the reply cut right after it: still a failure', () => {
    expect(parseToolCalls('Let me search.\n<tool_call>\n', TOOLS).failures.map((f) => f.problem)).toEqual(['cut_off']);
  });
});

test("Llama 3's header closer left after another template's header is hidden", () => {
  expectReadAs('<|im_start|>assistant<|end_header_id|>\n\nThe time is noon.', TOOLS, [], 'The time is noon.');
});
