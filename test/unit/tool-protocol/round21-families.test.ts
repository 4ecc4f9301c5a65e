/**
 * Where the fixes from the twenty-first held-out round stop: a call cut inside a tag it had begun; arguments written as
 * elements inside `<function=…>`; GPT-OSS addressing a dispatcher that the call's own JSON names past; call JSON in a
 * fence labelled with another language; code presented as an updated version, with prose after it; JSON strings joined
 * with `+`; Command R+'s `Action:` line before an unlabelled fence, in the stream filter.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'bash', parameters: object({ command: { type: 'string' } }) },
  { name: 'fs.list', parameters: object({ path: { type: 'string' } }) },
  { name: 'device_get_context', parameters: object({}) },
  { name: 'write_file', parameters: object({ path: { type: 'string' }, content: { type: 'string' } }) },
  { name: 'get_weather', parameters: object({ location: { type: 'string' } }) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => [f.problem, f.name]);

test('a call cut inside a tag it had begun (`<parameter=`): cut off, never run without its arguments', () => {
  for (const text of ['<tool_call>\n<function=bash>\n<parameter=', '<function=bash>\n<parameter=comm', '<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n<param']) {
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['cut_off', 'bash']]);
  }
  // Cut before the function's tag was finished: cut off, its name never written.
  expectReadAs('<tool_call>\n<func', TOOLS, [], '');
  expect(failuresOf('<tool_call>\n<func')).toEqual([['cut_off', undefined]]);
});

describe('arguments as elements inside <function=…>', () => {
  test('each named as the tool declares it: the call', () => {
    expectReadAs('<tool_call>\n<function=fs.list>\n<path>.</path>\n</function>', TOOLS, [{ name: 'fs.list', arguments: { path: '.' } }], '');
  });

  test('an element the tool does not declare: no call run on it', () => {
    const text = '<tool_call>\n<function=fs.list>\n<folder>.</folder>\n</function>\n</tool_call>';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
    expect(failuresOf(text)).toEqual([['unparsable', 'fs.list']]);
  });
});

describe('GPT-OSS addressing a dispatcher', () => {
  test('whose message is a whole call of an offered tool: that call', () => {
    expectReadAs('<|channel|>commentary to=tool_use <|constrain|>json<|message|>{"name":"device_get_context","arguments":{}}<|call|>', TOOLS, [{ name: 'device_get_context', arguments: {} }], '');
  });

  test('whose message names no offered tool: an unknown tool', () => {
    const text = '<|channel|>commentary to=tool_use <|constrain|>json<|message|>{"name":"launch","arguments":{}}<|call|>';
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['unknown_tool', 'tool_use']]);
  });
});

describe('call JSON in a fence labelled with another language', () => {
  test("a numbered plan with each call in a ```lua fence, the last never closed: the calls", () => {
    const text = 'Here are the steps:\n\n1. Look:\n\n```lua\n[{"name": "bash", "arguments": {"command": "ls"}}]\n```\n\n2. Check the weather:\n\n```lua\n[{"name": "get_weather", "arguments": {"location": "Oslo"}}]';
    expectReadAs(text, TOOLS, [
      { name: 'bash', arguments: { command: 'ls' } },
      { name: 'get_weather', arguments: { location: 'Oslo' } },
    ], 'Here are the steps: 1. Look: 2. Check the weather:');
  });

  test('code in that language, or JSON that names no tool, is code', () => {
    expectNoCall('Run this:\n\n```lua\nprint({name = "bash"})\n```', TOOLS);
    expectNoCall('The config:\n\n```yaml\n{"name": "release", "arguments": {"tag": "v1"}}\n```', TOOLS);
  });
});

test('calls presented as an updated version, with prose after them: an example', () => {
  expectNoCall('The script failed because of its path.\n\nHere is an updated version of the code:\n\n```\n{"name": "bash", "parameters": {"command": "chmod +x /home/user/run.sh"}}\n{"name": "bash", "parameters": {"command": "/home/user/run.sh"}}\n```\n\nThis way the script exists before it runs.', TOOLS);
});

test('the same lead ending the reply with the calls: the calls, as after a repair turn', () => {
  expectReadAs('Here is the corrected version:\n\n```json\n{"name": "bash", "arguments": {"command": "ls"}}\n```', TOOLS, [{ name: 'bash', arguments: { command: 'ls' } }], 'Here is the corrected version:');
});

test('JSON strings joined with `+`: one string', () => {
  const text = '{"name": "write_file", "parameters": {"path": "/tmp/a.sh", "content": "echo a\\n" +\n"echo b\\n"}}\n{"name": "bash", "parameters": {"command": "sh /tmp/a.sh"}}';
  expectReadAs(text, TOOLS, [
    { name: 'write_file', arguments: { path: '/tmp/a.sh', content: 'echo a\necho b\n' } },
    { name: 'bash', arguments: { command: 'sh /tmp/a.sh' } },
  ], '');
});

test("Command R+'s `Action:` line before an unlabelled fence: hidden with the call as it streams, and the turn ends there", () => {
  expectReadAs('Action:\n```\n{\n  "action": "get_weather",\n  "action_input": {"location": "London"}\n}\n```\nObservation:', TOOLS, [{ name: 'get_weather', arguments: { location: 'London' } }], '');
});
