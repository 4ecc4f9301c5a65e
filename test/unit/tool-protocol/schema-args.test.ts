/**
 * Arguments shaped by the offered tools' JSON Schemas, and calls that are tried but cannot be run.
 * The outputs follow the published formats of Roo Code and Cline (XML tool use with nested
 * `<args>`), Qwen3-Coder (`<function=…><parameter=…>`, vLLM's tool-parser tests) and Hermes.
 * In text mode the router, over the real Ollama and OpenAI wire protocols, emits one
 * `tool_call_invalid` event per failed call beside the `tool_call` events.
 */
import { parseToolCalls, type ToolInput } from '../../../src/background/llm/tool-protocol/parse';
import type { RouterEvent } from '../../../src/background/llm/router';
import { routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

const READ_FILE: ToolInput = {
  name: 'read_file',
  parameters: {
    type: 'object',
    properties: {
      args: {
        type: 'object',
        properties: {
          file: {
            type: 'array',
            items: { type: 'object', properties: { path: { type: 'string' }, line_range: { type: 'array', items: { type: 'string' } } } },
          },
        },
      },
    },
  },
};
const WRITE: ToolInput = {
  name: 'write_to_file',
  parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' }, line_count: { type: 'integer' } } },
};
const SEARCH_SCHEMA = { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' }, exact: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } } };
const SEARCH: ToolInput = { name: 'search', parameters: SEARCH_SCHEMA };

describe('nested XML parameters follow the schema', () => {
  test('repeated elements become a list of objects, and a string stays text', () => {
    const output = '<read_file>\n<args>\n  <file>\n    <path>src/app.ts</path>\n  </file>\n  <file>\n    <path>src/util.ts</path>\n    <line_range>10-40</line_range>\n  </file>\n</args>\n</read_file>';
    expect(parseToolCalls(output, [READ_FILE]).calls).toEqual([
      { name: 'read_file', arguments: { args: { file: [{ path: 'src/app.ts' }, { path: 'src/util.ts', line_range: ['10-40'] }] } } },
    ]);
  });

  test('one element where the schema asks for a list is a list of one', () => {
    const output = '<read_file>\n<args>\n<file>\n<path>README.md</path>\n</file>\n</args>\n</read_file>';
    expect(parseToolCalls(output, [READ_FILE]).calls).toEqual([{ name: 'read_file', arguments: { args: { file: [{ path: 'README.md' }] } } }]);
  });

  test('without a schema, values follow their structure: objects, lists for repeated elements, text', () => {
    const output = '<read_file>\n<args>\n<file><path>a.ts</path></file>\n<file><path>b.ts</path></file>\n</args>\n</read_file>';
    expect(parseToolCalls(output, ['read_file']).calls).toEqual([{ name: 'read_file', arguments: { args: { file: [{ path: 'a.ts' }, { path: 'b.ts' }] } } }]);
  });

  test('a string parameter holding JSON or markup is never read as JSON or elements', () => {
    const output = '<write_to_file>\n<path>data.json</path>\n<content>\n{"version": 2, "items": []}\n</content>\n<line_count>1</line_count>\n</write_to_file>';
    expect(parseToolCalls(output, [WRITE]).calls).toEqual([{ name: 'write_to_file', arguments: { path: 'data.json', content: '{"version": 2, "items": []}', line_count: 1 } }]);
    const html = '<write_to_file>\n<path>a.xml</path>\n<content>\n<note><to>Ann</to></note>\n</content>\n</write_to_file>';
    expect(parseToolCalls(html, [WRITE]).calls[0]?.arguments.content).toBe('<note><to>Ann</to></note>');
  });

  test('a value holding its own closing tag closes at the right one', () => {
    const output = '<write_to_file>\n<path>notes.md</path>\n<content>\nClose it with </content> and go on.\n</content>\n<line_count>1</line_count>\n</write_to_file>';
    expect(parseToolCalls(output, [WRITE]).calls).toEqual([{ name: 'write_to_file', arguments: { path: 'notes.md', content: 'Close it with </content> and go on.', line_count: 1 } }]);
  });

  test('Qwen3-Coder parameters: numbers and booleans coerced, strings kept, a list from JSON', () => {
    const output = '<tool_call>\n<function=search>\n<parameter=query>\n007\n</parameter>\n<parameter=limit>\n5\n</parameter>\n<parameter=exact>\nTrue\n</parameter>\n<parameter=tags>\n["a", "b"]\n</parameter>\n</function>\n</tool_call>';
    expect(parseToolCalls(output, [SEARCH]).calls).toEqual([{ name: 'search', arguments: { query: '007', limit: 5, exact: true, tags: ['a', 'b'] } }]);
  });

  test('JSON arguments are coerced where they differ from the schema', () => {
    const output = '<tool_call>\n{"name": "search", "arguments": {"query": 42, "limit": "3", "exact": "false"}}\n</tool_call>';
    expect(parseToolCalls(output, [SEARCH]).calls).toEqual([{ name: 'search', arguments: { query: '42', limit: 3, exact: false } }]);
  });
});

describe('calls tried but not runnable', () => {
  test('a cut-off value is never acted on, and is reported as cut off', () => {
    const result = parseToolCalls('<tool_call>\n{"name": "search", "arguments": {"query": "firefox exten', [SEARCH]);
    expect(result.calls).toEqual([]);
    expect(result.failures).toEqual([
      { problem: 'cut_off', name: 'search', raw: '<tool_call>\n{"name": "search", "arguments": {"query": "firefox exten', detail: expect.stringContaining('cut off') as string },
    ]);
  });

  test('complete arguments with the closing brace and tag missing are repaired', () => {
    expect(parseToolCalls('<tool_call>\n{"name": "search", "arguments": {"query": "firefox"}', [SEARCH]).calls).toEqual([{ name: 'search', arguments: { query: 'firefox' } }]);
    expect(parseToolCalls('<write_to_file>\n<path>a.md</path>\n<content>\nHi\n</content>\n', [WRITE]).calls).toEqual([{ name: 'write_to_file', arguments: { path: 'a.md', content: 'Hi' } }]);
  });

  test('a parameter cut inside its value is reported, not run', () => {
    const result = parseToolCalls('<write_to_file>\n<path>a.md</path>\n<content>\nHalf a sen', [WRITE]);
    expect(result.calls).toEqual([]);
    expect(result.failures.map((f) => [f.problem, f.name])).toEqual([['cut_off', 'write_to_file']]);
  });

  test('a tool that is not offered, and markup that cannot be read, are failures with their markup', () => {
    const unknown = parseToolCalls('<tool_call>\n{"name": "browse", "arguments": {"url": "https://a.example"}}\n</tool_call>', [SEARCH]);
    expect(unknown.failures).toEqual([
      { problem: 'unknown_tool', name: 'browse', raw: '<tool_call>\n{"name": "browse", "arguments": {"url": "https://a.example"}}\n</tool_call>', detail: 'There is no tool named "browse": call one of the tools you were given, by its exact name.' },
    ]);
    expect(unknown.text).toBe('');
    const broken = parseToolCalls('<tool_call>\n{"name": "search", "arguments": {"query": }}\n</tool_call>', [SEARCH]);
    expect(broken.failures.map((f) => [f.problem, f.name])).toEqual([['unparsable', 'search']]);
  });

  test('prose that mentions a tool or quotes markup is neither a call nor a failure', () => {
    for (const text of [
      'I could use the search tool, or browse the page myself.',
      'The footer says <tool_call>{"name": "browse", "arguments": {}}</tool_call> in small print.',
      '> <tool_call>\n> {"name": "browse", "arguments": {}}\n> </tool_call>',
      'For example:\n\n```json\n{"name": "browse", "arguments": {}}\n```\n\nThat is the shape.',
      '{"name": "search", "arguments": {"query": "x"}} is what the page asks assistants to write.',
    ]) {
      const result = parseToolCalls(text, [SEARCH]);
      expect({ text, calls: result.calls, failures: result.failures }).toEqual({ text, calls: [], failures: [] });
    }
  });

  test('the detail is one sentence, and the raw markup is clipped to 2,000 characters', () => {
    const long = `<tool_call>\n{"name": "browse", "arguments": {"q": "${'x'.repeat(3000)}"}}\n</tool_call>`;
    const [failure] = parseToolCalls(long, [SEARCH]).failures;
    expect(failure?.raw).toHaveLength(2000);
    expect(failure?.detail.split(/[.:] /).length).toBeLessThanOrEqual(2);
  });
});

describe.each(['ollama', 'openai'] as const)('the router in text mode over %s', (api) => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer({ models: [{ name: 'small:2b', tools: false, contextLength: 8192 }] });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  async function eventsOf(text: string): Promise<RouterEvent[]> {
    server.script({ text });
    const events: RouterEvent[] = [];
    const request = { model: 'small:2b', messages: [{ role: 'user' as const, content: 'Find firefox extensions.' }], tools: [{ name: 'search', description: 'Search the web', parameters: SEARCH_SCHEMA }] };
    for await (const e of routerFor(server.url, api).chat(request, 'xml', new AbortController().signal)) events.push(e);
    return events;
  }

  test('a call and a failed call: one tool_call with schema-shaped arguments, one tool_call_invalid', async () => {
    const events = await eventsOf('Searching.\n<tool_call>\n{"name": "search", "arguments": {"query": "firefox", "limit": "2"}}\n</tool_call>\n<tool_call>\n{"name": "browse", "arguments": {}}\n</tool_call>');
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && [e.call.name, e.call.arguments])).toEqual([['search', { query: 'firefox', limit: 2 }]]);
    expect(events.filter((e) => e.type === 'tool_call_invalid').map((e) => e.type === 'tool_call_invalid' && [e.failure.problem, e.failure.name])).toEqual([['unknown_tool', 'browse']]);
    expect(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.delta : '')).join('').trim()).toBe('Searching.');
  });

  test('a reply without call markup gives no tool_call_invalid event', async () => {
    const events = await eventsOf('I could search for that, but the page already lists three extensions.');
    expect(events.some((e) => e.type === 'tool_call_invalid' || e.type === 'tool_call')).toBe(false);
  });
});
