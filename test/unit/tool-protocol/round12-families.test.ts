/**
 * Where the shapes added from the twelfth held-out round stop: Llama's `<function=name` running into its
 * JSON without `>` (Groq's rejected generations), a call cut right after its name or before its arguments
 * (never run), a DeepSeek DSML invoke whose block tokens were dropped, and calls one per line after
 * `<|python_tag|>`.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const TOOLS = [
  { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
];

const expectRead = (text: string, calls: unknown[], shown: string) => expectReadAs(text, TOOLS, calls, shown);

describe("Llama's <function=name running into its JSON", () => {
  test.each([
    ['a blank instead of >, the > after the JSON', '<function=read_file {"path": "slugify.py"}></function>'],
    ['no blank, the > after the JSON', '<function=read_file{"path": "slugify.py"}></function>'],
    ['no > at all', '<function=read_file {"path": "slugify.py"} </function>'],
  ])('%s: the call, hidden', (_name, text) => {
    expectRead(text, [{ name: 'read_file', arguments: { path: 'slugify.py' } }], '');
  });
});

describe('a call cut before its arguments', () => {
  test.each([
    ['right after the name in JSON', 'Let me look.\n<tool_call>\n{"name": "search"'],
    ["at Kimi's call id", 'Let me look.\n<|tool_calls_section_begin|><|tool_call_begin|>functions.search:0'],
  ])('%s: a cut-off failure, nothing run', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'search']]);
  });

  test('a complete call of a tool without arguments still runs', () => {
    expect(parseToolCalls('<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>', TOOLS).calls).toEqual([{ name: 'search', arguments: {} }]);
  });
});

test('a DSML invoke whose block tokens were dropped is a call wherever it stands, hidden', () => {
  expectRead('Direct invoke <｜DSML｜invoke name="search"><｜DSML｜parameter name="query" string="true">rice</｜DSML｜parameter></｜DSML｜invoke>', [{ name: 'search', arguments: { query: 'rice' } }], 'Direct invoke');
});

describe('calls one per line after <|python_tag|>', () => {
  test('each line is a call', () => {
    expectRead('<|python_tag|>search(query="a")\nread_file(path="b.txt")', [{ name: 'search', arguments: { query: 'a' } }, { name: 'read_file', arguments: { path: 'b.txt' } }], '');
  });

  test('code over several lines stays code for the interpreter, no call', () => {
    const result = parseToolCalls('<|python_tag|>x = 1\nprint(x)', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => f.problem)).toEqual(['unknown_tool']);
  });
});
