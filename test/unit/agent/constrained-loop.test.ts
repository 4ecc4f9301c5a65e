/**
 * The agent loop in constrained mode, through the real providers against the scripted server
 * (which refuses any reply that breaks the schema the request carried): the in-memory page
 * changes, and each request shows the model its earlier steps in the shape it was asked for.
 */
import type { AgentEvent } from '../../../src/background/agent/events';
import { runAgentLoop, type AgentTask } from '../../../src/background/agent/loop';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer, type RecordedRequest } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'gemma3:1b', tools: false, contextLength: 32768 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** A fresh task each time: the loop adds to its messages. */
const task = (): AgentTask => ({
  conversationId: 'c1',
  model: 'gemma3:1b',
  mode: 'auto',
  messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'Fill in my email ada@example.com and save.' }],
});

/** The last user turn the model was sent (tool results come back as user turns). */
const lastUserTurn = (r: RecordedRequest) => [...r.body.messages].reverse().find((m: { role: string }) => m.role === 'user')?.content as string;

describe.each(['ollama', 'openai'] as const)('over the %s wire protocol', (api) => {
  test('read, fill, click, then an answer: the page changes, and the answer streams to the user', async () => {
    const world = pageWorld();
    server.script(
      { text: JSON.stringify({ tool: 'read_page', arguments: {} }) },
      (r) => ({ text: JSON.stringify({ tool: 'fill', arguments: { id: lastUserTurn(r).includes('[1] textbox "Email"') ? 1 : 99, text: 'ada@example.com' } }) }),
      { text: JSON.stringify({ tool: 'click', arguments: { id: 3 } }) },
      { text: JSON.stringify({ answer: 'Saved your email.' }), chunkSize: 4 },
    );
    const events: AgentEvent[] = [];
    const outcome = await runAgentLoop(task(), { router: routerFor(server.url, api), tools: world.tools, gate: allowAll, emit: (e) => events.push(e) }, new AbortController().signal);

    expect(world.fields[1]).toBe('ada@example.com');
    expect(world.log).toEqual(['fill 1 ada@example.com', 'click 3']);
    expect(outcome).toEqual({ kind: 'answered', text: 'Saved your email.' });
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(2);
    expect(events).toContainEqual({ type: 'tool_mode', mode: 'constrained', reason: api === 'ollama' ? 'model_has_no_tools' : 'rejected' });
    expect(server.schemaViolations).toEqual([]);

    // The last request: the model's own steps as step objects, the results as user turns.
    const last = server.chatRequests().at(-1)!.body.messages as { role: string; content: string }[];
    expect(last.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      '{"tool":"read_page","arguments":{}}',
      '{"tool":"fill","arguments":{"id":1,"text":"ada@example.com"}}',
      '{"tool":"click","arguments":{"id":3}}',
    ]);
    expect(last.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/^Result of click:\n/) });
  });
});
