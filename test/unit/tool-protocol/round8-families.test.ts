/**
 * Where the shapes added from the eighth held-out round stop: ReAct's `Action:` / `Action Input:`
 * (LangChain, LlamaIndex, crewAI), Llama's `<function=…>` with a stray quote or a paren, an
 * OpenAI-style call whose arguments sit beside its function object, a Kimi call without its
 * argument token, a tool named with a dot for its `__`, and JSON strings holding a Windows path.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { describeCallShapes } from '../../support/family-shapes';
import { CHUNK_SIZES as SIZES, expectNoCall, squash, streamThrough } from '../../support/stream-through';

const TOOLS = [
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  { name: 'files__read', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
];

const SHAPES: [string, string][] = [
  ['ReAct', 'Thought: I should search.\nAction: search\nAction Input: {"query": "rice", "limit": 3}'],
  ['ReAct with a gloss and decoration', 'Action: search (looks things up)\n\nAction Input: ** {"query": "rice", "limit": 3}'],
  ['Llama function tag with a stray quote', '<function=search>{"query": "rice", "limit": 3}"</function>'],
  ['Llama function tag with a paren', '<function=search({"query": "rice", "limit": 3})"</function>'],
  ['arguments beside the function object', '<tool-use>\n{"tool_calls": [{"type": "function", "function": {"name": "search"}, "parameters": {"query": "rice", "limit": 3}}]}\n</tool-use>'],
  ['Kimi call without its argument token', '<|tool_calls_section_begin|> <|tool_call_begin|> functions.search:0 {"query": "rice", "limit": 3} <|tool_call_end|> <|tool_calls_section_end|>'],
];

describeCallShapes(SHAPES.map(([family, shape]) => [family, shape.replace(/^Thought: .*\n/, '')] as [string, string]), TOOLS, ['search', { query: 'rice', limit: 3 }], ['Kimi call without its argument token']);

const shownIn = (text: string) => SIZES.map((size) => squash(streamThrough(text, TOOLS, size)));

describe('ReAct', () => {
  test('the thought stays as prose, the action is the call, and what the model made up after it is never shown', () => {
    const text = 'Thought: I need to search.\nAction: search\nAction Input: {"query": "rice"}\nObservation: Rice is a grain.\nFinal Answer: Rice is a grain.';
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
    expect(squash(result.text)).toBe('Thought: I need to search.');
    expect(shownIn(text)).toEqual(SIZES.map(() => 'Thought: I need to search.'));
  });

  test('an answer without an action, and `Action: None`, are prose', () => {
    expectNoCall('Thought: I know this.\nFinal Answer: Rice is a grain.', TOOLS);
    expectNoCall('Thought: No tool helps here.\nAction: None', TOOLS);
  });

  test('a pretty-printed input is read whole; an input cut inside a value is a cut-off failure', () => {
    expect(parseToolCalls('Action: search\nAction Input: {\n  "query": "rice",\n  "limit": 3\n}', TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'rice', limit: 3 } }]);
    const cut = parseToolCalls('Action: search\nAction Input: {"query": "ri', TOOLS);
    expect(cut.calls).toEqual([]);
    expect(cut.failures.map((f) => f.problem)).toEqual(['cut_off']);
  });

  test('an action naming a tool nobody offered is an unknown-tool failure, never run', () => {
    const result = parseToolCalls('Action: delete_all\nAction Input: {}', TOOLS);
    expect(result.calls).toEqual([]);
    expect(result.failures).toMatchObject([{ problem: 'unknown_tool', name: 'delete_all' }]);
  });
});

describe('names and strings', () => {
  test('a tool named with a dot where its name has `__` is that tool', () => {
    expect(parseToolCalls('<tool_call>{"name": "files.read", "arguments": {"path": "a.txt"}}</tool_call>', TOOLS).calls).toEqual([{ name: 'files__read', arguments: { path: 'a.txt' } }]);
  });

  test('a Windows path with backslashes JSON cannot escape keeps them; valid escapes keep their meaning', () => {
    const result = parseToolCalls('<tool_call>{"name": "files__read", "arguments": {"path": "C:\\Users\\eve\\programs\\a.txt"}}</tool_call>', TOOLS);
    expect(result.calls).toEqual([{ name: 'files__read', arguments: { path: 'C:\\Users\\eve\\programs\\a.txt' } }]);
    expect(parseToolCalls('<tool_call>{"name": "search", "arguments": {"query": "a\\tb \\u00e9"}}</tool_call>', TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'a\tb é' } }]);
  });

  test('a stray quote is read only right after the object and before the closer', () => {
    expectNoCall('Use <function=search>{"query": "x"}"</function> like that.', TOOLS);
  });
});

describe('tokens a template leaves around a call', () => {
  test.each([
    ['an end-of-sequence token ending the reply on its own line (ERNIE 4.5)', '<tool_call>\n{"name": "search", "arguments": {"query": "x"}}\n</tool_call>\n</s>'],
    ["Gemma 4's tool-response opener after its call", '<|tool_call>call:search{query:<|"|>x<|"|>}<tool_call|><|tool_response>'],
    ["Phi-4's leaked assistant header before a sentence and its call", '<|/tool_call|><|assistant|>Calling it now.\n\n[{"name": "search", "arguments": {"query": "x"}}]'],
  ])('%s: hidden with the call, in every chunking', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'search', arguments: { query: 'x' } }]);
    const prose = squash(result.text);
    expect(prose).not.toMatch(/<\/s>|<\|/);
    expect(shownIn(text)).toEqual(SIZES.map(() => prose));
  });

  test('an end-of-sequence token with words after it on a later line stays', () => {
    const text = 'Struck: <s>old</s>\n</s> is how HTML ends it.';
    expect(squash(expectNoCall(text, TOOLS).text)).toBe(squash(text));
  });

  test("a stray closer of MiniMax's reasoning ends the reasoning the template opened", () => {
    const text = 'Thinking it over.</mm:think>Hello.';
    expect(parseToolCalls(text, TOOLS).text).toBe('Hello.');
    expect(shownIn(text)).toEqual(SIZES.map(() => 'Hello.'));
  });
});
