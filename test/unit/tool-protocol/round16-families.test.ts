/**
 * Where the shapes added from the sixteenth held-out round stop: Qwen-Agent's `✿FUNCTION✿`/`✿ARGS✿`
 * template; ModelScopeGPT's `<|startofthink|>` call with `api_name`; a JSON object keyed by the tool's
 * name; arguments wrapped in the schema's `properties`; Kimi K2's section token before a call line;
 * a Python call list with complete calls before a broken or cut one; closing brackets written once
 * too often and an empty `<|>` token after a call; MemGPT's `function`/`params` JSON cut off; keys whose
 * underscores Markdown escaped; a fenced call of dotted names after prose.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, { type: string }>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'get_weather', parameters: object({ location: { type: 'string' }, unit: { type: 'string' } }) },
  { name: 'send_message', parameters: object({ inner_thoughts: { type: 'string' }, message: { type: 'string' } }) },
  { name: 'list_directory', parameters: object({ path: { type: 'string' } }) },
  { name: 'create_histogram', parameters: object({ data: { type: 'array' }, bins: { type: 'integer' } }) },
  { name: 'note_conversion.indian', parameters: object({ note: { type: 'string' } }) },
  { name: 'get_time', parameters: object({}) },
];
const weather = { name: 'get_weather', arguments: { location: 'Tokyo', unit: 'celsius' } };
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => [f.problem, f.name]);

describe("Qwen-Agent's ✿FUNCTION✿ template", () => {
  test.each([
    ['on lines of its own', '✿FUNCTION✿: get_weather\n✿ARGS✿: {"location": "Tokyo", "unit": "celsius"}', [weather], ''],
    ['glued to the words before it', 'I need the weather✿FUNCTION✿: get_weather\n✿ARGS✿: {"location": "Tokyo", "unit": "celsius"}', [weather], 'I need the weather'],
    ['two pairs, one line each', '✿FUNCTION✿: get_weather ✿ARGS✿: {"location": "Tokyo", "unit": "celsius"}\n✿FUNCTION✿: get_time ✿ARGS✿: {}', [weather, { name: 'get_time', arguments: {} }], ''],
  ])('%s: the calls, hidden', (_name, text, calls, shown) => {
    expectReadAs(text, TOOLS, calls, shown);
  });

  test('a tool that is not offered: an unknown_tool failure, hidden', () => {
    const text = '✿FUNCTION✿: bash ✿ARGS✿: {"command": "ls"}';
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['unknown_tool', 'bash']]);
  });

  test('in inline code: prose', () => {
    const text = 'Qwen-Agent writes `✿FUNCTION✿: get_time ✿ARGS✿: {}` for a call.';
    expectReadAs(text, TOOLS, [], text);
  });
});

describe("ModelScopeGPT's <|startofthink|> call", () => {
  test.each([
    ['JSON with api_name', '<|startofthink|>{"api_name": "list_directory", "parameters": {"path": "."}}<|endofthink|>', ''],
    ['in a fence of its own, after words', 'Let me look.<|startofthink|>```JSON\n{"api_name": "list_directory", "parameters": {"path": "."}}\n```<|endofthink|>', 'Let me look.'],
  ])('%s: the call, hidden', (_name, text, shown) => {
    expectReadAs(text, TOOLS, [{ name: 'list_directory', arguments: { path: '.' } }], shown);
  });

  test('words between the tokens: shown as written, no call', () => {
    const text = '<|startofthink|>Just words.<|endofthink|> The answer is 4.';
    expectReadAs(text, TOOLS, [], text);
  });
});

describe('a JSON object keyed by an offered tool', () => {
  test('opening the reply: the call, hidden', () => {
    expectReadAs('{"list_directory": {"path": "."}}', TOOLS, [{ name: 'list_directory', arguments: { path: '.' } }], '');
  });

  test('keyed by a word that is no tool, or holding no object: prose', () => {
    for (const text of ['{"weather": {"location": "Tokyo"}}', '{"list_directory": "."}']) expectReadAs(text, TOOLS, [], text);
  });
});

test("arguments wrapped in the schema's properties (LFM2): the inner object", () => {
  expectReadAs('<|tool_call_start|>[get_weather(properties={"location": "Tokyo", "unit": "celsius"})]<|tool_call_end|>', TOOLS, [weather], '');
});

test("Kimi K2's section token right before a call line: the call, hidden", () => {
  const text = '<|tool_calls_section_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"location": "Tokyo", "unit": "celsius"}<|tool_calls_section_end|>';
  expectReadAs(text, TOOLS, [weather], '');
});

describe('a Python call list with complete calls before a broken one', () => {
  const histogram = { name: 'create_histogram', arguments: { data: [1, 2], bins: 5 } };
  test('cut by the token limit inside the last call: the complete calls and a cut_off failure', () => {
    const text = '[create_histogram(data=[1, 2], bins=5), create_histogram(data=[3, ';
    expectReadAs(text, TOOLS, [histogram], '');
    expect(failuresOf(text)).toEqual([['cut_off', 'create_histogram']]);
  });

  test('a part whose value is a call expression: unparsable, beside the calls read', () => {
    const text = '[create_histogram(data=[1, 2], bins=5), create_histogram(data=create_histogram(data=[1])[0], bins=2)]';
    expectReadAs(text, TOOLS, [histogram], '');
    expect(failuresOf(text)).toEqual([['unparsable', 'create_histogram']]);
  });

  test('a part that is no call of an offered tool: the whole list unreadable, as before', () => {
    const text = '[create_histogram(data=[1, 2], bins=5), plot(x]';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
  });
});

describe('what belongs to a call just read', () => {
  test.each([
    ['closing braces once too often', '{"name": "list_directory", "arguments": {"path": "."}}}'],
    ['a list closed with a brace too many (Granite)', '<|tool_call|>[{"name": "list_directory", "arguments": {"path": "."}, "return": "x"}}]'],
    ['an empty special token after it', '{"name": "list_directory", "arguments": {"path": "."}}<|>'],
  ])('%s: the call, hidden', (_name, text) => {
    expectReadAs(text, TOOLS, [{ name: 'list_directory', arguments: { path: '.' } }], '');
  });

  test('words after the extra braces: prose', () => {
    const text = '{"name": "list_directory", "arguments": {"path": "."}}} is the call.';
    expectReadAs(text, TOOLS, [], text);
  });
});

describe("MemGPT's function/params JSON", () => {
  test('cut after a complete value and its comma: a cut_off failure, not a call that may lack arguments', () => {
    const text = '{\n  "function": "send_message",\n  "params": {\n    "message": "Hi",\n';
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['cut_off', 'send_message']]);
  });

  test('keys and name whose underscores Markdown escaped: read as the schema declares them', () => {
    const text = '{"function": "send\\_message", "params": {"inner\\_thoughts": "ok", "message": "Hi"}}';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([{ name: 'send_message', arguments: { inner_thoughts: 'ok', message: 'Hi' } }]);
  });
});

test('a fence of calls of dotted names after prose: the calls, the fence hidden', () => {
  const text = 'Here are the function calls:\n\n```\nnote_conversion.indian(note="C")\n```';
  expectReadAs(text, TOOLS, [{ name: 'note_conversion.indian', arguments: { note: 'C' } }], 'Here are the function calls:');
});
