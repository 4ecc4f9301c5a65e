/**
 * Where the shapes added from the eleventh held-out round stop: ReAct actions back to back (LLaMA-Factory's
 * parallel calls), a closed wrapper starting its line with words after it (Qwen2.5-Coder's `<tools>`),
 * Gemma 4's paren form with `key: value` pairs, GPT-OSS naming its channel again after the recipient,
 * and Mistral's `</s>` ending a reply of prose.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectNoCall, expectReadAs, squash } from '../../support/stream-through';

const TOOLS = [
  { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } },
  { name: 'add', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
];

const expectRead = (text: string, calls: unknown[], shown: string) => expectReadAs(text, TOOLS, calls, shown);

describe('ReAct actions back to back', () => {
  test('each action right after the last input is a call of its own', () => {
    const text = 'Action: search\nAction Input: {"query": "rice"}\nAction: add\nAction Input: {"a": 1, "b": 2}';
    expectRead(text, [{ name: 'search', arguments: { query: 'rice' } }, { name: 'add', arguments: { a: 1, b: 2 } }], '');
  });

  test('an action after a made-up observation is the model running on: only the first is a call', () => {
    const text = 'Action: search\nAction Input: {"query": "rice"}\nObservation: 3 results\nAction: add\nAction Input: {"a": 1, "b": 2}';
    expect(parseToolCalls(text, TOOLS).calls).toEqual([{ name: 'search', arguments: { query: 'rice' } }]);
  });
});

describe('a closed wrapper starting its line', () => {
  test('may have words after it there, as a special token may', () => {
    expectRead('<tools>{"name": "search", "arguments": {"query": "rice"}}</tools> Done.', [{ name: 'search', arguments: { query: 'rice' } }], 'Done.');
  });

  test('two on one line with words between are two calls', () => {
    const text = '<tools>{"name": "search", "arguments": {"query": "a"}}</tools> and also <tools>{"name": "search", "arguments": {"query": "b"}}</tools>';
    expectRead(text, [{ name: 'search', arguments: { query: 'a' } }, { name: 'search', arguments: { query: 'b' } }], 'and also');
  });

  test('set off by a blank after words and followed by more words, it stays a quotation', () => {
    const text = 'The page shows <tools>{"name": "search", "arguments": {"query": "a"}}</tools> in its footer.';
    expect(squash(expectNoCall(text, TOOLS).text)).toBe(squash(text));
  });
});

test("Gemma 4's paren form with key: value pairs is read as its braces are", () => {
  expectRead('<|tool_call>call:search(query: "blockchain news", limit: 2)<tool_call|>', [{ name: 'search', arguments: { query: 'blockchain news', limit: 2 } }], '');
});

test('GPT-OSS naming its channel again after the recipient: the whole header goes with the call', () => {
  const text = '<|channel|>analysis<|message|>Now add.<|end|><|start|>assistant<|channel|>commentary to=functions.add<|channel|>commentary<|constrain|>json<|message|>{"a": 40, "b": 10}<|call|>';
  expectRead(text, [{ name: 'add', arguments: { a: 40, b: 10 } }], '');
});

describe("Mistral's </s> ending a reply", () => {
  test('after prose it is the end of sequence, not text', () => {
    expectRead('The sum of 15 and 27 is 42.</s>', [], 'The sum of 15 and 27 is 42.');
  });

  test('closing a strikethrough on its line, or inside the reply, it stays', () => {
    expectRead('The price was <s>40</s>', [], 'The price was <s>40</s>');
    expectRead('A </s> B', [], 'A </s> B');
  });
});
