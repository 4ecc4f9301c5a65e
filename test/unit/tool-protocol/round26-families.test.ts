/**
 * Where the fixes from the twenty-sixth held-out round stop: words in an earlier call's arguments (`data/sample.csv`) are
 * no lead presenting the next call as an example; Llama's `<function=…>` with a stray `>` after its JSON, or a comma
 * after its name; a call's name left unquoted in its JSON; and arguments given as a string of JSON whose quotes were
 * never escaped.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'list_files', parameters: object({}) },
  { name: 'move_file', parameters: object({ path: { type: 'string' }, destination: { type: 'string' } }, ['path', 'destination']) },
  { name: 'search_files', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'get_stock_price', parameters: object({ symbol: { type: 'string' } }, ['symbol']) },
  { name: 'read_rss_feed', parameters: object({ feed: { type: 'string' } }, ['feed']) },
  { name: 'multiply', parameters: object({ a: { type: 'number' }, b: { type: 'number' } }) },
];
const wrap = (json: string) => `<tool_call>\n${json}\n</tool_call>`;

describe("an earlier call's arguments before a call", () => {
  test.each(['data/sample.csv', 'an example.txt', 'template.md'])('holding %s: every call runs', (path) => {
    const output = [wrap(`{"name": "move_file", "arguments": {"path": "${path}", "destination": "archive/"}}`), wrap('{"name": "list_files"}'), wrap('{"name": "search_files", "arguments": {"query": "old"}}')].join('\n');
    expectReadAs(output, TOOLS, [
      { name: 'move_file', arguments: { path, destination: 'archive/' } },
      { name: 'list_files', arguments: {} },
      { name: 'search_files', arguments: { query: 'old' } },
    ], '');
  });

  test('bare JSON calls, one per line, the first holding "for example": both run', () => {
    expectReadAs('{"name": "search_files", "arguments": {"query": "for example"}}\n{"name": "list_files", "arguments": {}}\nDone.', TOOLS, [
      { name: 'search_files', arguments: { query: 'for example' } },
      { name: 'list_files', arguments: {} },
    ], 'Done.');
  });

  test('prose presenting an example before a call between paragraphs: still the example', () => {
    expectNoCall('For example:\n{"name": "list_files", "arguments": {}}\nThat is the format.', TOOLS);
  });
});

describe("Llama's <function=…> on Groq", () => {
  test('a stray > after the JSON, before </function>: the calls', () => {
    expectReadAs('<function=search_files>{"query": "Vinfast"}</function>\n<function=get_stock_price>{"symbol": "VFS"}></function>', TOOLS, [
      { name: 'search_files', arguments: { query: 'Vinfast' } },
      { name: 'get_stock_price', arguments: { symbol: 'VFS' } },
    ], '');
  });

  test('a comma between the name and its JSON: the call', () => {
    expectReadAs('<function=get_stock_price,{"symbol": "VFS"}</function>', TOOLS, [{ name: 'get_stock_price', arguments: { symbol: 'VFS' } }], '');
  });
});

describe("a call's JSON with its name unquoted (qwen2.5-coder)", () => {
  test('an offered tool: the call', () => {
    expectReadAs('{"name": read_rss_feed, "arguments": {"feed": "https://example.com/feed.xml"}}', TOOLS, [
      { name: 'read_rss_feed', arguments: { feed: 'https://example.com/feed.xml' } },
    ], '');
  });

  test('an argument left unquoted stays unreadable: no call on a guessed string', () => {
    const result = parseToolCalls('{"name": "read_rss_feed", "arguments": {"feed": broken}}', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['unparsable']);
  });

  test('a name no tool has: no call', () => {
    expect(parseToolCalls('{"name": delete_everything, "arguments": {}}', TOOLS).calls).toEqual([]);
  });
});

describe('arguments as a string of JSON whose quotes were never escaped (Apple on-device, apfel)', () => {
  test('inside OpenAI-style tool_calls: the call', () => {
    expectReadAs('{"tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "multiply", "arguments": "{"a": 1234, "b": 5678}"}}]}', TOOLS, [
      { name: 'multiply', arguments: { a: 1234, b: 5678 } },
    ], '');
  });

  test('arguments escaped as they should be keep their reading', () => {
    expect(parseToolCalls('{"name": "multiply", "arguments": "{\\"a\\": 2, \\"b\\": 3}"}', TOOLS).calls).toEqual([{ name: 'multiply', arguments: { a: 2, b: 3 } }]);
  });

  test('an object that does not close right before the quote: no call', () => {
    expect(parseToolCalls('{"name": "multiply", "arguments": "{"a": 1} and more"}', TOOLS).calls).toEqual([]);
  });
});
