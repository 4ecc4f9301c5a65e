/**
 * The repair turn, through the real loop and the real clients against the scripted server: a
 * reply whose call cannot run gets one short corrective message, the corrected call runs (the
 * in-memory page changes), a second broken reply in a row ends the task with a clear error, and
 * the repair counts as a step. Text-mode failures come from the router's `tool_call_invalid`
 * events, here from a router that reports one for a reply holding call markup it did not read.
 */
import type { AgentEvent } from '../../../src/background/agent/events';
import { runAgentLoop, type AgentTask } from '../../../src/background/agent/loop';
import { LlmRouter, type RouterEvent } from '../../../src/background/llm/router';
import type { CallFailure } from '../../../src/background/llm/tool-protocol/failures';
import type { ChatRequest, LlmMessage } from '../../../src/background/llm/types';
import type { ToolCallMode } from '../../../src/shared/settings';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer, type RecordedRequest } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }, { name: 'gemma:2b', tools: false, contextLength: 8192 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const USER_TEXT = 'Fill in my email ada@example.com and save.';
const task = (model: string, over: Partial<AgentTask> = {}): AgentTask => ({
  conversationId: 'c1',
  model,
  mode: 'auto',
  messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: USER_TEXT }],
  ...over,
});

type WireMessage = { role: string; content: string; tool_call_id?: string; tool_name?: string };
const wireMessages = (r: RecordedRequest) => r.body.messages as WireMessage[];
const run = (t: AgentTask, router: LlmRouter, world: ReturnType<typeof pageWorld>, events: AgentEvent[] = []) =>
  runAgentLoop(t, { router, tools: world.tools, gate: allowAll, emit: (e) => events.push(e) }, new AbortController().signal);

describe('native calls', () => {
  test('an unknown tool gets one repair naming the tools; the corrected call runs and changes the page', async () => {
    const world = pageWorld();
    server.script(
      { text: 'Clicking Save.', toolCalls: [{ name: 'press_button', arguments: { id: 3 } }] },
      { toolCalls: [{ name: 'click', arguments: { id: 3 } }] },
      { toolCalls: [{ name: 'done', arguments: { summary: 'Saved.' } }] },
    );
    const events: AgentEvent[] = [];
    const outcome = await run(task('qwen3:4b'), routerFor(server.url, 'ollama'), world, events);

    expect(outcome).toEqual({ kind: 'done', summary: 'Saved.' });
    expect(world.log).toEqual(['click 3']);
    // The model got one short message as the broken call's result: the problem and the tool names, not the catalogue.
    const repair = wireMessages(server.chatRequests()[1]!).at(-1)!;
    expect(repair.role).toBe('tool');
    expect(repair.tool_name).toBe('press_button');
    expect(repair.content).toBe('Your tool call was not run. There is no tool named "press_button".\nThe tools are: read_page, fill, click, scroll, wait_forever, done, ask_user. Call one of them.');
    expect(events).toContainEqual({ type: 'repair', problem: 'unknown_tool', name: 'press_button', text: { key: 'repairUnknownTool', args: ['press_button'] } });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool', status: 'failed', call: expect.objectContaining({ name: 'press_button' }), previewText: { key: 'previewUnknownTool' } }));
    // The prose before the broken call was kept for the user.
    expect(events).toContainEqual({ type: 'assistant', content: 'Clicking Save.', toolCalls: [expect.objectContaining({ name: 'press_button' })] });
  });

  test('arguments that fail the schema get the tool\'s parameters in short; the corrected call fills the field', async () => {
    const world = pageWorld();
    server.script(
      { toolCalls: [{ name: 'fill', arguments: { id: 1 } }] },
      { toolCalls: [{ name: 'fill', arguments: { id: 1, text: 'ada@example.com' } }] },
      { text: 'Filled in your email.' },
    );
    const outcome = await run(task('qwen3:4b'), routerFor(server.url, 'openai'), world);

    expect(outcome).toEqual({ kind: 'answered', text: 'Filled in your email.' });
    expect(world.fields[1]).toBe('ada@example.com');
    const repair = wireMessages(server.chatRequests()[1]!).at(-1)!;
    expect(repair.role).toBe('tool');
    expect(repair.content).toMatch(/^Your tool call was not run\. Invalid arguments for fill: text: .+\.\nfill takes fill\(id: .+, text: string\)\. Call it again with fixed arguments\.$/);
  });

  test('arguments that are not JSON get a repair too, over the OpenAI wire', async () => {
    const world = pageWorld();
    server.script(
      { toolCalls: [{ name: 'fill', arguments: {}, rawArguments: '{"id": 1, "text": "ada@exa' }] },
      { toolCalls: [{ name: 'fill', arguments: { id: 1, text: 'ada@example.com' } }] },
      { text: 'Done.' },
    );
    const events: AgentEvent[] = [];
    await run(task('qwen3:4b'), routerFor(server.url, 'openai'), world, events);

    expect(world.fields[1]).toBe('ada@example.com');
    expect(wireMessages(server.chatRequests()[1]!).at(-1)!.content).toContain('The arguments of fill were not a valid JSON object.\nfill takes fill(');
    expect(events.filter((e) => e.type === 'repair')).toEqual([expect.objectContaining({ problem: 'invalid_arguments', name: 'fill' })]);
  });

  test('a broken call after a good one: the good one runs, the rest of the reply waits for the repair', async () => {
    const world = pageWorld();
    server.script(
      { toolCalls: [{ name: 'fill', arguments: { id: 1, text: 'ada@example.com' } }, { name: 'clik', arguments: { id: 3 } }, { name: 'click', arguments: { id: 3 } }] },
      { toolCalls: [{ name: 'click', arguments: { id: 3 } }] },
      { text: 'Saved.' },
    );
    const events: AgentEvent[] = [];
    await run(task('qwen3:4b'), routerFor(server.url, 'openai'), world, events);

    expect(world.log).toEqual(['fill 1 ada@example.com', 'click 3']);
    // Every call id has its result on the wire: the fill's, the repair, and the call not run.
    const second = wireMessages(server.chatRequests()[1]!).filter((m) => m.role === 'tool');
    expect(second.map((m) => m.content)).toEqual([expect.stringContaining('Field [1] now holds "ada@example.com"'), expect.stringMatching(/^Your tool call was not run\. There is no tool named "clik"\./), expect.stringMatching(/^Not run: a call before it/)]);
    expect(events.filter((e) => e.type === 'tool' && e.status === 'skipped').map((e) => (e as { call: { name: string } }).call.name)).toEqual(['click']);
  });

  test('two broken replies in a row end the task with a clear error; the conversation keeps everything', async () => {
    const world = pageWorld();
    server.script({ toolCalls: [{ name: 'clik', arguments: { id: 3 } }] }, { toolCalls: [{ name: 'clik', arguments: { id: 3 } }] }, { text: 'never asked' });
    const t = task('qwen3:4b');
    const events: AgentEvent[] = [];
    const outcome = await run(t, routerFor(server.url, 'ollama'), world, events);

    expect(outcome).toMatchObject({ kind: 'invalid_call', text: { key: 'stopInvalidCall', args: ['clik'] }, message: expect.stringContaining('twice in a row') });
    expect(server.chatRequests()).toHaveLength(2);
    expect(world.log).toEqual([]);
    expect(events.filter((e) => e.type === 'repair')).toHaveLength(1);
    // The user's text and both replies stay, each broken call with its answer.
    expect(t.messages[1]).toEqual({ role: 'user', content: USER_TEXT });
    expect(t.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  test('a good step between two broken ones starts the count again', async () => {
    const world = pageWorld();
    server.script(
      { toolCalls: [{ name: 'clik', arguments: { id: 1 } }] },
      { toolCalls: [{ name: 'click', arguments: { id: 1 } }] },
      { toolCalls: [{ name: 'clik', arguments: { id: 3 } }] },
      { toolCalls: [{ name: 'click', arguments: { id: 3 } }] },
      { text: 'Both clicked.' },
    );
    expect(await run(task('qwen3:4b'), routerFor(server.url, 'ollama'), world)).toEqual({ kind: 'answered', text: 'Both clicked.' });
    expect(world.log).toEqual(['click 1', 'click 3']);
  });

  test('the repair turn counts in the step budget', async () => {
    const world = pageWorld();
    server.script({ toolCalls: [{ name: 'clik', arguments: { id: 3 } }] }, { toolCalls: [{ name: 'click', arguments: { id: 3 } }] }, { text: 'never asked' });
    const events: AgentEvent[] = [];
    const outcome = await run(task('qwen3:4b', { limits: { stepLimit: 2 } }), routerFor(server.url, 'ollama'), world, events);

    expect(outcome).toMatchObject({ kind: 'step_limit' });
    expect(world.log).toEqual(['click 3']);
    expect(server.chatRequests()).toHaveLength(2);
    expect(events.filter((e) => e.type === 'step')).toEqual([{ type: 'step', step: 1, limit: 2 }, { type: 'step', step: 2, limit: 2 }]);
  });
});

/**
 * The router as the parser work makes it in text mode: a reply holding call markup the parser
 * could not read comes with one `tool_call_invalid` event. Where the parser does not report one
 * itself, a reply (as scripted, markup included) with `<tool_call>` and no call read from it is
 * reported here. `reported` keeps every failure the loop was given, in order.
 */
class ReportingRouter extends LlmRouter {
  readonly reported: CallFailure[] = [];

  constructor(
    private readonly inner: LlmRouter,
    /** The scripted replies' texts, in order: the markup the router's filter hides from the user. */
    private readonly replies: string[],
    private readonly failure: (raw: string) => CallFailure,
  ) {
    // Everything it does goes through `inner`: it needs no provider of its own.
    super(undefined as never);
  }

  override describe(model: string) {
    return this.inner.describe(model);
  }

  override async *chat(request: ChatRequest, mode: ToolCallMode, signal: AbortSignal): AsyncGenerator<RouterEvent> {
    const raw = this.replies.shift() ?? '';
    let read = 0;
    for await (const event of this.inner.chat(request, mode, signal)) {
      if (event.type === 'done' && read === 0 && raw.includes('<tool_call>')) {
        const failure = this.failure(raw);
        this.reported.push(failure);
        yield { type: 'tool_call_invalid', failure };
      }
      if (event.type === 'tool_call_invalid') this.reported.push(event.failure);
      if (event.type === 'tool_call' || event.type === 'tool_call_invalid') read++;
      yield event;
    }
  }
}

describe('text calls (the router\'s tool_call_invalid events)', () => {
  const unparsable = (raw: string): CallFailure => ({ problem: 'unparsable', name: 'fill', raw: raw.slice(0, 2000), detail: 'The JSON inside <tool_call> is not valid.' });
  /** Scripts the replies and gives the router that reports the unreadable ones. */
  const scripted = (texts: string[], failure: (raw: string) => CallFailure) => {
    server.script(...texts.map((text) => ({ text })));
    return new ReportingRouter(routerFor(server.url, 'ollama'), [...texts], failure);
  };

  test('an unreadable call gets one repair as a user message with the tool\'s parameters and the form; the corrected call runs', async () => {
    const world = pageWorld();
    const router = scripted(['I will fill it in.\n<tool_call>{"name": "fill", "arguments": {"id": 1 "text": "ada@example.com"}}</tool_call>', '<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "ada@example.com"}}</tool_call>', 'Your email is filled in.'], unparsable);
    const events: AgentEvent[] = [];
    const outcome = await run(task('gemma:2b', { mode: 'xml' }), router, world, events);

    expect(outcome).toEqual({ kind: 'answered', text: 'Your email is filled in.' });
    expect(world.fields[1]).toBe('ada@example.com');
    const repair = wireMessages(server.chatRequests()[1]!).at(-1)!;
    expect(repair).toMatchObject({ role: 'user' });
    expect(router.reported.map((f) => f.problem)).toEqual(['unparsable']);
    expect(repair.content).toBe(
      `Your tool call was not run. ${router.reported[0]!.detail}\nfill takes fill(id: integer, text: string). Call it again with fixed arguments.\nWrite the call as <tool_call>{"name": "TOOL_NAME", "arguments": {…}}</tool_call>.`,
    );
    expect(events).toContainEqual({ type: 'repair', problem: 'unparsable', name: 'fill', text: { key: 'repairUnparsable', args: ['fill'] } });
    // The prose before the markup reached the user.
    expect(events).toContainEqual({ type: 'assistant', content: 'I will fill it in.\n', toolCalls: [] });
  });

  test('two unreadable replies in a row end with a clear error', async () => {
    const world = pageWorld();
    const broken = '<tool_call>{"name": "fill", "arguments": {"id": 1 "text": "x"}}</tool_call>';
    const router = scripted([broken, broken, 'never asked'], unparsable);
    const t = task('gemma:2b', { mode: 'xml' });
    const outcome = await run(t, router, world);

    expect(outcome).toMatchObject({ kind: 'invalid_call', text: { key: 'stopInvalidCall', args: ['fill'] } });
    expect(server.chatRequests()).toHaveLength(2);
    expect(world.fields[1]).toBe('');
    expect((t.messages as LlmMessage[]).filter((m) => m.role === 'user').map((m) => m.content)).toEqual([USER_TEXT, expect.stringContaining('Your tool call was not run.')]);
  });

  test('a call cut off inside an argument names the tool and asks for the whole call', async () => {
    const world = pageWorld();
    const cutOff = (raw: string): CallFailure => ({ problem: 'cut_off', name: 'fill', raw, detail: 'The call to fill ended inside its text argument.' });
    const router = scripted(['<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "ada@exa', '<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "ada@example.com"}}</tool_call>', 'Filled.'], cutOff);
    const events: AgentEvent[] = [];
    await run(task('gemma:2b', { mode: 'xml' }), router, world, events);

    expect(world.log).toEqual(['fill 1 ada@example.com']);
    const repair = wireMessages(server.chatRequests()[1]!).at(-1)!.content;
    expect(router.reported.map((f) => f.problem)).toEqual(['cut_off']);
    expect(repair).toBe(`Your tool call was not run. ${router.reported[0]!.detail}\nfill takes fill(id: integer, text: string). Call it again with the whole call.\nWrite the call as <tool_call>{"name": "TOOL_NAME", "arguments": {…}}</tool_call>.`);
    expect(events).toContainEqual(expect.objectContaining({ type: 'repair', problem: 'cut_off', text: { key: 'repairCutOff', args: ['fill'] } }));
  });
});

describe('a text call the token limit cut (the real router and parser)', () => {
  const opened = '<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "Dear Ada"}';
  const whole = '<tool_call>{"name": "fill", "arguments": {"id": 1, "text": "Dear Ada, welcome aboard."}}</tool_call>';

  test.each(['ollama', 'openai'] as const)('over the %s wire, a call the limit left open is not run; the repair asks for the whole call, which fills the field', async (wire) => {
    const world = pageWorld();
    server.script({ text: opened, finishReason: 'length' }, { text: whole }, { text: 'Filled in the greeting.' });
    const events: AgentEvent[] = [];
    const outcome = await run(task('gemma:2b', { mode: 'xml' }), routerFor(server.url, wire), world, events);

    expect(outcome).toEqual({ kind: 'answered', text: 'Filled in the greeting.' });
    // The field got the whole text once, never what the limit left of it.
    expect(world.log).toEqual(['fill 1 Dear Ada, welcome aboard.']);
    expect(world.fields[1]).toBe('Dear Ada, welcome aboard.');
    const repair = wireMessages(server.chatRequests()[1]!).at(-1)!;
    expect(repair.role).toBe('user');
    expect(repair.content).toMatch(/^Your tool call was not run\. The reply ended inside the arguments of the tool call to "fill", so the call was cut off: write it again, complete\.\nfill takes fill\(id: integer, text: string\)\. Call it again with the whole call\./);
    expect(events).toContainEqual(expect.objectContaining({ type: 'repair', problem: 'cut_off', text: { key: 'repairCutOff', args: ['fill'] } }));
  });

  test('the same reply ended by a stop sequence is closed and run', async () => {
    const world = pageWorld();
    server.script({ text: opened }, { text: 'Filled in the greeting.' });
    const outcome = await run(task('gemma:2b', { mode: 'xml' }), routerFor(server.url, 'ollama'), world);

    expect(outcome).toEqual({ kind: 'answered', text: 'Filled in the greeting.' });
    expect(world.log).toEqual(['fill 1 Dear Ada']);
  });

  test('a closed call in a reply the limit cut afterwards runs', async () => {
    const world = pageWorld();
    server.script({ text: `${whole}\nNext I will check the form for`, finishReason: 'length' }, { text: 'Filled in the greeting.' });
    await run(task('gemma:2b', { mode: 'xml' }), routerFor(server.url, 'openai'), world);

    expect(world.log).toEqual(['fill 1 Dear Ada, welcome aboard.']);
    expect(server.chatRequests()).toHaveLength(2);
  });
});
