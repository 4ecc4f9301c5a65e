/**
 * Where the shapes added from the seventeenth held-out round stop: Gemma 4's string tokens written with
 * typographic quotes, `key=`, triple-quoted strings and typographic quotes, its outer brace missing before
 * the end token, and its bare call followed by that token; Qwen-Agent's older `[FUNCTION]`/`[ARGS]`; bare
 * words for addresses in Python calls; an MCP client's `<server>`/`<tool>`/`<arguments>` elements, with
 * `</arguments>` never written; a doubled quote before a key; `<function=…>` closed by `</tool_call>`;
 * a JSON call cut off at the end after others.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'provide_answer', parameters: object({ answer: { type: 'string' }, sources: { type: 'array', items: object({ path: { type: 'string' } }) } }) },
  { name: 'get_current_weather', parameters: object({ location: { type: 'string' }, unit: { type: 'string' } }) },
  { name: 'find_user_id_by_email', parameters: object({ email: { type: 'string' } }) },
  { name: 'edit_file', parameters: object({ path: { type: 'string' }, dryRun: { type: 'boolean' } }) },
  { name: 'add_node', parameters: object({ type: { type: 'string' } }) },
  { name: 'browser_get_state', parameters: object({ include_screenshot: { type: 'boolean' } }) },
  { name: 'run', parameters: object({ command: { type: 'string' } }) },
];
const answer = (text: string) => ({ name: 'provide_answer', arguments: { answer: text, sources: [{ path: '/a' }] } });
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => [f.problem, f.name]);

describe('Gemma 4 strings and braces as small checkpoints write them', () => {
  test.each([
    ['its string token in typographic quotes', '<|tool_call>call:provide_answer{answer:<|“|>It runs the turn.<|”|>,sources:[{path:<|"|>/a<|"|>}]}<tool_call|>', 'It runs the turn.'],
    ['strings in typographic quotes', '<|tool_call>call:provide_answer{answer:<|"|>It runs.<|"|>,sources:[{path: “/a”}]}<tool_call|>', 'It runs.'],
    ['`key=` for the first key', '<|tool_call>call:provide_answer{answer="It runs.",sources:[{path:"/a"}]}<tool_call|>', 'It runs.'],
    ['a triple-quoted string', '<|tool_call>call:provide_answer{answer:"""# Title\n\nIt runs.""",sources:[{path:"/a"}]}<tool_call|>', '# Title\n\nIt runs.'],
    ['the outer brace missing before the end token', '<|tool_call>call:provide_answer{answer:<|"|>It runs.<|"|>,sources:[{path: "/a"}]<tool_call|>', 'It runs.'],
    ['a bare call followed by the end token', 'call:provide_answer{answer:<|"|>It runs.<|"|>,sources:[{path:<|"|>/a<|"|>}]}<tool_call|>', 'It runs.'],
  ])('%s: the call, hidden', (_name, text, said) => {
    expectReadAs(text, TOOLS, [answer(said)], '');
  });

  test('a last value that may be cut, before the end token: not completed', () => {
    expect(parseToolCalls('<|tool_call>call:provide_answer{answer:<|"|>It runs.<|"|>,sources:[{path: /a<tool_call|>', TOOLS).calls).toEqual([]);
  });
});

describe("Qwen-Agent's bracketed markers", () => {
  test('[FUNCTION] and [ARGS] starting their lines: the call, hidden', () => {
    expectReadAs(' [FUNCTION] get_current_weather\n[ARGS] {"location": "Paris", "unit": "celsius"}', TOOLS, [{ name: 'get_current_weather', arguments: { location: 'Paris', unit: 'celsius' } }], '');
  });

  test('[FUNCTION] after words on its line: prose', () => {
    const text = 'The template writes [FUNCTION] get_current_weather\n[ARGS] {"location": "Paris"} for a call.';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
  });
});

test('an address as a bare word in a Python call: the string as written', () => {
  expectReadAs('[find_user_id_by_email(email=john.doe@example.com)]', TOOLS, [{ name: 'find_user_id_by_email', arguments: { email: 'john.doe@example.com' } }], '');
});

describe("an MCP client's server, tool and arguments elements in a wrapper", () => {
  test.each([
    ['closed', '<tool_call>\n<server>filesystem</server>\n<tool>edit_file</tool>\n<arguments>{"path": "a.ini", "dryRun": false}</arguments>\n</tool_call>'],
    ['`</arguments>` never written before the wrapper closes', '<tool_call>\n<server>filesystem</server>\n<tool>edit_file</tool>\n<arguments>{"path": "a.ini", "dryRun": false}\n</tool_call>'],
  ])('%s: the call, hidden', (_name, text) => {
    expectReadAs(text, TOOLS, [{ name: 'edit_file', arguments: { path: 'a.ini', dryRun: false } }], '');
  });

  test('the reply ending inside the arguments: cut off', () => {
    expect(failuresOf('<tool_call>\n<tool>edit_file</tool>\n<arguments>{"path": "a.')).toEqual([['cut_off', 'edit_file']]);
  });
});

test('a doubled quote before a key: the call', () => {
  expectReadAs('{"name":"add_node",""parameters":{"type":"Button"}}', TOOLS, [{ name: 'add_node', arguments: { type: 'Button' } }], '');
});

test('<function=…> closed by the wrapper\'s </tool_call>, its parameter never closed: the call, and the words after it', () => {
  expectReadAs('<function=browser_get_state> <parameter=include_screenshot> True   </tool_call>\nDone.', TOOLS, [{ name: 'browser_get_state', arguments: { include_screenshot: true } }], 'Done.');
});

test('a JSON call cut off at the end of the reply after a complete one: the call and a cut_off failure, both hidden', () => {
  const text = '{"name": "run", "arguments": {"command": "ls"}}\n\n{"name": "run", "arguments": {"command": "python b';
  expectReadAs(text, TOOLS, [{ name: 'run', arguments: { command: 'ls' } }], '');
  expect(failuresOf(text)).toEqual([['cut_off', 'run']]);
});
