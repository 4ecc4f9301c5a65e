/**
 * Where the shapes added from the eighteenth held-out round stop: FunctionGemma going on to invent the tool's
 * response (it ran past its stop: the response and what it writes after it, up to its next call, are hidden as
 * reasoning is) and writing its response opener before a call by mistake; words that
 * look like an example lead inside reasoning (hidden, they present nothing); Gemma 4 keys in its string
 * token; a call's JSON after an inner `<tool>` tag in a wrapper.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'jm_cd', parameters: object({ pipeline_id: { type: 'string' } }) },
  { name: 'configure_pkg', parameters: object({ pkg_id: { type: 'string' } }) },
  { name: 'read_file', parameters: object({ path: { type: 'string' } }) },
  { name: 'web.search', parameters: object({ query: { type: 'string' } }) },
];
const cd = { name: 'jm_cd', arguments: { pipeline_id: 'b2' } };
const CD = '<start_function_call>call:jm_cd{pipeline_id:<escape>b2<escape>}<end_function_call>';
const RESPONSE = '<start_function_response>response:jm_cd{value:<escape>ok<escape>}<end_function_response>';

describe("FunctionGemma's tool response, invented after its call", () => {
  test.each([
    ['then words built on it', `${CD}${RESPONSE}\nDone.`, [cd], ''],
    ['after reasoning, then more reasoning and words', `<think>Switch.</think>${CD}${RESPONSE}<think>Complete.</think>\nDone.`, [cd], ''],
    ['then another call', `Let me switch.${CD}${RESPONSE}\nNow configure it.${CD}`, [cd, cd], 'Let me switch.'],
    ['never closed', `${CD}<start_function_response>response:jm_cd{value:<escape>o`, [cd], ''],
    [
      'its opener written before a second call by mistake',
      `${CD}<start_function_response>call:configure_pkg{pkg_id:<escape>ior<escape>}<end_function_call>${RESPONSE}`,
      [cd, { name: 'configure_pkg', arguments: { pkg_id: 'ior' } }],
      '',
    ],
  ])('%s: the calls, the response and what follows it hidden', (_name, text, calls, shown) => {
    expectReadAs(text, TOOLS, calls, shown);
  });
});

test('words that would present an example, inside the reasoning before a call: the call', () => {
  const text = '<think>The user wants the summit template; this matches jm_cd.</think>' + CD;
  expectReadAs(text, TOOLS, [cd], '');
});

test('the same words shown before a call in the middle of the reply: an example, as before', () => {
  const text = 'This template shows it:\n' + CD + '\nThat is the shape.';
  expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
});

test("a Gemma 4 key in its string token: the call", () => {
  expectReadAs('<|tool_call>call:read_file{<|"|>path<|"|>: <|"|>/a.py<|"|>}<tool_call|>', TOOLS, [{ name: 'read_file', arguments: { path: '/a.py' } }], '');
});

describe("a call's JSON after an inner tag in the wrapper", () => {
  test.each([
    ['never closed', '<tool_call>\n<tool>\n{"name": "web.search", "args": {"query": "uk pm"}}\n</tool_call>'],
    ['closed', '<tool_call><tool>{"name": "web.search", "args": {"query": "uk pm"}}</tool></tool_call>'],
  ])('%s: the call, hidden', (_name, text) => {
    expectReadAs(text, TOOLS, [{ name: 'web.search', arguments: { query: 'uk pm' } }], '');
  });
});
