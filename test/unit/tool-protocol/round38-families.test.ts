/**
 * Where the fixes from the thirty-eighth held-out round stop: a list wrapper inside a call wrapper (`<tool_call>` around
 * `<function_calls>`); MiniCPM5's parameter values on lines of their own; GPT-OSS's header with other words before the
 * recipient; Hunyuan 3's call ended right after its separator, or holding words where its arguments go; a ReAct input in a
 * fence or in backticks.
 */
import { parseCutReply } from '../../../src/background/llm/tool-protocol/cut-reply';
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const TOOLS = [
  { name: 'sum_of_multiples', parameters: object({ lower_limit: { type: 'integer' }, multiples: { type: 'array', items: { type: 'integer' } } }, ['lower_limit']) },
  { name: 'product_of_primes', parameters: object({ count: { type: 'integer' } }, ['count']) },
  { name: 'get_weather', parameters: object({ city: { type: 'string' } }, ['city']) },
  { name: 'write_file', parameters: object({ path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']) },
  { name: 'search', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'list_files', parameters: object({ dir: { type: 'string' } }) },
  { name: 'python_repl_ast', parameters: object({ query: { type: 'string' } }, ['query']) },
  { name: 'hello', parameters: object({ Hello: { type: 'string' } }, ['Hello']) },
];
const read = (text: string) => {
  const r = parseToolCalls(text, TOOLS);
  return { calls: r.calls, failures: r.failures.map((f) => [f.problem, f.name]) };
};

describe('a list wrapper inside a call wrapper', () => {
  const SUM = { name: 'sum_of_multiples', arguments: { lower_limit: 1, multiples: [3, 5] } };
  const PRODUCT = { name: 'product_of_primes', arguments: { count: 5 } };
  const call = (name: string, args: string) => `  <function_call>\n    <name>${name}</name>\n    <arguments>\n${args}    </arguments>\n  </function_call>\n`;
  const calls = `${call('sum_of_multiples', '      <arg name="lower_limit" type="int">1</arg>\n      <arg name="multiples" type="array">[3, 5]</arg>\n')}${call('product_of_primes', '      <arg name="count" type="int">5</arg>\n')}`;

  test('`<function_calls>` inside `<tool_call>`: each call, typed by the schema', () => {
    expectReadAs(`I'll compute both.\n<tool_call>\n<function_calls>\n${calls}</function_calls>\n</tool_call>`, TOOLS, [SUM, PRODUCT], "I'll compute both.");
  });

  test('`<tool_calls>` holding JSON calls inside `<tool_call>`', () => {
    expectReadAs('<tool_call>\n<tool_calls>\n{"name": "product_of_primes", "arguments": {"count": 5}}\n</tool_calls>\n</tool_call>', TOOLS, [PRODUCT], '');
  });

  test('a list left open when the reply ends after whole calls: the calls', () => {
    expect(read(`<tool_call>\n<function_calls>\n${calls}`).calls).toEqual([SUM, PRODUCT]);
  });

  test('lists nested in lists many times over: read without unwrapping each in turn', () => {
    const depth = 20_000;
    const deep = `<tool_call>${'<tool_calls>'.repeat(depth)}{"name": "product_of_primes", "arguments": {"count": 5}}${'</tool_calls>'.repeat(depth)}</tool_call>`;
    expect(() => read(deep)).not.toThrow();
  });
});

describe("MiniCPM5's parameter values", () => {
  test('on lines of their own: the line breaks around them are layout', () => {
    expectReadAs('<function name="get_weather"><param name="city">\nBeijing\n</param></function>', TOOLS, [{ name: 'get_weather', arguments: { city: 'Beijing' } }], '');
  });

  test('a value of several lines keeps the line breaks inside it, and its indentation', () => {
    const content = 'def f():\n    return 1\n';
    expect(read(`<function name="write_file"><param name="path">a.py</param><param name="content">\n${content}</param></function>`).calls).toEqual([
      { name: 'write_file', arguments: { path: 'a.py', content: 'def f():\n    return 1' } },
    ]);
  });

  test('inside a sentence, words on both sides on its line: prose', () => {
    expectNoCall('Let me check the weather. <function name="get_weather"><param name="city">Paris</param></function> Done.', TOOLS);
  });
});

describe("GPT-OSS's header with other words before the recipient", () => {
  test('in the commentary channel: the call the recipient names, hidden', () => {
    expectReadAs('<|channel|>commentary  ANYTHING IN BETWEEN to=functions.hello<|message|>{"Hello": "world!"}<|call|>', TOOLS, [{ name: 'hello', arguments: { Hello: 'world!' } }], '');
  });

  test('with a constraint after the recipient, after a preamble', () => {
    expectReadAs('<|channel|>commentary<|message|>Looking it up.<|end|><|start|>assistant<|channel|>commentary json to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>', TOOLS, [{ name: 'get_weather', arguments: { city: 'Oslo' } }], 'Looking it up.');
  });

  test('a recipient glued to a word is no recipient, and a header without one no call', () => {
    expect(read('<|channel|>commentary json xto=functions.hello<|message|>{"Hello": "world!"}<|call|>').calls).toEqual([]);
    expect(read('<|channel|>commentary json<|message|>{"Hello": "world!"}<|call|>').calls).toEqual([]);
  });
});

describe("Hunyuan 3's calls", () => {
  const open = '<tool_calls:opensource>\n<tool_call:opensource>';
  test('ended right after the separator: cut off for a tool that requires arguments, a call for one that requires none', () => {
    expect(read(`${open}search<tool_sep:opensource>\n`)).toEqual({ calls: [], failures: [['cut_off', 'search']] });
    expect(read(`${open}list_files<tool_sep:opensource>\n`)).toEqual({ calls: [{ name: 'list_files', arguments: {} }], failures: [] });
  });

  test('ended by the token limit right after the separator: cut off whatever the tool requires', () => {
    expect(parseCutReply(`${open}list_files<tool_sep:opensource>\n`, TOOLS).failures).toEqual([expect.objectContaining({ problem: 'cut_off', name: 'list_files' })]);
  });

  test('words where the arguments go: unreadable when closed, cut off when the reply ends in them', () => {
    expect(read(`${open}search<tool_sep:opensource>\nthe weather in Oslo\n</tool_call:opensource>\n</tool_calls:opensource>`)).toEqual({ calls: [], failures: [['unparsable', 'search']] });
    expect(read(`${open}search<tool_sep:opensource>\n<arg_key:opensource>query</arg_key:opensource>`)).toEqual({ calls: [], failures: [['cut_off', 'search']] });
  });

  test('a call with no arguments, closed, between two words: the call', () => {
    expectReadAs(`before${open}list_files<tool_sep:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>after`, TOOLS, [{ name: 'list_files', arguments: {} }], 'before after');
  });
});

describe('a ReAct input in a fence or in backticks', () => {
  const code = "rows = df[df['x'] > 1]\nprint(len(rows))";
  const RUN = { name: 'python_repl_ast', arguments: { query: code } };
  test.each([
    ['a python fence on the next line', `Action Input: \n\`\`\`python\n${code}\n\`\`\``],
    ['a fence on the label line', `Action Input: \`\`\`python\n${code}\n\`\`\``],
    ['a fence without a language, then the model running on', `Action Input:\n\`\`\`\n${code}\n\`\`\`\nObservation: 3`],
    ['a tilde fence', `Action Input:\n~~~py\n${code}\n~~~`],
  ])('%s: the code inside it', (_name, input) => {
    expectReadAs(`Thought: I count the rows.\nAction: python_repl_ast\n${input}`, TOOLS, [RUN], 'Thought: I count the rows.');
  });

  test('a JSON fence: the arguments it holds', () => {
    expect(read('Thought: x\nAction: search\nAction Input: ```json\n{"query": "weather in Oslo"}\n```').calls).toEqual([{ name: 'search', arguments: { query: 'weather in Oslo' } }]);
  });

  test('a JSON fence the reply ends inside: cut off where a value was cut, the call where only closers are missing', () => {
    expect(read('Thought: x\nAction: search\nAction Input: ```json\n{"query": "weather in')).toEqual({ calls: [], failures: [['cut_off', 'search']] });
    expect(read('Thought: x\nAction: search\nAction Input: ```json\n{"query": "weather in Oslo"')).toEqual({ calls: [{ name: 'search', arguments: { query: 'weather in Oslo' } }], failures: [] });
  });

  test('inline code around the whole input: its content; backticks inside the input stay', () => {
    expect(read('Action: python_repl_ast\nAction Input: `print(1)`').calls).toEqual([{ name: 'python_repl_ast', arguments: { query: 'print(1)' } }]);
    expect(read('Action: search\nAction Input: what does `ls` do').calls).toEqual([{ name: 'search', arguments: { query: 'what does `ls` do' } }]);
  });

  test('a fence after other words on the input line is the input as written', () => {
    expect(read('Action: search\nAction Input: see ```x```').calls).toEqual([{ name: 'search', arguments: { query: 'see ```x```' } }]);
  });
});
