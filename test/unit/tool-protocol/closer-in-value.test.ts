/**
 * A wrapper's closing marker written inside an argument value (a JSON string, a GLM value, Kimi's
 * argument JSON) and Llama's python-tag JSON calls followed by prose: the parser and the streaming
 * filter end the call at the same place, in every chunking, and markup quoted as an example stays
 * text. (The corpus holds the real outputs; these are the variants each rule turns on.)
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { createToolMarkupFilter } from '../../../src/background/llm/tool-protocol/stream-filter';

const TOOLS = ['fill', 'bash'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

function streamed(text: string, size: number): string {
  const filter = createToolMarkupFilter(TOOLS);
  let shown = '';
  for (let i = 0; i < text.length; i += size) shown += filter.push(text.slice(i, i + size));
  return shown + filter.flush();
}

/** What the parser leaves as text, and what the filter shows in each chunking: the same prose. */
function expectInStep(output: string, text: string) {
  expect(squash(parseToolCalls(output, TOOLS).text)).toBe(squash(text));
  for (const size of [1, 2, 3, 7, 16, output.length]) expect({ size, shown: squash(streamed(output, size)) }).toEqual({ size, shown: squash(text) });
}

describe('a closing marker inside a value', () => {
  test('inside a JSON string: the call runs to the marker after the value, and the prose after it is shown', () => {
    const output = 'Writing the file.\n<tool_call>\n{"name": "fill", "arguments": {"text": "the call ends with </tool_call> on its own line", "id": 3}}\n</tool_call>\nDone.';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'fill', arguments: { text: 'the call ends with </tool_call> on its own line', id: 3 } }]);
    expectInStep(output, 'Writing the file.\nDone.');
  });

  test('inside a GLM value: the value keeps the marker', () => {
    const output = '<tool_call>fill<arg_key>text</arg_key><arg_value>before </tool_call> after</arg_value></tool_call>\ntail';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'fill', arguments: { text: 'before </tool_call> after' } }]);
    expectInStep(output, 'tail');
  });

  test('inside a Qwen3-Coder parameter: a file written with the marker in it keeps all its text', () => {
    const output = 'Writing it.\n<tool_call>\n<function=fill>\n<parameter=text>\nA tool call block ends with </tool_call> on its own.\n</parameter>\n</function>\n</tool_call>\nWritten.';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'fill', arguments: { text: 'A tool call block ends with </tool_call> on its own.' } }]);
    expectInStep(output, 'Writing it.\nWritten.');
  });

  test('inside Kimi arguments: the section ends at its last end token', () => {
    const output = '<|tool_calls_section_begin|><|tool_call_begin|>functions.fill:0<|tool_call_argument_begin|>{"text": "a <|tool_calls_section_end|> b"}<|tool_call_end|><|tool_calls_section_end|>\nNext.';
    expect(parseToolCalls(output, TOOLS).calls).toEqual([{ name: 'fill', arguments: { text: 'a <|tool_calls_section_end|> b' } }]);
    expectInStep(output, 'Next.');
  });

  test('a value that never closes: the first marker ends the call, and what follows is shown', () => {
    const output = '<tool_call>{"name": "fill", "arguments": {"text": "a </tool_call>\nThe rest.';
    expect(parseToolCalls(output, TOOLS).failures.map((f) => f.problem)).toEqual(['unparsable']);
    expectInStep(output, 'The rest.');
  });

  test('quoted as an example, or in a block quote: all of it stays text', () => {
    for (const output of [
      'Here is an example:\n<tool_call>{"name": "bash", "arguments": {"cmd": "x </tool_call> y"}}</tool_call>\nThat is the shape.',
      '> <tool_call>{"name": "bash", "arguments": {"cmd": "x </tool_call> y"}}</tool_call>\nThat is the shape.',
    ]) {
      expect(parseToolCalls(output, TOOLS).calls).toEqual([]);
      expectInStep(output, output);
    }
  });
});

describe('JSON calls after the python tag, then prose', () => {
  test('prose on the same line or the next is text, the calls are calls', () => {
    for (const [output, text] of [
      ['<|python_tag|>{"name": "bash", "parameters": {"cmd": "ls"}} Done.', 'Done.'],
      ['<|python_tag|>{"name": "bash", "parameters": {"cmd": "ls"}}\nThe listing follows.', 'The listing follows.'],
      ['<|python_tag|>{"name": "bash", "parameters": {"cmd": "ls"}}; <|python_tag|>{"name": "fill", "parameters": {"id": 2}}\nBoth sent.<|eot_id|>', 'Both sent.'],
    ] as const) {
      expect(parseToolCalls(output, TOOLS).calls.map((c) => c.name).length).toBeGreaterThan(0);
      expect(parseToolCalls(output, TOOLS).failures).toEqual([]);
      expectInStep(output, text);
    }
  });

  test('JSON naming no offered tool, or code, is still code for the code interpreter: an unknown tool, nothing shown', () => {
    for (const output of ['<|python_tag|>{"name": "search", "parameters": {"q": "x"}} Done.', '<|python_tag|>import math\nprint(math.pi)']) {
      const result = parseToolCalls(output, TOOLS);
      expect(result.calls).toEqual([]);
      expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['unknown_tool', 'code_interpreter']]);
      expectInStep(output, '');
    }
  });

  test('after prose that presents an example, or in a block quote, it stays text', () => {
    for (const output of ['For example:\n<|python_tag|>{"name": "bash", "parameters": {"cmd": "ls"}} Done.', '> <|python_tag|>{"name": "bash", "parameters": {"cmd": "ls"}} Done.']) {
      expect(parseToolCalls(output, TOOLS).calls).toEqual([]);
      expectInStep(output, output);
    }
  });
});
