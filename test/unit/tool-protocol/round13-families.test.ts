/**
 * Where the shapes added from the thirteenth held-out round stop: Python calls back to back opening the
 * reply (NexusRaven's `f(a=1); f(a=2);`, Gemma's call and then its words, or its call written again
 * below), a Llama 3 header token left before a call, calls drafted inside reasoning before the real one,
 * a tool's definition echoed from the prompt, a name written exactly as offered, Mistral's token with
 * words after its list, and a wrapper holding arguments without a function's name.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, streamThrough, CHUNK_SIZES, squash } from '../../support/stream-through';

const TOOLS = [
  { name: 'factorial', parameters: { type: 'object', properties: { number: { type: 'integer' } } } },
  { name: 'math.gcd', parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } } },
  { name: 'read_file', description: 'Reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];

const expectRead = (text: string, calls: unknown[], shown: string) => expectReadAs(text, TOOLS, calls, shown);
const fact = (number: number) => ({ name: 'factorial', arguments: { number } });

describe('Python calls opening the reply', () => {
  test.each([
    ['three separated by semicolons', 'factorial(number=5); factorial(number=7); factorial(number=9);', [fact(5), fact(7), fact(9)]],
    ['one ending in a semicolon', 'factorial(number=5);', [fact(5)]],
    ['a dotted name, blanks around the semicolon', 'math.gcd(a=4, b=6) ;factorial(number=3)', [{ name: 'math.gcd', arguments: { a: 4, b: 6 } }, fact(3)]],
  ])('%s: the calls, hidden', (_name, text, calls) => {
    expectRead(text, calls, '');
  });

  test('the call on its line, then what it does: the call, and the words shown', () => {
    expectRead('factorial(number=5)\n\nThe above code calls factorial with 5.', [fact(5)], 'The above code calls factorial with 5.');
  });

  test('the call written again below in a fenced list counts once, and neither is shown', () => {
    const text = 'factorial(number=5)\n\nOutput:\n\n```python\n[factorial(number=5)]\n```';
    expectRead(text, [fact(5)], 'Output:');
  });

  test('a different call below is a call of its own', () => {
    const result = parseToolCalls('factorial(number=5)\n\nThen:\n\n```python\n[factorial(number=6)]\n```', TOOLS);
    expect(result.calls).toEqual([fact(5), fact(6)]);
  });

  test.each([
    ['words follow the call on its line', 'factorial(number=5) gives 120.'],
    ['one call of the run names no offered tool', 'factorial(number=5); delete_all(now=True)'],
    ['the last call never closes', 'factorial(number=5); factorial(number='],
    ['a call after a sentence on its line', 'You could run factorial(number=5)'],
  ])('%s: no call', (_name, text) => {
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
  });
});

describe("Llama 3's header token left before the reply", () => {
  test.each([
    ['alone, before a Python call', '<|start_header_id|>math.gcd(a=4, b=6)'],
    ['with its role, before a Python call', '<|start_header_id|>assistant<|end_header_id|>\n\nmath.gcd(a=4, b=6)'],
  ])('%s: the call, the token hidden', (_name, text) => {
    expectRead(text, [{ name: 'math.gcd', arguments: { a: 4, b: 6 } }], '');
  });

  test('before words: the token goes, the words stay, and a word starting like the role is kept whole', () => {
    expectRead('<|start_header_id|>assist me later', [], 'assist me later');
    expectRead('<|start_header_id|>assistant<|end_header_id|>\n\nHello there.', [], 'Hello there.');
  });
});

describe('calls drafted inside reasoning', () => {
  test('a call after the reasoning is the call; the drafts inside are reasoning', () => {
    const text = '<think>\nMaybe this:\n<tool_call>{"name": "factorial", "arguments": {"number": 1}}</tool_call>\n</think>\n<tool_call>{"name": "factorial", "arguments": {"number": 5}}</tool_call>';
    expectRead(text, [fact(5)], '');
  });

  test('with no call after the reasoning, the call inside it runs (Qwen3 closing its reasoning late)', () => {
    const text = '<think>\nI will compute it.\n<tool_call>{"name": "factorial", "arguments": {"number": 5}}</tool_call>\n</think>\nComputing.';
    expectRead(text, [fact(5)], 'Computing.');
  });
});

describe("a tool's definition echoed from the prompt", () => {
  test('in <tools>, before the real call: only the call runs', () => {
    const text = '<tools>\n{"type": "function", "function": {"name": "read_file", "description": "Reads a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}}\n</tools>\n{"name": "read_file", "arguments": {"path": "a.ts"}}';
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'read_file', arguments: { path: 'a.ts' } }]);
    expect(result.failures).toEqual([]);
  });

  test('alone: no call', () => {
    expectNoCall('{"name": "read_file", "description": "Reads a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}', TOOLS);
  });

  test('a call whose arguments hold a description is still a call', () => {
    const tools = [{ name: 'create_issue', parameters: { type: 'object', properties: { title: { type: 'string' }, description: { type: 'string' } } } }];
    const text = '{"name": "create_issue", "parameters": {"title": "Bug", "description": "It breaks"}}';
    expect(parseToolCalls(text, tools).calls).toEqual([{ name: 'create_issue', arguments: { title: 'Bug', description: 'It breaks' } }]);
  });
});

test('a name written exactly as offered is that tool, where another differs only by - or _', () => {
  const tools = ['web_search', 'web-search'];
  expect(parseToolCalls('<tool_call>{"name": "web_search", "arguments": {}}</tool_call>', tools).calls).toEqual([{ name: 'web_search', arguments: {} }]);
  expect(parseToolCalls('<tool_call>{"name": "web-search", "arguments": {}}</tool_call>', tools).calls).toEqual([{ name: 'web-search', arguments: {} }]);
  expect(parseToolCalls('<tool_call>{"name": "Web_Search", "arguments": {}}</tool_call>', tools).calls).toHaveLength(1);
});

describe("Mistral's [TOOL_CALLS] with words after its list", () => {
  test('a closed list of calls between sentences: the calls, the words kept', () => {
    expectRead('I will call it now. [TOOL_CALLS] [{"name": "factorial", "arguments": {"number": 5}}] Done.', [fact(5)], 'I will call it now. Done.');
  });

  test('the token named in a sentence is prose', () => {
    expectNoCall('Mistral writes [TOOL_CALLS] before its calls.', TOOLS);
  });
});

test.each([
  ['Qwen3-Coder parameters without <function=…>', '<tool_call>\n<parameter=number>5</parameter>\n</tool_call>'],
  ["GLM's argument pairs without a name", '<tool_call>\n<arg_key>number</arg_key>\n<arg_value>5</arg_value>\n</tool_call>'],
])('%s: an unparsable call, nothing run, the markup hidden', (_name, text) => {
  const result = parseToolCalls(text, TOOLS);
  expect(result.calls).toEqual([]);
  expect(result.failures.map((f) => f.problem)).toEqual(['unparsable']);
  for (const size of CHUNK_SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: '' });
});

test('a Python-literal list of call dicts with single quotes is hidden while it streams', () => {
  expectRead("[{'name': 'factorial', 'arguments': {'number': 5}}, {'name': 'factorial', 'arguments': {'number': 7}}]", [fact(5), fact(7)], '');
});
