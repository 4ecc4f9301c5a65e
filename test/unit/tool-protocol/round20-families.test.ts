/**
 * Where the fixes from the twentieth held-out round stop: DeepSeek V4's attributed call tag in a fine-tune's special-token
 * pipes; JSON whose braces were all copied doubled from a prompt; Qwen3's `<tool_call>` opened inside reasoning the
 * template opened, closed or not before `</think>`; Gemma's tool code keeping a call's result in a name; a Python call's
 * positional arguments, named by the schema; a JSON call whose one key holds an object the tool does not declare.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'bash', parameters: object({ cmd: { type: 'string' } }) },
  { name: 'read_file', parameters: object({ path: { type: 'string' } }) },
  { name: 'convert', parameters: object({ amount: { type: 'number' }, currency: { type: 'string' }, new_currency: { type: 'string' } }) },
  { name: 'book_flight', parameters: object({ flight: { type: 'string' } }) },
];
const failuresOf = (text: string) => parseToolCalls(text, TOOLS).failures.map((f) => [f.problem, f.name]);

describe("an attributed call tag in a special token's pipes", () => {
  test('between lines of prose: the call, the prose kept', () => {
    expectReadAs('Let me check the directory.\n<|tool_call name="bash">{"cmd": "pwd"}</tool_call|>\nDone.', TOOLS, [{ name: 'bash', arguments: { cmd: 'pwd' } }], 'Let me check the directory. Done.');
  });

  test("with single quotes, closed by the pipe token's own close", () => {
    expectReadAs("<|tool_call name='bash'>{\"cmd\": \"ls\"}<|/tool_call|>", TOOLS, [{ name: 'bash', arguments: { cmd: 'ls' } }], '');
  });

  test('quoted inside a sentence: prose', () => {
    expectNoCall('The fine-tune writes <|tool_call name="bash">{"cmd": "pwd"}</tool_call|> in its replies, which we parse.', TOOLS);
  });
});

describe('braces all written twice', () => {
  test("calls copied from a prompt's escaped example: the calls", () => {
    expectReadAs('<function=bash>{{"cmd": "pwd"}}</function>\n<function=read_file>{{"path": "a.txt"}}</function>', TOOLS, [
      { name: 'bash', arguments: { cmd: 'pwd' } },
      { name: 'read_file', arguments: { path: 'a.txt' } },
    ], '');
  });

  test('a doubled brace inside a string stays', () => {
    expectReadAs('<tool_call>\n{{"name": "bash", "arguments": {{"cmd": "echo {{x}}"}}}}\n</tool_call>', TOOLS, [{ name: 'bash', arguments: { cmd: 'echo {{x}}' } }], '');
  });
});

describe('a <tool_call> opened in reasoning the template opened', () => {
  const call = '{"name": "read_file", "arguments": {"path": "test.py"}}';

  test('left open and ended by </think>: the call, and the words after the reasoning shown', () => {
    expectReadAs(`ated\n\n<tool_call>\n${call}\n</think>\n\nThe file holds one function.`, TOOLS, [{ name: 'read_file', arguments: { path: 'test.py' } }], 'The file holds one function.');
  });

  test('closed before </think>: the call', () => {
    expectReadAs(`The user wants the file.\n<tool_call>\n${call}\n</tool_call>\n</think>\n\nReading it now.`, TOOLS, [{ name: 'read_file', arguments: { path: 'test.py' } }], 'Reading it now.');
  });

  test('in a <think> block, left open: the call ends at </think>', () => {
    expectReadAs(`<think>The user wants the file.\n<tool_call>\n${call}\n</think>\n\nReading it now.`, TOOLS, [{ name: 'read_file', arguments: { path: 'test.py' } }], 'Reading it now.');
  });

  test('mentioned inside a sentence of the reasoning: no call, the reasoning hidden', () => {
    expectReadAs('I could write <tool_call> here, but no.\n</think>\n\nNo tool is needed.', TOOLS, [], 'No tool is needed.');
  });
});

describe("Gemma's tool code keeping a call's result in a name", () => {
  test('assigned, then printed: the call', () => {
    expectReadAs("I will read it.\n\n```tool_code\nsummary = read_file(path='notes.txt')\nprint(summary)\n```", TOOLS, [{ name: 'read_file', arguments: { path: 'notes.txt' } }], 'I will read it.');
  });

  test('a fence of other code that assigns is code', () => {
    expectNoCall('Here is how:\n\n```python\ncount = len(items)\nprint(count)\n```', TOOLS);
  });

  test('an assignment after prose that presents an example is no call', () => {
    expectNoCall("For example, you could write:\n\n```tool_code\nsummary = read_file(path='notes.txt')\nprint(summary)\n```\n\nand then use it.", TOOLS);
  });
});

describe("a Python call's positional arguments", () => {
  test("named by the schema's order, before keywords", () => {
    expectReadAs("Now to USD.\n\n```tool_code\nprint(convert(425.0, 'EUR', new_currency='USD'))\n```", TOOLS, [{ name: 'convert', arguments: { amount: 425, currency: 'EUR', new_currency: 'USD' } }], 'Now to USD.');
  });

  test('the first parameters take them, as Python binds them; one also given by keyword is an unparsable failure', () => {
    expect(parseToolCalls("[convert(200, new_currency='EUR')]", TOOLS).calls).toEqual([{ name: 'convert', arguments: { amount: 200, new_currency: 'EUR' } }]);
    expect(parseToolCalls("[convert(200, 'EUR', amount=5)]", TOOLS).calls).toEqual([]);
    expect(failuresOf("[convert(200, 'EUR', amount=5)]")).toEqual([['unparsable', 'convert']]);
  });

  test('more than the tool declares: an unparsable failure, no call', () => {
    const text = "[bash('ls', 'pwd')]";
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['unparsable', 'bash']]);
  });

  test('a positional argument after a keyword, or a name where a value belongs: no call', () => {
    expect(parseToolCalls("[convert(amount=200, 'EUR')]", TOOLS).calls).toEqual([]);
    expect(parseToolCalls('[convert(total, currency="EUR")]', TOOLS).calls).toEqual([]);
  });
});

describe('a JSON call whose one key holds an object the tool does not declare', () => {
  test('after calls in a run: the calls, and an unparsable failure for it', () => {
    const text = '[{"name": "bash", "arguments": {"cmd": "ls"}}], [{"name": "book_flight", "if": {"condition": "$.price < 20", "then": "$.flight"}}]';
    expectReadAs(text, TOOLS, [{ name: 'bash', arguments: { cmd: 'ls' } }], '');
    expect(failuresOf(text)).toEqual([['unparsable', 'book_flight']]);
  });

  test('alone: no call run on a guess, an unparsable failure', () => {
    const text = '[{"name": "book_flight", "if": {"condition": "$.price < 20"}}]';
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['unparsable', 'book_flight']]);
  });

  test('quoted in a sentence: prose', () => {
    expectNoCall('The model wrote [{"name": "book_flight", "if": {"condition": "x"}}] which we cannot run.', TOOLS);
  });
});

describe('what the stream filter showed that the parser hid', () => {
  test("FunctionGemma's response opener ending the reply after its call: the call, nothing shown", () => {
    expectReadAs('<start_function_call>call:bash{cmd:<escape>pwd<escape>}<end_function_call><start_function_response>', TOOLS, [{ name: 'bash', arguments: { cmd: 'pwd' } }], '');
  });

  test('a closing tag written twice after a call that cannot be read: both hidden with the failure', () => {
    const text = '<tool_call> {"name":"bash","arguments":{"cmd":"echo "", "x": "y"}} </tool_call></tool_call>';
    expectReadAs(text, TOOLS, [], '');
    expect(failuresOf(text)).toEqual([['unparsable', 'bash']]);
  });

  test('words glued after a call list opening the reply, in parentheses: the calls hidden, the words shown', () => {
    expectReadAs('[bash(cmd="pwd")](bash)', TOOLS, [{ name: 'bash', arguments: { cmd: 'pwd' } }], '(bash)');
  });
});

test("Llama's `<function=name` running into a list whose `]` never came: the call", () => {
  expectReadAs('<function=bash [{"cmd": "pwd"} </function>', TOOLS, [{ name: 'bash', arguments: { cmd: 'pwd' } }], '');
  expectReadAs('<function=bash [{"cmd": "pwd"}]</function>', TOOLS, [{ name: 'bash', arguments: { cmd: 'pwd' } }], '');
});
