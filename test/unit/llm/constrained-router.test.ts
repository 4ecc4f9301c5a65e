/**
 * Constrained mode through the router, with the real `ollama` and `openai` clients against the
 * scripted server, which refuses any scripted reply that does not validate against the schema
 * the request carried: what is sent, how replies become calls and answers, and the auto ladder.
 */
import { ModeCache } from '../../../src/background/llm/capabilities';
import { STEP_SCHEMA_NAME, stepSchema } from '../../../src/background/llm/constrained/schema';
import type { RouterEvent } from '../../../src/background/llm/router';
import type { ChatRequest, ToolSpec } from '../../../src/background/llm/types';
import { routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';
import { MemoryStorage } from '../../support/memory-storage';

const TOOLS: ToolSpec[] = [
  { name: 'fill', description: 'Type into a field', parameters: { type: 'object', properties: { id: { type: 'integer', description: 'The field' }, text: { type: 'string' } }, required: ['id', 'text'] } },
  { name: 'click', description: 'Click an element', parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
];
const request = (model: string): ChatRequest => ({ model, tools: TOOLS, messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'Fill in ada@example.com' }] });

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  server.setModels([
    { name: 'qwen2.5:3b', tools: true },
    { name: 'gemma3:1b', tools: false },
    { name: 'plain', tools: false, schema: false },
  ]);
});

async function collect(events: AsyncIterable<RouterEvent>): Promise<RouterEvent[]> {
  const out: RouterEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
const signal = () => new AbortController().signal;
const calls = (events: RouterEvent[]) => events.flatMap((e) => (e.type === 'tool_call' ? [{ name: e.call.name, arguments: e.call.arguments }] : []));
const texts = (events: RouterEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : []));

describe.each(['ollama', 'openai'] as const)('over the %s wire protocol', (api) => {
  test('the request carries the step schema and no tools; a call in the reply becomes a tool_call event', async () => {
    server.script({ text: JSON.stringify({ tool: 'fill', arguments: { id: 4, text: 'ada@example.com' } }) });
    const events = await collect(routerFor(server.url, api).chat(request('qwen2.5:3b'), 'constrained', signal()));

    expect(calls(events)).toEqual([{ name: 'fill', arguments: { id: 4, text: 'ada@example.com' } }]);
    expect(texts(events)).toEqual([]);
    expect(events[0]).toEqual({ type: 'tool_mode', mode: 'constrained', reason: 'configured' });
    const [sent] = server.chatRequests();
    expect(sent!.body.tools).toBeUndefined();
    if (api === 'ollama') expect(sent!.body.format).toEqual(stepSchema(TOOLS));
    else expect(sent!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: STEP_SCHEMA_NAME, schema: stepSchema(TOOLS), strict: false } });
    const system = sent!.body.messages[0].content as string;
    expect(system).toContain('You are an agent.');
    expect(system).toContain('{"tool": "TOOL_NAME", "arguments": {"PARAMETER": VALUE}}');
    expect(system).toContain('- fill: Type into a field\n  - id (integer): The field');
    expect(server.schemaViolations).toEqual([]);
  });

  test('a final answer streams as decoded text while it arrives, and no call comes of it', async () => {
    const answer = 'Done: "ada@example.com" is in.\nCafé ✓ \\ {not json}';
    server.script({ text: JSON.stringify({ answer }), chunkSize: 5 });
    const events = await collect(routerFor(server.url, api).chat(request('qwen2.5:3b'), 'constrained', signal()));

    expect(texts(events).join('')).toBe(answer);
    // Streamed: many pieces, all before the end of the reply.
    expect(texts(events).length).toBeGreaterThan(5);
    const done = events.findIndex((e) => e.type === 'done');
    expect(events.findLastIndex((e) => e.type === 'text')).toBeLessThan(done);
    expect(calls(events)).toEqual([]);
  });

  test('a scripted reply that breaks the schema is refused by the server, loudly', async () => {
    server.script({ text: JSON.stringify({ tool: 'fly', arguments: { to: 'moon' } }) });
    await expect(collect(routerFor(server.url, api).chat(request('qwen2.5:3b'), 'constrained', signal()))).rejects.toThrow(/scripted reply rejected/);
    expect(server.schemaViolations).toHaveLength(1);
    expect(server.schemaViolations[0]!.problem).toMatch(/tool|arguments|answer|Invalid/);
  });

  test('configured constrained mode: a server that refuses reply schemas says so, in its own words', async () => {
    await expect(collect(routerFor(server.url, api).chat(request('plain'), 'constrained', signal()))).rejects.toMatchObject({
      code: 'schema_unsupported',
      message: expect.stringMatching(api === 'ollama' ? /refused to constrain the replies of plain.*not supported/ : /refused to constrain the replies of plain.*response_format/),
    });
    expect(server.chatRequests()).toHaveLength(1);
  });

  test('configured constrained mode: a server that ignores the schema gives a clear error, not a guess', async () => {
    server.script({ text: 'Sure! I will fill it in.\n<fill id="4" text="ada@example.com" />', ignoreSchema: true });
    await expect(collect(routerFor(server.url, api).chat(request('qwen2.5:3b'), 'constrained', signal()))).rejects.toMatchObject({
      code: 'schema_ignored',
      message: expect.stringContaining('did not keep to the reply format'),
    });
  });
});

test('auto: a step cut at the output limit is an error of its own, and the mode is kept', async () => {
  const storage = new MemoryStorage();
  server.script({ text: '{"tool": "fill", "arguments": {"id": 4, "text": "ada@exa', finishReason: 'length' });
  await expect(collect(routerFor(server.url, 'ollama', storage).chat(request('gemma3:1b'), 'auto', signal()))).rejects.toMatchObject({
    code: 'bad_response',
    message: expect.stringContaining('output limit'),
  });
  expect(server.chatRequests()).toHaveLength(1);
  expect(await new ModeCache(storage).modeOf('ollama|gemma3:1b')).toBeUndefined();
});

test('auto on Ollama: a model whose /api/show lists no tools goes straight to constrained mode', async () => {
  server.script({ text: JSON.stringify({ tool: 'click', arguments: { id: 2 } }) });
  const events = await collect(routerFor(server.url, 'ollama').chat(request('gemma3:1b'), 'auto', signal()));
  expect(events[0]).toEqual({ type: 'tool_mode', mode: 'constrained', reason: 'model_has_no_tools' });
  expect(calls(events)).toEqual([{ name: 'click', arguments: { id: 2 } }]);
  expect(server.chatRequests()).toHaveLength(1);
  expect(server.chatRequests()[0]!.body.format).toEqual(stepSchema(TOOLS));
});

test('auto on the OpenAI wire: tools refused → constrained on the same turn, remembered for the next', async () => {
  const storage = new MemoryStorage();
  server.script(
    { text: JSON.stringify({ tool: 'click', arguments: { id: 2 } }) },
    { text: JSON.stringify({ answer: 'Clicked.' }) },
  );
  const first = await collect(routerFor(server.url, 'openai', storage).chat(request('gemma3:1b'), 'auto', signal()));
  expect(first.filter((e) => e.type === 'tool_mode')).toEqual([{ type: 'tool_mode', mode: 'constrained', reason: 'rejected' }]);
  expect(calls(first)).toEqual([{ name: 'click', arguments: { id: 2 } }]);
  // A new router on the same storage: the lesson survived.
  const second = await collect(routerFor(server.url, 'openai', storage).chat(request('gemma3:1b'), 'auto', signal()));
  expect(second[0]).toEqual({ type: 'tool_mode', mode: 'constrained', reason: 'remembered' });
  expect(texts(second).join('')).toBe('Clicked.');
  expect(server.chatRequests().map((r) => [Boolean(r.body.tools), r.body.response_format?.type ?? null])).toEqual([
    [true, null],
    [false, 'json_schema'],
    [false, 'json_schema'],
  ]);
  expect(await new ModeCache(storage).modeOf('openai|gemma3:1b')).toBe('constrained');
});

test('auto: native refused, then the reply schema refused → text tool calls, remembered', async () => {
  const storage = new MemoryStorage();
  server.script({ text: '<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>' });
  const events = await collect(routerFor(server.url, 'openai', storage).chat(request('plain'), 'auto', signal()));
  expect(events.filter((e) => e.type === 'tool_mode')).toEqual([
    { type: 'tool_mode', mode: 'constrained', reason: 'rejected' },
    { type: 'tool_mode', mode: 'xml', reason: 'rejected' },
  ]);
  expect(calls(events)).toEqual([{ name: 'click', arguments: { id: 3 } }]);
  expect(await new ModeCache(storage).modeOf('openai|plain')).toBe('xml');
  const requests = server.chatRequests();
  expect(requests).toHaveLength(3);
  expect(requests[2]!.body.response_format).toBeUndefined();
  expect(requests[2]!.body.messages[0].content).toContain('<tool_call>');
});

test('auto: a server that takes the schema but ignores it → text tool calls on the same turn, remembered', async () => {
  const storage = new MemoryStorage();
  const reply = { text: '<tool_call>{"name": "click", "arguments": {"id": 3}}</tool_call>', ignoreSchema: true };
  server.script(reply, reply);
  const events = await collect(routerFor(server.url, 'ollama', storage).chat(request('gemma3:1b'), 'auto', signal()));
  expect(events.filter((e) => e.type === 'tool_mode')).toEqual([
    { type: 'tool_mode', mode: 'constrained', reason: 'model_has_no_tools' },
    { type: 'tool_mode', mode: 'xml', reason: 'schema_ignored' },
  ]);
  expect(calls(events)).toEqual([{ name: 'click', arguments: { id: 3 } }]);
  expect(await new ModeCache(storage).modeOf('ollama|gemma3:1b')).toBe('xml');
  expect(server.chatRequests().map((r) => Boolean(r.body.format))).toEqual([true, false]);
});
