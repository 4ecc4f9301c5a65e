/**
 * The agent loop driven through the real provider code against the scripted LLM server, with
 * tools that change an in-memory page: each test checks the effect, not the tool's answer.
 */
import type { AgentEvent } from '../../../src/background/agent/events';
import { runAgentLoop, type AgentTask } from '../../../src/background/agent/loop';
import type { LlmMessage } from '../../../src/background/llm/types';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer, type RecordedRequest } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }, { name: 'gemma:2b', tools: false, contextLength: 8192 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const task = (model: string, over: Partial<AgentTask> = {}): AgentTask => ({
  conversationId: 'c1',
  model,
  mode: 'auto',
  messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'Fill in my email ada@example.com and save.' }],
  ...over,
});

/** The text of the last tool result the model was sent. */
const lastToolResult = (r: RecordedRequest) => [...r.body.messages].reverse().find((m: { role: string; content: string }) => m.role === 'tool' || m.content.includes('<tool_result'))?.content ?? '';

test('native mode: read, fill, click, done — the page changes and the loop ends with the summary', async () => {
  const world = pageWorld();
  server.script(
    { toolCalls: [{ name: 'read_page', arguments: {} }] },
    (r) => ({ text: 'Filling the email.', toolCalls: [{ name: 'fill', arguments: { id: lastToolResult(r).includes('"Email"') ? 1 : 99, text: 'ada@example.com' } }] }),
    { toolCalls: [{ name: 'click', arguments: { id: 3 } }] },
    { toolCalls: [{ name: 'done', arguments: { summary: 'Saved your email.' } }] },
  );
  const events: AgentEvent[] = [];
  const outcome = await runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: (e) => events.push(e) }, new AbortController().signal);
  expect(outcome).toEqual({ kind: 'done', summary: 'Saved your email.' });
  expect(world.fields[1]).toBe('ada@example.com');
  expect(world.log).toEqual(['fill 1 ada@example.com', 'click 3']);
  const statuses = events.filter((e) => e.type === 'tool' && e.call.name === 'fill').map((e) => (e as { status: string }).status);
  expect(statuses).toEqual(['pending', 'running', 'done']);
  expect(server.chatRequests()[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('fill');
});

test('xml mode: a model set to text tool calls gets the catalogue in its prompt and acts through text calls', async () => {
  const world = pageWorld();
  server.script(
    { text: 'Let me look.\n<tool_call>\n{"name": "read_page", "arguments": {}}\n</tool_call>' },
    { text: '<fill id="1" text="ada@example.com" />' },
    { text: '[click(id=3)]' },
    { text: 'Done: the email is saved.' },
  );
  const events: AgentEvent[] = [];
  const outcome = await runAgentLoop(task('gemma:2b', { mode: 'xml' }), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: (e) => events.push(e) }, new AbortController().signal);
  expect(outcome).toEqual({ kind: 'answered', text: 'Done: the email is saved.' });
  expect(world.log).toEqual(['fill 1 ada@example.com', 'click 3']);
  const [first] = server.chatRequests();
  expect(first!.body.tools).toBeUndefined();
  expect(first!.body.messages[0].content).toContain('<tool_call>');
  expect(first!.body.messages[0].content).toContain('### fill');
  // The model's own calls come back to it as text, and results as tool_result turns.
  const third = server.chatRequests()[2]!.body.messages as LlmMessage[];
  expect(third.some((m) => m.role === 'assistant' && m.content.includes('"name":"fill"'))).toBe(true);
  expect(third.some((m) => m.role === 'user' && m.content.includes('<tool_result name="fill">'))).toBe(true);
  // Markup never reaches the text shown to the user.
  const shown = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('');
  expect(shown).not.toMatch(/tool_call|<fill|click\(/);
  expect(events).toContainEqual({ type: 'tool_mode', mode: 'xml', reason: 'configured' });
});

test('auto mode: a server that rejects tools and reply schemas is retried in text mode on the same turn, and remembered', async () => {
  server.setModels([{ name: 'mystery-model', tools: true, contextLength: 8192 }]);
  server.script({ fault: 'tools_unsupported' }, { fault: 'schema_unsupported' }, { text: '<tool_call>{"name": "done", "arguments": {"summary": "ok"}}</tool_call>' }, { text: '<tool_call>{"name": "done", "arguments": {"summary": "again"}}</tool_call>' });
  const world = pageWorld();
  const router = routerFor(server.url, 'openai');
  const run = () => runAgentLoop(task('mystery-model'), { router, tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(await run()).toEqual({ kind: 'done', summary: 'ok' });
  expect(await run()).toEqual({ kind: 'done', summary: 'again' });
  const requests = server.chatRequests();
  expect(requests.map((r) => Boolean(r.body.tools))).toEqual([true, false, false, false]);
  expect(requests.map((r) => Boolean(r.body.response_format))).toEqual([false, true, false, false]);
  server.setModels([{ name: 'qwen3:4b', tools: true, contextLength: 32768 }, { name: 'gemma:2b', tools: false, contextLength: 8192 }]);
});

test('the step limit stops a task that never finishes, and says so', async () => {
  const world = pageWorld();
  let n = 0;
  server.setFallback(() => ({ toolCalls: [{ name: 'fill', arguments: { id: 2, text: `attempt ${++n}` } }] }));
  const outcome = await runAgentLoop(task('qwen3:4b', { limits: { stepLimit: 3 } }), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(outcome).toMatchObject({ kind: 'step_limit', message: expect.stringContaining('limit of 3 steps') });
  expect(server.chatRequests()).toHaveLength(3);
});

test('a repeating pattern is caught and the agent is stopped', async () => {
  const world = pageWorld();
  let flip = false;
  server.setFallback(() => ({ toolCalls: [{ name: 'click', arguments: { id: (flip = !flip) ? 1 : 2 } }] }));
  const outcome = await runAgentLoop(task('qwen3:4b', { limits: { stepLimit: 20 } }), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(outcome).toMatchObject({ kind: 'repeat' });
  expect(world.log.length).toBeLessThan(8);
});

test('an invalid argument goes back to the model, which corrects itself', async () => {
  const world = pageWorld();
  server.script(
    { toolCalls: [{ name: 'fill', arguments: { id: 'the email box' } }] },
    (r) => {
      expect(lastToolResult(r)).toMatch(/Invalid arguments for fill/);
      return { toolCalls: [{ name: 'fill', arguments: { id: 1, text: 'ada@example.com' } }] };
    },
    { text: 'Filled.' },
  );
  const outcome = await runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(outcome).toEqual({ kind: 'answered', text: 'Filled.' });
  expect(world.fields[1]).toBe('ada@example.com');
});

test('an empty reply gets one corrective nudge; two in a row end with a diagnostic', async () => {
  const world = pageWorld();
  server.script({ text: '' }, { text: 'Here is my answer.' });
  const nudged = await runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(nudged).toEqual({ kind: 'answered', text: 'Here is my answer.' });
  expect(server.chatRequests()[1]!.body.messages.at(-1).content).toMatch(/last reply was empty/);

  server.reset();
  server.script({ text: '' }, { text: '' });
  const empty = await runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(empty).toMatchObject({ kind: 'empty', message: expect.stringContaining('replied with nothing twice') });
});

test('Stop in the middle of a tool ends the tool and the loop at once', async () => {
  const world = pageWorld();
  server.script({ toolCalls: [{ name: 'wait_forever', arguments: {} }] });
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  const started = Date.now();
  const running = runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: (e) => {
    events.push(e);
    if (e.type === 'tool' && e.status === 'running') setTimeout(() => controller.abort(), 20);
  } }, controller.signal);
  expect(await running).toEqual({ kind: 'stopped' });
  expect(Date.now() - started).toBeLessThan(250); // well before the tool's own 300 ms timeout
  expect(events.filter((e) => e.type === 'tool').at(-1)).toMatchObject({ status: 'failed', content: 'Stopped by the user.' });
  expect(server.chatRequests()).toHaveLength(1);
});

test('a tool that overruns its timeout is stopped and the model is told', async () => {
  const world = pageWorld();
  server.script({ toolCalls: [{ name: 'wait_forever', arguments: {} }] }, (r) => ({ text: lastToolResult(r).includes('did not finish within') ? 'The page is too slow.' : 'wrong' }));
  const outcome = await runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(outcome).toEqual({ kind: 'answered', text: 'The page is too slow.' });
});

test('a repeatable action (scroll) runs again while it makes progress, and is stopped once it no longer does', async () => {
  const world = pageWorld();
  world.feed.max = 80;
  server.setFallback({ toolCalls: [{ name: 'scroll', arguments: { direction: 'down' } }] });
  const outcome = await runAgentLoop(task('qwen3:4b', { messages: [{ role: 'user', content: 'Scroll until the end.' }] }), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  // 40, 60 are progress; 80 "(at the bottom)" three times in a row is a loop: five scrolls.
  expect(world.feed.items).toBe(80);
  expect(world.log.filter((l) => l === 'scroll')).toHaveLength(5);
  expect(outcome).toMatchObject({ kind: 'repeat' });
});

test('an identical action repeated at once is not performed twice', async () => {
  const world = pageWorld();
  server.script({ toolCalls: [{ name: 'click', arguments: { id: 3 } }] }, { toolCalls: [{ name: 'click', arguments: { id: 3 } }] }, { text: 'ok' });
  await runAgentLoop(task('qwen3:4b'), { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(world.log).toEqual(['click 3']);
  expect(lastToolResult(server.chatRequests()[2]!)).toMatch(/Not repeated/);
});

test('a denied action reaches the model as the result, and is not retried silently', async () => {
  const world = pageWorld();
  server.script({ toolCalls: [{ name: 'fill', arguments: { id: 1, text: 'x' } }] }, (r) => ({ text: lastToolResult(r).includes('did not allow') ? 'Understood, I will not fill it.' : 'wrong' }));
  const outcome = await runAgentLoop(task('qwen3:4b'), {
    router: routerFor(server.url, 'ollama'),
    tools: world.tools,
    gate: { decide: async () => ({ allowed: false, by: 'user', reason: 'denied by the user' }) },
    emit: () => undefined,
  }, new AbortController().signal);
  expect(outcome).toEqual({ kind: 'answered', text: 'Understood, I will not fill it.' });
  expect(world.fields[1]).toBe('');
});
