/**
 * Where the fixes from the thirty-ninth held-out round stop: objects built by constructors in Python call arguments
 * (NexusRaven's dataclasses); a tool-named tag whose attributes are the arguments, ending the reply never closed, or
 * a tool's name and attributes inside a `<tool_call>`; a parameter's closing tag misspelled; a `$` before a call
 * object's key; a chat message written as JSON, held by the stream filter as the parser reads it.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'insert_into_database', parameters: object({ names: { type: 'array', items: object({ name: { type: 'string' }, addresses: { type: 'array', items: { type: 'string' } } }) } }, ['names']) },
  { name: 'plot', parameters: object({ point: object({ x: { type: 'number' }, y: { type: 'number' } }) }, ['point']) },
  { name: 'search_files', parameters: object({ query: { type: 'string' }, limit: { type: 'integer' } }, ['query']) },
  { name: 'exec', parameters: object({ command: { type: 'string' } }, ['command']) },
  { name: 'robot_control', parameters: object({ action: { type: 'string' }, angle: { type: 'number' } }, ['action']) },
  { name: 'get_day', parameters: object({}) },
];
const read = (text: string) => {
  const r = parseToolCalls(text, TOOLS);
  return { calls: r.calls, failures: r.failures.map((f) => [f.problem, f.name]) };
};

describe('objects built by constructors in Python call arguments', () => {
  test('dataclasses in a list, as NexusRaven writes them: objects', () => {
    expectReadAs("insert_into_database(names=[Record(name='Ada Lovelace', addresses=['12 St James Square', 'Ockham Park']), Record(name='Mark Twain', addresses=[])])", TOOLS, [
      { name: 'insert_into_database', arguments: { names: [{ name: 'Ada Lovelace', addresses: ['12 St James Square', 'Ockham Park'] }, { name: 'Mark Twain', addresses: [] }] } },
    ], '');
  });

  test('in a call list, its name dotted, a comma after its last argument', () => {
    expect(read('[plot(point=geometry.Point(x=1.5, y=-2,))]').calls).toEqual([{ name: 'plot', arguments: { point: { x: 1.5, y: -2 } } }]);
  });

  test('a constructor inside another, inside a tuple', () => {
    expect(read("insert_into_database(names=(Record(name='Ada', addresses=(Address(line='Ockham Park'),)),))").calls).toEqual([
      { name: 'insert_into_database', arguments: { names: [{ name: 'Ada', addresses: [{ line: 'Ockham Park' }] }] } },
    ]);
  });

  test('a constructor given positional arguments, or a comparison, is no object: the call cannot be read', () => {
    expect(read('plot(point=Point(1.5, 2))')).toEqual({ calls: [], failures: [['unparsable', 'plot']] });
    expect(read('plot(point=Point(x==1))')).toEqual({ calls: [], failures: [['unparsable', 'plot']] });
  });

  test('inside a string, a constructor stays the words', () => {
    expect(read("search_files(query='Record(name=1)')").calls).toEqual([{ name: 'search_files', arguments: { query: 'Record(name=1)' } }]);
  });
});

describe('a tool-named tag whose attributes are the arguments, never closed', () => {
  test('ending the reply on a line of its own: the call, typed by the schema', () => {
    expectReadAs('<search_files query="throughput" limit="5">', TOOLS, [{ name: 'search_files', arguments: { query: 'throughput', limit: 5 } }], '');
    expectReadAs('I will search.\n<search_files query="throughput">\n', TOOLS, [{ name: 'search_files', arguments: { query: 'throughput' } }], 'I will search.');
  });

  test('with words after it, inside a sentence, or with attributes the tool does not declare: prose', () => {
    expectNoCall('<search_files query="throughput">\nThen I will read the results.', TOOLS);
    expectNoCall('Write <search_files query="x"> to search.', TOOLS);
    expect(read('<search_files class="big">').calls).toEqual([]);
  });
});

describe("a tool's name and its arguments as attributes inside a `<tool_call>`", () => {
  test('self-closing, after words, never closed: the call; an attribute repeating the name is no argument', () => {
    expectReadAs('I will look into it.<tool_call>exec tool="exec" command="ls -la /tmp" />', TOOLS, [{ name: 'exec', arguments: { command: 'ls -la /tmp' } }], 'I will look into it.');
    expect(read('<tool_call>exec command="ls" />\n</tool_call>').calls).toEqual([{ name: 'exec', arguments: { command: 'ls' } }]);
  });

  test('a name no tool has gives no call, and words after the tag leave it unread', () => {
    expect(read('<tool_call>rm command="ls" /></tool_call>').calls).toEqual([]);
    expect(read('<tool_call>exec command="ls" /> and then more</tool_call>').calls).toEqual([]);
  });
});

describe("a parameter's closing tag misspelled", () => {
  test('before the next parameter or the function\'s end: the value ends before it', () => {
    expectReadAs('<tool_call>\n<function=robot_control>\n<parameter=action>\nrotate left\n</parametr>\n<parameter=angle>\n40.0\n</paramter>\n</function>\n</tool_call>', TOOLS, [
      { name: 'robot_control', arguments: { action: 'rotate left', angle: 40 } },
    ], '');
  });

  test('a closing tag inside a value stays in it', () => {
    expect(read('<function=exec>\n<parameter=command>\necho "</param>" > a.html\n</parameter>\n</function>').calls).toEqual([{ name: 'exec', arguments: { command: 'echo "</param>" > a.html' } }]);
  });
});

describe('a call object written by a chat template', () => {
  test('a `$` before its keys (`"$function"`, Granite 3.3): the call', () => {
    expect(read('{"tool_calls": [{"$function": "get_day"}]}').calls).toEqual([{ name: 'get_day', arguments: {} }]);
    expect(read('{"$name": "exec", "$arguments": {"command": "ls"}}').calls).toEqual([{ name: 'exec', arguments: { command: 'ls' } }]);
  });

  test('a chat message written as JSON, its call in `tool_calls`: hidden by the stream filter as the parser reads it', () => {
    expectReadAs('{"role": "assistant", "content": "Checking.", "tool_calls": [{"function": {"name": "get_day", "arguments": "{}"}}]}', TOOLS, [{ name: 'get_day', arguments: {} }], '');
  });

  test('a chat message with no call is shown as written', () => {
    expectNoCall('{"role": "assistant", "content": "The day is Monday."}', TOOLS);
  });
});
