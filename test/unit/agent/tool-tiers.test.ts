/**
 * Tool tiers: which set a model gets (by the size the server reports, by its name, by the user's
 * setting), what the scripted model receives in each, and `more_tools` (or a call to a tool the
 * compact set held back) widening the set for the rest of the run, through the real loop.
 */
import { z } from 'zod';
import type { AgentEvent } from '../../../src/background/agent/events';
import { runAgentLoop, type AgentTask } from '../../../src/background/agent/loop';
import { repairMessage } from '../../../src/background/agent/repair';
import { MORE_TOOLS, ToolOffer } from '../../../src/background/agent/tool-offer';
import { chooseTier, sizeFromName } from '../../../src/background/agent/tool-tier';
import { createToolRegistry, type ToolDeps } from '../../../src/background/tools';
import { defineTool, ToolRegistry } from '../../../src/background/tools/registry';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer, type RecordedRequest } from '../../support/llm-server';

describe('choosing the tier', () => {
  test.each([
    ['qwen2.5:3b', 3],
    ['llama3.2-3b-instruct', 3],
    ['Qwen/Qwen2.5-7B-Instruct', 7],
    ['gemma3:270m', 0.27],
    ['qwen2.5-coder:1.5b', 1.5],
    ['mixtral-8x7b-instruct', 56],
    ['qwen3-30b-a3b', 30],
    ['llama3.3:70b', 70],
    ['gpt-4o', undefined],
    ['phi-3-mini-4k-instruct', undefined],
  ])('the size written in %s is %s billion', (model, billions) => {
    expect(sizeFromName(model)).toBe(billions);
  });

  test('by the size the server reports, else by the name, else by a small family; full when nothing says', () => {
    expect(chooseTier('my-model', { parameterBillions: 3.2 })).toEqual({ tier: 'compact', reason: 'small_model', billions: 3.2 });
    expect(chooseTier('my-model', { parameterBillions: 70.6 })).toEqual({ tier: 'full', reason: 'large_model', billions: 70.6 });
    // The server's word wins over the name.
    expect(chooseTier('tiny-3b-finetune', { parameterBillions: 14 })).toMatchObject({ tier: 'full', billions: 14 });
    expect(chooseTier('llama3.1:8b', {})).toMatchObject({ tier: 'compact', billions: 8 });
    expect(chooseTier('qwen2.5:14b', {})).toMatchObject({ tier: 'full', billions: 14 });
    expect(chooseTier('phi-3-mini-4k-instruct', {})).toEqual({ tier: 'compact', reason: 'small_model' });
    expect(chooseTier('phi3:mini', {})).toEqual({ tier: 'compact', reason: 'small_model' });
    expect(chooseTier('some-model', { family: 'smollm2' })).toEqual({ tier: 'compact', reason: 'small_model' });
    expect(chooseTier('gpt-4o', {})).toEqual({ tier: 'full', reason: 'size_unknown' });
    expect(chooseTier('openrouter/anthropic/claude-sonnet', {})).toEqual({ tier: 'full', reason: 'size_unknown' });
  });

  test('the user\'s setting wins either way', () => {
    expect(chooseTier('qwen2.5:3b', { parameterBillions: 3 }, 'full')).toEqual({ tier: 'full', reason: 'setting' });
    expect(chooseTier('gpt-4o', {}, 'compact')).toEqual({ tier: 'compact', reason: 'setting' });
  });
});

describe('the built-in tools in each tier', () => {
  const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used in this test')) });
  const registry = createToolRegistry({ agent: unused, reader: unused, tabs: unused } as unknown as ToolDeps);

  test('compact: the tools most tasks need, each with a short description, and more_tools', () => {
    const specs = new ToolOffer(registry, 'compact').specs();
    // look and click_at reach only models that take images (the loop offers no vision tool to others).
    expect(specs.map((s) => s.name)).toEqual(['read_page', 'click', 'fill', 'select_option', 'scroll', 'navigate', 'look', 'click_at', 'done', 'ask_user', MORE_TOOLS]);
    for (const spec of specs) expect({ name: spec.name, short: spec.description.length <= 110 }).toEqual({ name: spec.name, short: true });
    // The same parameters as in the full set: only the descriptions are shorter.
    expect(specs.find((s) => s.name === 'fill')!.parameters).toEqual(registry.specs().find((s) => s.name === 'fill')!.parameters);
  });

  test('full: every tool as registered, and no more_tools', () => {
    expect(new ToolOffer(registry, 'full').specs()).toEqual(registry.specs());
    expect(registry.specs()).toHaveLength(25);
  });

  test('more_tools adds exactly the tools the compact set held back', () => {
    const offer = new ToolOffer(registry, 'compact');
    const added = offer.expand();
    expect(added.sort()).toEqual(['close_tab', 'go_back', 'go_forward', 'hover', 'hover_at', 'list_tabs', 'open_tab', 'press_key', 'recall_page', 'reload', 'set_checked', 'submit_form', 'switch_tab', 'type_at', 'wait_for']);
    expect(offer.specs()).toEqual(registry.specs());
    expect(offer.expand()).toEqual([]);
  });
});

describe('through the loop, against the scripted server', () => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer({
      models: [
        { name: 'small-model', tools: true, contextLength: 32768, parameterSize: '3.2B' },
        { name: 'large-model', tools: true, contextLength: 32768, parameterSize: '70.6B' },
        { name: 'text-model', tools: false, contextLength: 32768, parameterSize: '3B' },
      ],
    });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  /** The page world's tools, and a key press that only the full set offers. */
  const world = () => {
    const page = pageWorld();
    const pressKey = defineTool({
      name: 'press_key',
      description: 'Press a key in the element with [id].',
      fullOnly: true,
      input: z.object({ key: z.string(), id: z.coerce.number().int() }),
      risk: 'interact',
      timeoutMs: 1000,
      run: async ({ key, id }) => {
        page.log.push(`press ${key} ${id}`);
        return { ok: true, content: `Pressed ${key}.` };
      },
    });
    return { ...page, tools: new ToolRegistry([...page.tools.all(), pressKey]) };
  };
  const task = (model: string, over: Partial<AgentTask> = {}): AgentTask => ({
    conversationId: 'c1',
    model,
    mode: 'auto',
    messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'Search for foxes.' }],
    ...over,
  });
  const nativeTools = (r: RecordedRequest) => (r.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
  const run = (t: AgentTask, w: ReturnType<typeof world>, events: AgentEvent[] = []) =>
    runAgentLoop(t, { router: routerFor(server.url, 'ollama'), tools: w.tools, gate: allowAll, emit: (e) => events.push(e) }, new AbortController().signal);

  test('a 3B model gets the compact set; more_tools adds the rest for the rest of the run', async () => {
    const w = world();
    server.script({ toolCalls: [{ name: MORE_TOOLS, arguments: {} }] }, { toolCalls: [{ name: 'press_key', arguments: { key: 'Enter', id: 2 } }] }, { text: 'Searched.' });
    const events: AgentEvent[] = [];
    expect(await run(task('small-model'), w, events)).toEqual({ kind: 'answered', text: 'Searched.' });

    const [first, second, third] = server.chatRequests();
    expect(nativeTools(first!)).toEqual(['read_page', 'fill', 'click', 'scroll', 'wait_forever', 'done', 'ask_user', MORE_TOOLS]);
    expect(nativeTools(second!)).toEqual(['read_page', 'fill', 'click', 'scroll', 'wait_forever', 'done', 'ask_user', 'press_key']);
    expect(nativeTools(third!)).toEqual(nativeTools(second!));
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'These tools are now available too: press_key. Their descriptions are in your tool list.' });
    expect(w.log).toEqual(['press Enter 2']);
    expect(events.filter((e) => e.type === 'tool_tier')).toEqual([
      { type: 'tool_tier', tier: 'compact', reason: 'small_model' },
      { type: 'tool_tier', tier: 'full', reason: 'asked_for_more' },
      { type: 'tool_tier', tier: 'full', reason: 'asked_for_more' },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool', status: 'done', call: expect.objectContaining({ name: MORE_TOOLS }), previewText: { key: 'previewMoreTools', args: ['1'] } }));
  });

  test('a tool the compact set held back, called anyway, runs and widens the set', async () => {
    const w = world();
    server.script({ toolCalls: [{ name: 'press_key', arguments: { key: 'Enter', id: 2 } }] }, { text: 'Pressed.' });
    await run(task('small-model'), w);
    expect(w.log).toEqual(['press Enter 2']);
    expect(nativeTools(server.chatRequests()[1]!)).toContain('press_key');
  });

  test('a held-back tool called with bad arguments: the repair gives its parameters, and the corrected call runs', async () => {
    const w = world();
    server.script({ toolCalls: [{ name: 'press_key', arguments: { key: 'Enter' } }] }, { toolCalls: [{ name: 'press_key', arguments: { key: 'Enter', id: 2 } }] }, { text: 'Pressed.' });
    await run(task('small-model'), w);
    expect(w.log).toEqual(['press Enter 2']);
    expect(server.chatRequests()[1]!.body.messages.at(-1).content).toMatch(/^Your tool call was not run\. Invalid arguments for press_key: id: .+\npress_key takes press_key\(key: string, id: integer\)\. Call it again with fixed arguments\.$/);
  });

  test('a 70B model and a user\'s "full" setting get every tool from the start', async () => {
    const w = world();
    server.script({ text: 'Hi.' }, { text: 'Hi.' });
    await run(task('large-model'), w);
    await run(task('small-model', { toolTier: 'full' }), w);
    for (const request of server.chatRequests()) expect(nativeTools(request)).toEqual(['read_page', 'fill', 'click', 'scroll', 'wait_forever', 'done', 'ask_user', 'press_key']);
  });

  test('text mode: the catalogue holds the compact set', async () => {
    const w = world();
    server.script({ text: 'Hi.' });
    await run(task('text-model', { mode: 'xml' }), w);
    const system = server.chatRequests()[0]!.body.messages[0].content as string;
    expect(system).toContain(`### ${MORE_TOOLS}`);
    expect(system).not.toContain('### press_key');
  });

  test('a text call to a held-back tool, which the parser reports as unknown, makes it available and says so', () => {
    const offer = new ToolOffer(world().tools, 'compact');
    const message = repairMessage({ kind: 'unknown_tool', name: 'press_key', detail: 'There is no tool named "press_key".', native: false }, offer);
    expect(message).toBe(
      'Your tool call was not run: press_key was not in your tool list. It is now: press_key(key: string, id: integer). Call it again.\nWrite the call as <tool_call>{"name": "TOOL_NAME", "arguments": {…}}</tool_call>.',
    );
    expect(offer.tier).toBe('full');
  });
});
