/**
 * Where the fixes from the thirty-second held-out round stop: `function_name` naming a call; `<function_call>` closed
 * around elements, alone, inside `<function_calls>` or in a fence that is the whole reply, with arguments named by an
 * attribute (`<arg name="…">`); wrappers holding inner wrappers, each a call; DeepSeek V3.2's DSML tokens on only some of
 * its tags; Qwen3-Coder's markup with its `<` or its name's tag mangled (GLM-4.7, Llama 3.1); a special token run into
 * a tool's name; Glimmer's `<|message|>` right after the role header.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash, streamThrough, CHUNK_SIZES } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'get_interviewer_list', parameters: object({ skill: { type: 'string' }, count: { type: 'integer' } }, ['skill']) },
  { name: 'record', parameters: object({ seen: { type: 'array', items: { type: 'string' } }, missed: { type: 'array', items: { type: 'string' } } }) },
  { name: 'get_weather', parameters: object({ city: { type: 'string' } }, ['city']) },
  { name: 'send_message', parameters: object({ recipient: { type: 'string' }, body: { type: 'string' } }, ['recipient', 'body']) },
  { name: 'write_file', parameters: object({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']) },
  { name: 'read', parameters: object({ path: { type: 'string' } }, ['path']) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => f.problem);
const shownIn = (text: string) => CHUNK_SIZES.map((size) => squash(streamThrough(text, TOOLS, size)));
const interviewers = (skill: string, extra = {}) => ({ name: 'get_interviewer_list', arguments: { skill, ...extra } });

describe('`function_name` names a call (a BFCL prompt format, gpt-4o-mini, o3-mini, gpt-5-nano)', () => {
  test('in a fence, in a wrapper as a list, and in a wrapper never closed', () => {
    expectReadAs('```json\n{"function_name": "get_weather", "parameters": {"city": "Hue"}}\n```', TOOLS, [{ name: 'get_weather', arguments: { city: 'Hue' } }], '');
    expectReadAs(
      '<tool_call>[\n  {"function_name": "get_weather", "parameters": {"city": "Hue"}},\n  {"function_name": "get_interviewer_list", "parameters": {"skill": "Go"}}\n]</tool_call>\n\nNote: done.',
      TOOLS,
      [{ name: 'get_weather', arguments: { city: 'Hue' } }, interviewers('Go')],
      'Note: done.',
    );
    expectReadAs('<tool_call>{"function_name": "get_weather", "parameters": {"city": "Hue"}}', TOOLS, [{ name: 'get_weather', arguments: { city: 'Hue' } }], '');
  });

  test('an object whose `function_name` is no offered tool is data', () => {
    expectNoCall('The log has {"function_name": "rm_rf", "parameters": {}} in it.', TOOLS);
  });
});

describe('`<function_call>` around elements, arguments perhaps named by an attribute', () => {
  const call = '<function_call>\n<name>get_interviewer_list</name>\n<arguments>\n<arg name="skill" type="string">Python</arg>\n<arg name="count" type="integer">2</arg>\n</arguments>\n</function_call>';

  test('alone, the arguments typed by the schema', () => {
    expectReadAs(call, TOOLS, [interviewers('Python', { count: 2 })], '');
    expectReadAs('<function_call>\n<name>get_interviewer_list</name>\n<arguments>\n<skill>Java</skill>\n</arguments>\n</function_call>', TOOLS, [interviewers('Java')], '');
  });

  test('several inside `<function_calls>`: each a call, nothing left shown', () => {
    expectReadAs(`<function_calls>\n${call}\n${call.replace('Python', 'Java')}\n</function_calls>`, TOOLS, [interviewers('Python', { count: 2 }), interviewers('Java', { count: 2 })], '');
  });

  test('in an xml fence that is the whole reply; array values from JSON text', () => {
    const fenced = '```xml\n<function_call>\n<name>record</name>\n<arguments>\n<arg name="seen" type="array">[]</arg>\n<arg name="missed" type="array">["what is the weather like"]</arg>\n</arguments>\n</function_call>\n```';
    expectReadAs(fenced, TOOLS, [{ name: 'record', arguments: { seen: [], missed: ['what is the weather like'] } }], '');
    expectReadAs(`\`\`\`xml\n<function_calls>\n${call}\n</function_calls>\n\`\`\``, TOOLS, [interviewers('Python', { count: 2 })], '');
  });

  test('after words presenting it, or holding no call, a fence stays text', () => {
    expectNoCall(`Example:\n\`\`\`xml\n${call}\n\`\`\``, TOOLS);
    expectNoCall('```xml\n<note>hi</note>\n```', TOOLS);
  });

  test("Granite-20B's `<function_call>` before JSON, never closed, still ends at the JSON", () => {
    expectReadAs('<function_call> {"name": "get_weather", "arguments": {"city": "Hue"}}\nDone.', TOOLS, [{ name: 'get_weather', arguments: { city: 'Hue' } }], 'Done.');
    expectNoCall('The <function_call> tag is used.', TOOLS);
  });
});

describe('wrappers holding inner wrappers', () => {
  const inner = (city: string) => `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>`;

  test('every inner call is read (the second was lost before), and the outer tags hidden', () => {
    expectReadAs(`<tool_calls>\n${inner('Hue')}\n${inner('Vinh')}\n</tool_calls>`, TOOLS, [
      { name: 'get_weather', arguments: { city: 'Hue' } },
      { name: 'get_weather', arguments: { city: 'Vinh' } },
    ], '');
  });

  test('the last one cut: the whole ones run, the cut one is a failure, nothing shown', () => {
    const cut = `<tool_calls>\n${inner('Hue')}\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Vi`;
    expect(parseToolCalls(cut, TOOLS).calls).toEqual([{ name: 'get_weather', arguments: { city: 'Hue' } }]);
    expect(failuresOf(cut)).toEqual(['cut_off']);
    expect(shownIn(cut)).toEqual(CHUNK_SIZES.map(() => ''));
  });
});

describe('DeepSeek V3.2 with its DSML token on some tags only (Ollama)', () => {
  test('plain opening tags, DSML parameters and closers: the call', () => {
    const text = '\n\n<function_calls>\n<invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">New York</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>';
    expectReadAs(text, TOOLS, [{ name: 'get_weather', arguments: { city: 'New York' } }], '');
  });
});

describe("Qwen3-Coder's markup mangled (GLM-4.7 and Llama 3.1 given its prompt)", () => {
  const body = '<parameter=recipient>\n민석\n</parameter>\n<parameter=body>\n회의는 3시입니다 <중요>\n</parameter>\n</function>';
  const message = [{ name: 'send_message', arguments: { recipient: '민석', body: '회의는 3시입니다 <중요>' } }];

  test("`function=name>` without its `<`", () => {
    expectReadAs(`<tool_call>function=send_message>\n${body}`, TOOLS, message, '');
  });

  test('the name in a `<function>` element, then named parameters and their values', () => {
    expectReadAs('<tool_call>\n<function>send_message</function>\n<parameter>recipient</parameter>\n민석\n<parameter>body</parameter>\n회의는 3시입니다 <중요>\n</function>\n</tool_call>', TOOLS, message, '');
  });

  test("an offered tool's name on its line, then its arguments as elements, closed by the name's tag", () => {
    expectReadAs('<tool_call>write_file\n<path>fizzbuzz.py</path>\n<content>def f(n):\n    return str(n)\n</content>\n</write_file>', TOOLS, [
      { name: 'write_file', arguments: { path: 'fizzbuzz.py', content: 'def f(n):\n    return str(n)' } },
    ], '');
  });

  test('a name that is no offered tool, then elements, is not that call', () => {
    expect(parseToolCalls('<tool_call>delete_all\n<path>/</path>\n</tool_call>', TOOLS).calls).toEqual([]);
  });
});

describe("Glimmer's special tokens around a call (Ollama's glimmer parser tests)", () => {
  test('a token run into the tool name is no part of it', () => {
    const text = ' to=read<|message|><atem:function_calls>\n<atem:invoke name="read<|message|>">\n<atem:parameter name="path">go.mod</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>';
    expectReadAs(text, TOOLS, [{ name: 'read', arguments: { path: 'go.mod' } }], '');
  });

  test('`<|message|>` right after the role header goes with it, in every chunking', () => {
    const text = ' to=self<|message|>let me look<|eom|><|start|>assistant<|message|><atem:function_calls>\n<atem:invoke name="read">\n<atem:parameter name="path">go.mod</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>';
    expectReadAs(text, TOOLS, [{ name: 'read', arguments: { path: 'go.mod' } }], '');
  });
});
