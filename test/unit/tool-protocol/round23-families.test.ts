/**
 * Where the fixes from the twenty-third held-out round stop: TGI's grammar JSON (`{"function": {"_name": …}}`); a call
 * to a tool that requires arguments cut before any came; Qwen2.5 writing Qwen3-Coder's format with nameless
 * `<parameter>` tags; a harmony message that starts on a line of its own; call wrappers no template names
 * (`<call>`, `<action>`, `<api_call>`), read only around calls of offered tools; a call written as XML elements with
 * no wrapper (`<tool>bash</tool>` then `<parameter>{…}</parameter>`); and a JSON string whose backslashes were never
 * escaped (a Windows path).
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'get_current_weather', parameters: object({ location: { type: 'string' }, format: { type: 'string' } }, ['location', 'format']) },
  { name: 'get_n_day_weather_forecast', parameters: object({ location: { type: 'string' }, num_days: { type: 'integer' } }, ['location', 'num_days']) },
  { name: 'read_file', parameters: object({ path: { type: 'string' } }, ['path']) },
  { name: 'current_time', parameters: object({}) },
  { name: 'bash', parameters: object({ command: { type: 'string' } }, ['command']) },
];

describe("TGI's grammar JSON", () => {
  test('the name under _name beside the arguments, the end token kept: the call', () => {
    expectReadAs('{"function": {"_name": "get_current_weather", "location": "Paris, France", "format": "celsius"}}<|eot_id|>', TOOLS, [
      { name: 'get_current_weather', arguments: { location: 'Paris, France', format: 'celsius' } },
    ], '');
  });

  test('spaced, an integer typed by the schema, </s> after it: the call', () => {
    expectReadAs('{ "function": { "_name": "get_n_day_weather_forecast", "location": "Oslo", "num_days": "3" } }</s>', TOOLS, [
      { name: 'get_n_day_weather_forecast', arguments: { location: 'Oslo', num_days: 3 } },
    ], '');
  });

  test('naming no offered tool: no call runs', () => {
    expect(parseToolCalls('{"function": {"_name": "delete_everything", "path": "/"}}', TOOLS).calls).toEqual([]);
  });
});

describe('a call cut before its arguments', () => {
  test('a wrapper holding only the name of a tool that requires arguments: cut off, never run', () => {
    const result = parseToolCalls('<tool_call>read_file', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'read_file']]);
  });

  test('a <function=…> tag with nothing after it, for a tool that requires arguments: cut off', () => {
    const result = parseToolCalls('<tool_call><function=read_file>', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('the name of a tool that takes no arguments: the call', () => {
    expect(parseToolCalls('<tool_call>current_time', TOOLS).calls).toEqual([{ name: 'current_time', arguments: {} }]);
  });

  test('closed, the name of a tool that takes no arguments: the call', () => {
    expect(parseToolCalls('<tool_call><function=current_time></function></tool_call>', TOOLS).calls).toEqual([{ name: 'current_time', arguments: {} }]);
  });
});

describe('nameless <parameter> tags (Qwen2.5 writing Qwen3-Coder’s format)', () => {
  test("each tag holds a declared parameter's name, its value on the line after: the call", () => {
    expectReadAs('<tool_call>\n<function=get_current_weather>\n<parameter>location</parameter>\nSeoul\n<parameter>format</parameter>\ncelsius\n</function>\n</tool_call>', TOOLS, [
      { name: 'get_current_weather', arguments: { location: 'Seoul', format: 'celsius' } },
    ], '');
  });

  test('a tag holding a name the tool does not declare: no call runs', () => {
    expect(parseToolCalls('<tool_call>\n<function=get_current_weather>\n<parameter>town</parameter>\nSeoul\n</function>\n</tool_call>', TOOLS).calls).toEqual([]);
  });

  test('the reply ending inside the last value: cut off', () => {
    const result = parseToolCalls('<function=get_current_weather>\n<parameter>location</parameter>\nSeo', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });
});

describe('a harmony message on a line of its own', () => {
  test('a recipient on the analysis channel, content type code, the arguments on the next line: the call', () => {
    expectReadAs('<|channel|>analysis<|message|>We need to run it.\n<|end|><|start|>assistant<|channel|>analysis to=functions.bash code<|message|>\n{"command":"ls"}<|call|>', TOOLS, [
      { name: 'bash', arguments: { command: 'ls' } },
    ], '');
  });
});

describe('call wrappers no template names', () => {
  test.each(['call', 'action', 'api_call', 'execute', 'fn_call', 'tool-call', 'ToolCall'])('<%s> around a JSON call on one line: the call', (tag) => {
    expectReadAs(`<${tag}>{"name": "read_file", "arguments": {"path": "a.txt"}}</${tag}>`, TOOLS, [{ name: 'read_file', arguments: { path: 'a.txt' } }], '');
  });

  test('around a pythonic list, after a line of prose: the call, the prose shown', () => {
    expectReadAs('Reading it now.\n<call>[read_file(path="notes.md")]</call>', TOOLS, [{ name: 'read_file', arguments: { path: 'notes.md' } }], 'Reading it now.');
  });

  test('around a JSON call on lines of its own, the tags hidden too', () => {
    expectReadAs('<action>\n{"name": "bash", "arguments": {"command": "date"}}\n</action>', TOOLS, [{ name: 'bash', arguments: { command: 'date' } }], '');
  });

  test('two in a row: both calls', () => {
    expectReadAs('<call>{"name": "read_file", "arguments": {"path": "a"}}</call>\n<call>{"name": "read_file", "arguments": {"path": "b"}}</call>', TOOLS, [
      { name: 'read_file', arguments: { path: 'a' } },
      { name: 'read_file', arguments: { path: 'b' } },
    ], '');
  });

  test('around the name of a tool alone, no arguments after it: an element naming it, no call', () => {
    expectNoCall('The tool I would use is\n<tool>bash</tool>\nbut it is not needed here.', TOOLS);
  });

  test.each(['b', 'code', 'output', 'tool_response', 'result', 'example', 'answer'])('<%s> (a name that holds no calls) around call JSON on one line: prose', (tag) => {
    expectNoCall(`<${tag}>{"name": "read_file", "arguments": {"path": "a.txt"}}</${tag}>`, TOOLS);
  });

  test('inside a sentence that goes on: prose', () => {
    expectNoCall('The model wrote <call>{"name": "read_file", "arguments": {"path": "a"}}</call> and then stopped.', TOOLS);
  });

  test('around prose: prose, shown as written', () => {
    expectNoCall('<action>\nClick the blue button, then wait.\n</action>', TOOLS);
  });

  test('around a call of a tool that is not offered: no call runs', () => {
    expect(parseToolCalls('<call>{"name": "delete_everything", "arguments": {}}</call>', TOOLS).calls).toEqual([]);
  });
});

describe('a call written as XML elements, no wrapper around them', () => {
  test("the tool's name, then its JSON arguments in a <parameter>, after prose: the call, the prose shown", () => {
    expectReadAs('I will run that command for you.\n\n<tool>bash</tool>\n<parameter>{"command": "date +%s"}</parameter>\n\n', TOOLS, [{ name: 'bash', arguments: { command: 'date +%s' } }], 'I will run that command for you.');
  });

  test("after the server's element, closed by a wrapper's tag it never opened: the call", () => {
    expectReadAs("I'll read the file.\n\n<server>filesystem</server>\n<tool>read_file</tool>\n<arguments>{\"path\": \"notes.md\"}</arguments>\n</tool_call>", TOOLS, [
      { name: 'read_file', arguments: { path: 'notes.md' } },
    ], "I'll read the file.");
  });

  test('an invented type/input pair after a call id: the call', () => {
    expectReadAs('<tool_call_id>call_1</tool_call_id>\n<tool_call_type>bash</tool_call_type>\n<tool_input>{"command":"ls"}</tool_input>', TOOLS, [{ name: 'bash', arguments: { command: 'ls' } }], '');
  });

  test('naming no offered tool: prose', () => {
    expectNoCall('<name>Alice</name>\n<arguments>{"age": 3}</arguments>', TOOLS);
  });

  test('the arguments element cut before it closed: cut off, never run', () => {
    const result = parseToolCalls('<tool>bash</tool>\n<parameter>{"command": "rm -', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('a name element alone in prose is shown as soon as a line of prose follows it', () => {
    expectNoCall('<name>Alice</name>\nShe is three.', TOOLS);
  });
});

describe('a JSON string whose backslashes were never escaped', () => {
  test('a Windows path with \\t in it: every backslash kept, no tab', () => {
    expect(parseToolCalls('{"name": "read_file", "arguments": {"path": "C:\\Users\\me\\Desktop\\test.txt"}}', TOOLS).calls).toEqual([
      { name: 'read_file', arguments: { path: 'C:\\Users\\me\\Desktop\\test.txt' } },
    ]);
  });

  test('a string with only escapes JSON knows keeps them', () => {
    expect(parseToolCalls('{"name": "bash", "arguments": {"command": "printf \'a\\tb\'"}}', TOOLS).calls).toEqual([{ name: 'bash', arguments: { command: "printf 'a\tb'" } }]);
  });
});
