/**
 * Where the fixes from the nineteenth held-out round stop: calls after Llama's python tag separated by `;`
 * without touching a `;` inside a value; a GLM call cut after a key whose value never came; a tool's
 * definition echoed with BFCL's `"type": "dict"`; `func` as a call's name key.
 */
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { expectReadAs } from '../../support/stream-through';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const TOOLS = [
  { name: 'execute', parameters: object({ command: { type: 'string' }, timeout: { type: 'integer' } }) },
  { name: 'memory_search', parameters: object({ query: { type: 'string' }, maxResults: { type: 'integer' } }) },
  { name: 'distance', parameters: object({ a: { type: 'number' } }) },
];

describe("Llama's python tag", () => {
  test('a `;` inside a value stays in it', () => {
    const command = 'python -c "import json; print(1)"';
    expectReadAs(`<|python_tag|>{"name": "execute", "parameters": {"command": ${JSON.stringify(command)}, "timeout": null}}`, TOOLS, [{ name: 'execute', arguments: { command, timeout: null } }], '');
  });

  test('calls separated by `;`: each a call', () => {
    expectReadAs('<|python_tag|>execute(command="ls; pwd"); execute(command="date")', TOOLS, [
      { name: 'execute', arguments: { command: 'ls; pwd' } },
      { name: 'execute', arguments: { command: 'date' } },
    ], '');
  });
});

test("a GLM call cut after a key whose value never came: cut off, not run without it", () => {
  const text = '<tool_call>memory_search<arg_key>query</arg_key><arg_value>Task 2</arg_value><arg_key>maxResults';
  expectReadAs(text, TOOLS, [], '');
  expect(parseToolCalls(text, TOOLS).failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'memory_search']]);
});

test("a tool's definition echoed with BFCL's \"type\": \"dict\": no call", () => {
  const text = "```json\n[{'name': 'distance', 'description': 'The distance.', 'parameters': {'type': 'dict', 'properties': {'a': {'type': 'float'}}, 'required': ['a']}}]\n```";
  expect(parseToolCalls(text, TOOLS).calls).toEqual([]);
});

test('`func` and `params` as a call\'s keys: the call', () => {
  expectReadAs('[{"func": "distance", "params": {"a": 2}}]', TOOLS, [{ name: 'distance', arguments: { a: 2 } }], '');
});
