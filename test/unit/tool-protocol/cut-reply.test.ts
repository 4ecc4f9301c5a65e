/**
 * A reply the token limit ended: a call it left open is cut off, not run with what the limit left of it; a call it closed
 * runs, whatever its format, and so does a call read from the whole reply (in bold, in inline code). The same replies
 * ended by a stop sequence are read as before: the parser closes what was left open.
 */
import { parseCutReply } from '../../../src/background/llm/tool-protocol/cut-reply';
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';

const TOOLS = [
  { name: 'fill', parameters: { type: 'object', properties: { id: { type: 'integer' }, text: { type: 'string' } }, required: ['id', 'text'] } },
  { name: 'click', parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
];
const CLICK = { name: 'click', arguments: { id: 3 } };
const FILL = { name: 'fill', arguments: { id: 1, text: 'Dear Ada' } };

describe('a call the limit left open', () => {
  test.each([
    ['a Hermes call short of its braces and tag', '<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "Dear Ada"}'],
    ['a bare JSON call short of its last brace', '{"name": "fill", "arguments": {"id": 1, "text": "Dear Ada"}'],
    ['a pythonic list short of its bracket', '[fill(id=1, text="Dear Ada")'],
    ['a ReAct JSON input short of its brace', 'Thought: I fill it in.\nAction: fill\nAction Input: {"id": 1, "text": "Dear Ada"'],
    ['a Mistral list short of its brackets', '[TOOL_CALLS] [{"name": "fill", "arguments": {"id": 1, "text": "Dear Ada"}'],
  ])('%s is cut off', (_name, reply) => {
    // Ended by a stop sequence, the parser closes it and runs it.
    expect(parseToolCalls(reply, TOOLS).calls).toEqual([FILL]);
    const cut = parseCutReply(reply, TOOLS);
    expect(cut.calls).toEqual([]);
    expect(cut.failures).toEqual([expect.objectContaining({ problem: 'cut_off', name: 'fill', raw: expect.stringContaining('Dear Ada') })]);
  });

  test('a LangChain tool input left open is cut off: its value may have gone on', () => {
    const tools = [{ name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }];
    const open = '<tool>search</tool>\n<tool_input>weather in Par';
    expect(parseToolCalls(open, tools).calls).toEqual([{ name: 'search', arguments: { query: 'weather in Par' } }]);
    expect(parseCutReply(open, tools)).toMatchObject({ calls: [], failures: [{ problem: 'cut_off', name: 'search' }] });
  });

  test('a closed call before the open one runs; the open one is cut off', () => {
    const reply = '<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>\n<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "Dear Ada"}';
    const cut = parseCutReply(reply, TOOLS);
    expect(cut.calls).toEqual([CLICK]);
    expect(cut.raw).toEqual(['<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>']);
    expect(cut.failures).toEqual([expect.objectContaining({ problem: 'cut_off', name: 'fill' })]);
  });

  test('a value already cut inside stays one failure, not two', () => {
    const reply = '<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "Dear A';
    expect(parseCutReply(reply, TOOLS)).toEqual(parseToolCalls(reply, TOOLS));
    expect(parseCutReply(reply, TOOLS).failures).toEqual([expect.objectContaining({ problem: 'cut_off' })]);
  });
});

describe('a call the reply closed before the limit', () => {
  test.each([
    ['a Hermes block', '<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>'],
    ['a Hermes block and its end token', '<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call><|im_end|>'],
    ['a bare JSON call', '{"name": "click", "arguments": {"id": 3}}'],
    ['a JSON fence', 'Clicking.\n```json\n{"name": "click", "arguments": {"id": 3}}\n```'],
    ['a Llama python tag', '<|python_tag|>{"name": "click", "parameters": {"id": 3}}'],
    ['a Mistral list', '[TOOL_CALLS][{"name": "click", "arguments": {"id": 3}}]'],
    ['a call in bold', '**click(id=3)**'],
    ['a call in inline code', '`click(id=3)`'],
    ['a Qwen3-Coder function', '<tool_call>\n<function=click>\n<parameter=id>\n3\n</parameter>\n</function>\n</tool_call>'],
    ['an invoke block', '<invoke name="click">\n<parameter name="id">3</parameter>\n</invoke>'],
    ['a call followed by prose the limit cut', '<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>\nThen I will wait for the page to'],
  ])('%s runs', (_name, reply) => {
    const cut = parseCutReply(reply, TOOLS);
    expect(cut.calls).toEqual([CLICK]);
    expect(cut.failures).toEqual([]);
    expect(cut).toEqual(parseToolCalls(reply, TOOLS));
  });

  test('a reply with no call is read as it is', () => {
    const reply = 'The page lists three plans: Free, Pro and Team. The Pro plan costs';
    expect(parseCutReply(reply, TOOLS)).toEqual({ calls: [], text: reply, raw: [], failures: [] });
  });
});
