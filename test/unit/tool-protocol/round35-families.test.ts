/**
 * Where the fixes from the thirty-fifth held-out round stop: Gorilla OpenFunctions v2's `<<function>>` marker; a
 * prompt's `TOOL_CALL:`/`ARGS:` label pair; ChatGLM3's name line before `tool_call(…)`; InternLM2's action tokens printed
 * as `[UNUSED_TOKEN_…]` placeholders; Doubao's `<|FunctionCallBegin|>` tokens; Claude 2.1's `<invoke>` with `<tool_name>`
 * and `<parameters>` elements; Command A's `<|START_TEXT|>` markers; a name key in camel case and arguments as name and
 * value pairs; a call's JSON in a fence on one line.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'calculate_triangle_area', parameters: object({ base: { type: 'integer' }, height: { type: 'integer' } }, ['base', 'height']) },
  { name: 'math.factorial', parameters: object({ number: { type: 'integer' } }, ['number']) },
  { name: 'get_layer_names', parameters: object({ filter_pattern: { type: 'string' } }) },
  { name: 'get_summary', parameters: object({}) },
  { name: 'get_weather', parameters: object({ city_name: { type: 'string' } }, ['city_name']) },
  { name: 'search', parameters: object({ input: { type: 'string' } }, ['input']) },
  { name: 'take_photo', parameters: object({ question: { type: 'string' } }, ['question']) },
  { name: 'MockTool', parameters: object({ param1: { type: 'string' }, param2: { type: 'string' } }) },
  { name: 'tellAJoke', parameters: object({ location: { type: 'string' } }, ['location']) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);

describe("Gorilla OpenFunctions v2's `<<function>>` marker", () => {
  test('one call, a dotted name, several on one line', () => {
    expectReadAs(' <<function>>calculate_triangle_area(base=10, height=5)', TOOLS, [{ name: 'calculate_triangle_area', arguments: { base: 10, height: 5 } }], '');
    expectReadAs('<<function>>math.factorial(number=5)<<function>>math.factorial(number=6)', TOOLS, [
      { name: 'math.factorial', arguments: { number: 5 } },
      { name: 'math.factorial', arguments: { number: 6 } },
    ], '');
  });

  test('naming no offered tool: a failure; inside a sentence: text', () => {
    expect(failuresOf('<<function>>rm_rf(path="/")')).toEqual(['unknown_tool']);
    expectNoCall('It writes <<function>>math.factorial(number=5) for that.', TOOLS);
  });
});

describe("a prompt's `TOOL_CALL:` and `ARGS:` label pair (Qwen2.5 3B)", () => {
  test('each pair a call, in order', () => {
    const text = 'TOOL_CALL: get_summary\nARGS: {}\n\nTOOL_CALL: get_layer_names\nARGS: {"filter_pattern": "attention"}';
    expectReadAs(text, TOOLS, [
      { name: 'get_summary', arguments: {} },
      { name: 'get_layer_names', arguments: { filter_pattern: 'attention' } },
    ], '');
  });

  test('naming no offered tool it is text', () => {
    expectNoCall('TOOL_CALL: rm_rf\nARGS: {"path": "/"}', TOOLS);
  });
});

describe("ChatGLM3's name line, then `tool_call(…)`", () => {
  test('opening the reply: the call', () => {
    expectReadAs("get_weather\ntool_call(city_name='苏州')", TOOLS, [{ name: 'get_weather', arguments: { city_name: '苏州' } }], '');
  });

  test('after words, or naming no offered tool, it is text', () => {
    expectNoCall("Then:\nget_weather\ntool_call(city_name='苏州')", TOOLS);
    expectNoCall("delete_all\ntool_call(path='/')", TOOLS);
  });
});

describe('special tokens in other spellings', () => {
  test("InternLM2's action tokens printed as placeholders (a GGUF's tokenizer): the call, the words kept", () => {
    const text = 'I will search.[UNUSED_TOKEN_144][UNUSED_TOKEN_141]\n{"name":"search","parameters":{"input":"news today"}}[UNUSED_TOKEN_143]';
    expectReadAs(text, TOOLS, [{ name: 'search', arguments: { input: 'news today' } }], 'I will search.');
  });

  test("Doubao's `<|FunctionCallBegin|>` around a list", () => {
    expectReadAs('<|FunctionCallBegin|>[{"name": "take_photo", "parameters": {"question": "描述一下"}}]<|FunctionCallEnd|>', TOOLS, [{ name: 'take_photo', arguments: { question: '描述一下' } }], '');
  });

  test("Command A's text markers are template tokens", () => {
    expectReadAs('<|START_TEXT|>It is sunny.<|END_TEXT|>', TOOLS, [], 'It is sunny.');
  });
});

describe("Claude 2.1's `<invoke>` with `<tool_name>` and `<parameters>` elements", () => {
  test('in `<function_calls>`: the call', () => {
    expectReadAs('<function_calls><invoke><tool_name>MockTool</tool_name><parameters><param1>a</param1><param2>42</param2></parameters></invoke></function_calls>', TOOLS, [
      { name: 'MockTool', arguments: { param1: 'a', param2: '42' } },
    ], '');
  });
});

describe("a prompt's own JSON shape", () => {
  test('`functionName` and arguments as name and value pairs', () => {
    const text = '{\n  "functionName": "get_weather",\n  "parameters": [\n    {"parameterName": "city_name", "parameterValue": "Beijing"}\n  ]\n}';
    expectReadAs(text, TOOLS, [{ name: 'get_weather', arguments: { city_name: 'Beijing' } }], '');
  });

  test('a list of other objects stays what it was', () => {
    expect(parseToolCalls('{"name": "get_weather", "parameters": [{"city_name": "Oslo"}]}', TOOLS).calls).toEqual([{ name: 'get_weather', arguments: { city_name: 'Oslo' } }]);
  });
});

describe("a call's JSON in a fence on one line (DeepSeek-Coder-V2 on Ollama)", () => {
  test('as the whole reply: the call; after words: an example', () => {
    expectReadAs('```json {"name":"tellAJoke","arguments":{"location":"San Francisco"}} ```', TOOLS, [{ name: 'tellAJoke', arguments: { location: 'San Francisco' } }], '');
    expectNoCall('Send this: ```json {"name":"tellAJoke","arguments":{"location":"SF"}} ```', TOOLS);
  });
});
