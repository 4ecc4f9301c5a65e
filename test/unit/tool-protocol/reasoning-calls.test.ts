/**
 * A `<tool_call>` block on its own line inside `<think>` ends the reasoning there and is a call, as
 * Ollama's Qwen3/Qwen3.5 parsers and vllm-mlx's reasoning parser read it (Qwen3.5 often opens its
 * call before closing its reasoning). The reasoning around it stays hidden; a mention inside a
 * sentence or in inline code stays reasoning; other reasoning forms are not carved.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { streamThrough } from '../../support/stream-through';

const TOOLS = ['click', 'read_page', 'search'];
const CHUNKS = [1, 3, 7, 64];

describe('a call inside reasoning', () => {
  test.each([
    ['closed reasoning, the answer after it', '<think>I should look.\n<tool_call>\n{"name": "search", "arguments": {"q": "kettle"}}\n</tool_call>\n</think>\nSearching now.', 'Searching now.'],
    ['reasoning that never closes', '<think>Checking.\n<tool_call>\n<function=search>\n<parameter=q>kettle</parameter>\n</function>\n</tool_call>\n', ''],
    ['<thinking> and a call right after the opener', '<thinking><tool_call>{"name": "search", "arguments": {"q": "kettle"}}</tool_call>\nMore thought.</thinking>\nOK.', 'OK.'],
  ])('%s: the call runs, no reasoning or markup is shown', (_name, output, text) => {
    const result = parseToolCalls(output, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { q: 'kettle' } }]);
    expect(result.text.trim()).toBe(text);
    for (const size of CHUNKS) expect(streamThrough(output, TOOLS, size).trim()).toBe(text);
  });

  test('two calls with reasoning between them are both read, in order', () => {
    const output = '<think>First the page.\n<tool_call>\n{"name": "read_page", "arguments": {}}\n</tool_call>\nThen the search.\n<tool_call>\n{"name": "search", "arguments": {"q": "x"}}\n</tool_call>\n</think>\n';
    expect(parseToolCalls(output, TOOLS).calls.map((c) => c.name)).toEqual(['read_page', 'search']);
  });

  test.each([
    ['inside a sentence', '<think>The model should use <tool_call>{"name": "click", "arguments": {"id": 9}}</tool_call> here, I think.</think>\nNo action.'],
    ['in inline code', '<think>The syntax is\n`<tool_call>{"name": "click", "arguments": {"id": 9}}</tool_call>`</think>\nNo action.'],
    ['in a fence', '<think>The syntax is\n```\n<tool_call>{"name": "click", "arguments": {"id": 9}}</tool_call>\n```\n</think>\nNo action.'],
    ['in another reasoning form', '<seed:think>\n<tool_call>{"name": "click", "arguments": {"id": 9}}</tool_call>\n</seed:think>\nNo action.'],
  ])('a call %s stays reasoning: no call, nothing of it shown', (_name, output) => {
    const result = parseToolCalls(output, TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.text.trim()).toBe('No action.');
    for (const size of CHUNKS) expect(streamThrough(output, TOOLS, size).trim()).toBe('No action.');
  });

  test('a call that </think> cuts is not run: its value may be cut', () => {
    const result = parseToolCalls('<think>Let me click.\n<tool_call>\n{"name": "click", "arguments": {"id": 9\n</think>\n', TOOLS);
    expect(result.calls).toEqual([]);
  });

});
