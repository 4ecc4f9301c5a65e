/**
 * Where the families added from the pending held-out outputs stop: the same shapes written as
 * prose, code or quotes are never calls and never failures, and a line that starts as a call of an
 * offered tool but gives none is a failure for the repair turn, never a silent vanish. Parser and
 * streaming filter agree in every chunking (the corpus covers the calls themselves).
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { streamThrough } from '../../support/stream-through';

const TOOLS = ['get_weather', 'search', 'add', 'final_answer'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const SIZES = [1, 3, 7, 10_000];

/** Outputs that hold no call and try none: the parser leaves them whole, the filter shows them whole. */
const PROSE: [string, string][] = [
  ['a readable call line between paragraphs', 'You could look it up like this:\nsearch(query="rice")\nbut I already know the answer: boil it.'],
  ['a call-like line with words after it', 'search(it\'s fine) is how I would do it.\nMore text here.'],
  ['a plain assignment', 'x = foo(y=1)'],
  ['print of something that is no tool', 'Run this:\nprint("hello")'],
  ['a tool named in a sentence at a line start', 'The add tool adds numbers.\nadd is useful for sums.'],
  ['a Python prompt in prose', 'In the REPL type >>> print(1) and press enter; a > b >> c.'],
  ['Functionary markers in a block quote', 'The log shows:\n\n> >>>get_weather\n> {"location": "Rome"}\n\nThat was another model.'],
  ['InternLM tokens named in inline code', 'It writes `<|action_start|><|plugin|>` before the JSON and `<|action_end|>` after it.'],
  ['a Hermes call quoted after words on its line', 'The page says <tool_call>{"name": "search", "arguments": {"query": "x"}}</tool_call> and nothing more.'],
  ['a bracketed placeholder inside a sentence', 'The history shows [tool_call: search(query="x")] where the call was.'],
  ['a bracketed placeholder with words after it', '[tool_call: search] is how the client marks a call.'],
  ['a functionCall part inside a sentence', 'The response holds {"functionCall": {"name": "search", "args": {"query": "x"}}} for the client to run.'],
];

describe('shapes of the new families written as prose', () => {
  test.each(PROSE)('%s: no call, no failure, shown whole', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect({ calls: result.calls, failures: result.failures, text: squash(result.text) }).toEqual({ calls: [], failures: [], text: squash(text) });
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: squash(text) });
  });
});

/** Lines standing as a call of an offered tool would, that give no call: a failure, hidden from the user. */
const FAILED: [string, string, string, string][] = [
  ['arguments in words, between paragraphs', 'Let me search.\nsearch(how to cook rice)\nThen I will answer.', 'unparsable', 'Let me search.\n\nThen I will answer.'],
  // Cut after a whole value instead (`search(query="rice"`), only its `)` is missing: the call (round40-families.test.ts).
  ['a call cut at the end inside a value', 'Searching now.\nsearch(query="ri', 'cut_off', 'Searching now.'],
  ['a Python name as the argument', 'result = 6 * 7\nfinal_answer(result)', 'unparsable', 'result = 6 * 7'],
  ['JSON that is no object after name{', 'Checking.\nget_weather{Paris}', 'unparsable', 'Checking.'],
  ['a bracketed placeholder without arguments', 'Searching.\n[tool_call: search]', 'unparsable', 'Searching.'],
];

describe('a line that starts as a call but gives none', () => {
  test.each(FAILED)('%s is a failure naming the tool, and hidden', (_name, text, problem, prose) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => ({ problem: f.problem, named: TOOLS.includes(f.name ?? '') }))).toEqual([{ problem, named: true }]);
    expect(squash(result.text)).toBe(squash(prose));
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: squash(prose) });
  });
});

describe('calls that end the reply after prose', () => {
  test.each([
    ['name({…})', 'I will add them.\nadd({"x": 5, "y": 3})', { name: 'add', arguments: { x: 5, y: 3 } }],
    ['name{…}, its token stripped', 'Checking.\nget_weather{"city": "Paris"}', { name: 'get_weather', arguments: { city: 'Paris' } }],
    ['a namespaced keyword call', 'Checking.\ndefault_api.get_weather(city="Paris")', { name: 'get_weather', arguments: { city: 'Paris' } }],
    ['a wrapper closing tag left after bare JSON', 'Sure.\n{"name": "add", "arguments": {"x": 1}}\n</tool_call>', { name: 'add', arguments: { x: 1 } }],
    ['<tool_call> with words glued after it', '<tool_call>{"name": "search", "arguments": {"query": "x"}}</tool_call>Done.', { name: 'search', arguments: { query: 'x' } }],
  ])('%s is the call, and only the prose is shown', (_name, text, call) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([call]);
    expect(result.failures).toEqual([]);
    const prose = squash(result.text);
    expect(prose).not.toMatch(/[{}<>]/);
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: prose });
  });

  test('the same name(…) line followed by more prose is an example, not a call', () => {
    const text = 'I will add them.\nadd({"x": 5, "y": 3})\nThat is how the tool is called.';
    const result = parseToolCalls(text, TOOLS);
    expect({ calls: result.calls, failures: result.failures }).toEqual({ calls: [], failures: [] });
    for (const size of SIZES) expect(squash(streamThrough(text, TOOLS, size))).toBe(squash(text));
  });
});

describe('unescaped quotes inside a JSON string', () => {
  test('are repaired where each quote has one reading', () => {
    const result = parseToolCalls('<tool_call>{"name": "search", "arguments": {"query": "the "best" rice"}}</tool_call>', TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'the "best" rice' } }]);
  });

  test('are not guessed where a quote could end the value: the call fails instead', () => {
    const result = parseToolCalls('<tool_call>{"name": "search", "arguments": {"query": "say "yes", then "no""}}</tool_call>', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['unparsable']);
  });
});
