/**
 * Where the shapes added from the tenth held-out round stop: Kimi K3's XTML (typed argument
 * elements or a JSON block, its reasoning and response markers), Kimi K2's call lines whose opening
 * tokens a gateway stripped, Home Assistant's `<functioncall {…}>`, a call key written with a blank
 * (`" arguments"`), and Gemma 4's reasoning closed by a lone `<channel|>`.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { describeCallShapes } from '../../support/family-shapes';
import { CHUNK_SIZES as SIZES, expectNoCall, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [{ name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } }];

const XTML_TYPED =
  '<|open|>tools<|sep|><|open|>call tool="search" index="1"<|sep|><|open|>argument key="query" type="string"<|sep|>rice<|close|>argument<|sep|><|open|>argument key="limit" type="number"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';
const XTML_JSON = '<|open|>tools<|sep|><|open|>call tool="search" index="1"<|sep|><|open|>json type="object"<|sep|>{"query": "rice", "limit": 3}<|close|>json<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';

const SHAPES: [string, string][] = [
  ['Kimi K3 XTML with typed arguments', XTML_TYPED],
  ['Kimi K3 XTML with a JSON block', XTML_JSON],
  ['Kimi K2 call line without its opening tokens', 'search:0<|tool_call_argument_begin|>{"query": "rice", "limit": 3}<|tool_calls_section_end|>'],
  ["Home Assistant's functioncall tag", '<functioncall {"name": "search", "arguments": {"query": "rice", "limit": 3}}>'],
  ['a call key written with a blank', '<tool_call>\n{"name": "search", " arguments": {"query": "rice", "limit": 3}}\n</tool_call>'],
];

describeCallShapes(SHAPES, TOOLS, ['search', { query: 'rice', limit: 3 }], ['Kimi K3 XTML with typed arguments', 'Kimi K3 XTML with a JSON block']);

describe("Kimi K3's reply around its calls", () => {
  const shows = (text: string, want: string) => {
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: want });
  };

  test('reasoning and the response markers are not text; the response is', () => {
    const text = `<|open|>think<|sep|>The user wants rice.<|close|>think<|sep|><|open|>response<|sep|>On it.<|close|>response<|sep|>${XTML_TYPED}<|close|>message<|sep|>`;
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'rice', limit: 3 } }]);
    expect(squash(result.text)).toBe('On it.');
    shows(text, 'On it.');
  });

  test('reasoning the template opened ends at its lone closer', () => {
    const text = 'check the shelf first<|close|>think<|sep|><|open|>response<|sep|>Rice is in aisle 4.<|close|>response<|sep|><|close|>message<|sep|>';
    expect(squash(expectNoCall(text, TOOLS).text)).toBe('Rice is in aisle 4.');
    shows(text, 'Rice is in aisle 4.');
  });

  test('a plain reply keeps its words and loses its closing markers', () => {
    const text = 'hello<|close|>response<|sep|><|close|>message<|sep|>';
    expect(expectNoCall(text, TOOLS).text).toBe('hello');
    shows(text, 'hello');
  });

  test('a string argument keeps its text as written; the tool name reads its entities', () => {
    const tools = [{ name: 'a&b', parameters: { type: 'object', properties: { note: { type: 'string' } } } }];
    const text = '<|open|>call tool="a&amp;b" index="1"<|sep|><|open|>argument key="note" type="string"<|sep|> 42 <|close|>argument<|sep|><|close|>call<|sep|>';
    expect(parseToolCalls(text, tools).calls).toEqual([{ name: 'a&b', arguments: { note: ' 42 ' } }]);
  });

  test.each([
    ['inside an argument', '<|open|>tools<|sep|><|open|>call tool="search" index="1"<|sep|><|open|>argument key="query" type="string"<|sep|>ri'],
    ['inside a JSON block', '<|open|>tools<|sep|><|open|>call tool="search" index="1"<|sep|><|open|>json type="object"<|sep|>{"query": "ri'],
  ])('a call the reply ended %s is a cut-off failure, hidden', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
    shows(text, '');
  });
});

describe("Kimi K2's call lines without their opening tokens", () => {
  test('two lines are two calls, in order, hidden', () => {
    const text = 'search:0<|tool_call_argument_begin|>{"query": "rice"}<|tool_calls_section_end|>\nsearch:1<|tool_call_argument_begin|>{"query": "beans"}<|tool_calls_section_end|>';
    expect(parseToolCalls(text, TOOLS).calls.map((c) => c.arguments.query)).toEqual(['rice', 'beans']);
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: '' });
  });

  test('a line cut inside its JSON is a cut-off failure', () => {
    const result = parseToolCalls('search:0<|tool_call_argument_begin|>{"query": "ri', TOOLS);
    expect(result.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('a word that only begins like a tool name and an id is shown as it comes', () => {
    const text = 'search:0 is what the log line says.';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
    for (const size of SIZES) expect({ size, shown: streamThrough(text, TOOLS, size) }).toEqual({ size, shown: text });
  });
});

describe("Gemma 4's reasoning closed by a lone <channel|>", () => {
  test('what came before it was reasoning, what follows is the answer', () => {
    const text = 'thought\nThe user repeats their name. Do not greet again.<channel|>Got it, Nick. What is on your mind?';
    expect(expectNoCall(text, TOOLS).text).toBe('Got it, Nick. What is on your mind?');
    for (const size of SIZES) expect({ size, shown: squash(streamThrough(text, TOOLS, size)) }).toEqual({ size, shown: 'Got it, Nick. What is on your mind?' });
  });
});
