/**
 * Where the fixes from the twenty-fourth held-out round stop: a call list whose call object lacks its own closing brace
 * before the list's `]` (Mistral 7B in Ollama's raw mode); a string with a garbled `\u` escape, which no repair reads;
 * a bare JSON call list the reply ended inside, a cut-off failure like a lone call object; and a Python call list opening
 * with a quote it never closes (Llama 3.1 8B in BFCL).
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'get_current_weather', parameters: object({ location: { type: 'string' }, format: { type: 'string' } }, ['location']) },
  { name: 'create_file', parameters: object({ filename: { type: 'string' }, content: { type: 'string' } }, ['filename', 'content']) },
  { name: 'uber.ride', parameters: object({ loc: { type: 'string' }, type: { type: 'string' }, time: { type: 'integer' } }, ['loc']) },
];

describe('a closing brace too few before an outer closer', () => {
  test("Mistral's Python-quoted call list, the call object left open before ']': the call", () => {
    expectReadAs("[TOOL_CALLS] [{'name': 'get_current_weather', 'arguments': {'location': 'Paris, France', 'format': 'celsius'}]", TOOLS, [
      { name: 'get_current_weather', arguments: { location: 'Paris, France', format: 'celsius' } },
    ], '');
  });

  test('a bare call object one brace short, then a list closer that opens nothing: no call runs', () => {
    expect(parseToolCalls('{"name": "get_current_weather", "arguments": {"location": "Paris"]', TOOLS).calls).toEqual([]);
  });

  test('a brace written once too often is still dropped', () => {
    expect(parseToolCalls('[{"name": "get_current_weather", "arguments": {"location": "Oslo"}}}]', TOOLS).calls).toEqual([
      { name: 'get_current_weather', arguments: { location: 'Oslo' } },
    ]);
  });
});

describe('a garbled \\u escape', () => {
  test('three hex digits then a backslash: the call cannot be read, never run with the escapes as text', () => {
    const result = parseToolCalls('[{"name":"create_file","arguments":{"filename":"a.txt","content":"\\u0938\\u09f\\u0942"}}]', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['unparsable', 'create_file']]);
  });

  test('a Windows path with \\users in it is no escape: the call, the backslashes kept', () => {
    expect(parseToolCalls('{"name": "create_file", "arguments": {"filename": "C:\\users\\me\\a.txt", "content": "x"}}', TOOLS).calls).toEqual([
      { name: 'create_file', arguments: { filename: 'C:\\users\\me\\a.txt', content: 'x' } },
    ]);
  });

  test('an escaped backslash before u09f is text, not an escape: the call', () => {
    expect(parseToolCalls('{"name": "create_file", "arguments": {"filename": "a\\\\u09f", "content": "x"}}', TOOLS).calls).toEqual([
      { name: 'create_file', arguments: { filename: 'a\\u09f', content: 'x' } },
    ]);
  });
});

describe('a bare call list the reply ended inside', () => {
  test('cut inside the content string: cut off, the JSON hidden', () => {
    const result = parseToolCalls(' [{"name":"create_file","arguments":{"filename":"a.txt","content":"\\u093d\\u03b1 and then', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'create_file']]);
  });
});

describe('a Python call list opening with a stray quote', () => {
  test("['name(…)] with the quote never closed: the call", () => {
    expectReadAs("['uber.ride(loc=\"123 Main St, Berkeley\", type=\"plus\", time=10)]", TOOLS, [
      { name: 'uber.ride', arguments: { loc: '123 Main St, Berkeley', type: 'plus', time: 10 } },
    ], '');
  });

  test('a list of quoted strings, one naming a call in a sentence: prose', () => {
    expect(parseToolCalls("['uber.ride(', 'a taxi']", TOOLS).calls).toEqual([]);
  });
});
