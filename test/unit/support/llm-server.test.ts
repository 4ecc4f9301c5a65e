/** The scripted server, checked through the real clients the extension uses. */
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'llama3.2:3b', tools: true, contextLength: 8192 }, { name: 'gemma:2b', tools: false }], requireOllamaOrigin: true });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const openai = () => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
const ollama = () => new Ollama({ host: server.url });

test('OpenAI streaming: text in chunks, usage, and tool calls assembled from fragments', async () => {
  server.script({ text: 'Hello there, friend.', chunkSize: 3, toolCalls: [{ name: 'click', arguments: { id: 12, reason: 'open' } }] });
  const stream = await openai().chat.completions.create({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true }, tools: [{ type: 'function', function: { name: 'click', parameters: { type: 'object' } } }] });
  let text = '';
  let args = '';
  let name = '';
  let finish: string | null = null;
  let usage = 0;
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    const choice = chunk.choices[0];
    text += choice?.delta.content ?? '';
    for (const call of choice?.delta.tool_calls ?? []) {
      name += call.function?.name ?? '';
      args += call.function?.arguments ?? '';
    }
    finish = choice?.finish_reason ?? finish;
    usage = chunk.usage?.total_tokens ?? usage;
  }
  expect(text).toBe('Hello there, friend.');
  expect(chunks).toBeGreaterThan(7);
  expect(name).toBe('click');
  expect(JSON.parse(args)).toEqual({ id: 12, reason: 'open' });
  expect(finish).toBe('tool_calls');
  expect(usage).toBeGreaterThan(0);
  expect(server.chatRequests()[0]!.body.tools[0].function.name).toBe('click');
});

test('OpenAI non-streaming and the model list', async () => {
  server.script({ text: 'plain' });
  const reply = await openai().chat.completions.create({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'hi' }] });
  expect(reply.choices[0]!.message.content).toBe('plain');
  const models = await openai().models.list();
  expect(models.data.map((m) => m.id)).toEqual(['llama3.2:3b', 'gemma:2b']);
});

test('Ollama streaming: NDJSON text, then whole tool calls, then done with counts', async () => {
  server.script({ text: 'Reading the page.', toolCalls: [{ name: 'read_page', arguments: {} }] });
  const stream = await ollama().chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'hi' }], stream: true });
  let text = '';
  const calls: string[] = [];
  let done = false;
  for await (const part of stream) {
    text += part.message.content;
    for (const call of part.message.tool_calls ?? []) calls.push(call.function.name);
    if (part.done) done = part.eval_count > 0;
  }
  expect(text).toBe('Reading the page.');
  expect(calls).toEqual(['read_page']);
  expect(done).toBe(true);
});

test('Ollama tags and show report the models and their capabilities', async () => {
  const { models } = await ollama().list();
  expect(models.map((m) => m.name)).toEqual(['llama3.2:3b', 'gemma:2b']);
  const shown = await ollama().show({ model: 'gemma:2b' });
  expect(shown.capabilities).toEqual(['completion']);
  expect((await ollama().show({ model: 'llama3.2:3b' })).model_info).toMatchObject({ 'llama.context_length': 8192 });
});

test('a model without tools rejects a request with tools, as Ollama does', async () => {
  await expect(ollama().chat({ model: 'gemma:2b', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'f', description: '', parameters: { type: 'object', properties: {} } } }] })).rejects.toMatchObject({
    status_code: 400,
    message: expect.stringContaining('does not support tools'),
  });
});

test('an unknown model is a 404 in each API’s words', async () => {
  await expect(ollama().chat({ model: 'nope', messages: [] })).rejects.toMatchObject({ status_code: 404, message: expect.stringContaining('not found, try pulling it first') });
  await expect(openai().chat.completions.create({ model: 'nope', messages: [] })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
});

test.each([
  ['unauthorized', 401],
  ['forbidden', 403],
  ['server_error', 500],
] as const)('fault %s answers %i through the OpenAI client', async (fault, status) => {
  server.script({ fault });
  await expect(openai().chat.completions.create({ model: 'llama3.2:3b', messages: [] })).rejects.toMatchObject({ status });
});

test('429 carries Retry-After', async () => {
  server.script({ fault: 'rate_limited', retryAfterSec: 7 });
  const error = (await openai()
    .chat.completions.create({ model: 'llama3.2:3b', messages: [] })
    .then(() => ({ status: 200, headers: new Headers() }))
    .catch((e: unknown) => e)) as { status: number; headers: Headers };
  expect(error.status).toBe(429);
  expect(error.headers.get('retry-after')).toBe('7');
});

test('a cut stream delivers part of the text and then fails the client', async () => {
  server.script({ text: 'This answer will be cut in the middle of it.', chunkSize: 5, fault: 'cut_stream' });
  let text = '';
  const read = async () => {
    const stream = await ollama().chat({ model: 'llama3.2:3b', messages: [], stream: true });
    for await (const part of stream) text += part.message.content;
  };
  await expect(read()).rejects.toThrow();
  expect(text.length).toBeGreaterThan(0);
  expect(text.length).toBeLessThan('This answer will be cut in the middle of it.'.length);
});

test('malformed JSON reaches the client as a parse failure', async () => {
  server.script({ fault: 'malformed_json' });
  await expect(openai().chat.completions.create({ model: 'llama3.2:3b', messages: [] })).rejects.toThrow();
});

test('an extension Origin gets a bare 403 from the Ollama endpoints; no Origin passes', async () => {
  const res = await fetch(`${server.url}/api/tags`, { headers: { origin: 'moz-extension://abc' } });
  expect(res.status).toBe(403);
  expect(await res.text()).toBe('');
  expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
});

test('a function script sees the request and every request is recorded', async () => {
  server.script((request) => ({ text: `You said ${request.body.messages.at(-1).content}` }));
  const reply = await openai().chat.completions.create({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'ping' }] });
  expect(reply.choices[0]!.message.content).toBe('You said ping');
  expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/chat/completions']);
});

test('the server stops by itself after its lifetime', async () => {
  const short = await startLlmServer({ lifetimeMs: 50 });
  await new Promise((r) => setTimeout(r, 120));
  await expect(fetch(`${short.url}/api/version`)).rejects.toThrow();
});
