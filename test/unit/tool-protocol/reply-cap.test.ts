/**
 * A reply is read up to a cap (256 KB): past it FoxAgent stops reading, keeps what was shown, says
 * the reply was cut, and acts on nothing the reply asked for.
 */
import type { AgentEvent } from '../../../src/background/agent/events';
import { runAgentLoop } from '../../../src/background/agent/loop';
import { LlmError } from '../../../src/background/llm/errors';
import { MAX_REPLY_CHARS } from '../../../src/background/llm/router';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
});
afterAll(() => server.close());

test('a reply past the cap is cut with a clear error, and the call at its end is not run', async () => {
  const line = 'The page goes on and on about nothing in particular, at length.\n';
  const huge = `${line.repeat(Math.ceil((300 * 1024) / line.length))}<click id="3" />`;
  server.script({ text: huge });
  const world = pageWorld();
  const events: AgentEvent[] = [];
  const run = runAgentLoop(
    { conversationId: 'c1', model: 'qwen3:4b', mode: 'native', messages: [{ role: 'user', content: 'Summarise the page.' }] },
    { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: (e) => events.push(e) },
    new AbortController().signal,
  );
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(LlmError);
  expect((error as LlmError).message).toMatch(/longer than 256 KB/);
  expect(world.log).toEqual([]);
  const shown = events.filter((e): e is Extract<AgentEvent, { type: 'text' }> => e.type === 'text').map((e) => e.delta).join('');
  expect(shown.length).toBeGreaterThan(200 * 1024);
  expect(shown.length).toBeLessThanOrEqual(MAX_REPLY_CHARS);
  expect(shown.startsWith(line)).toBe(true);
});

test('native calls count towards the cap too: a call with 300 KB of arguments is not run', async () => {
  server.script({ toolCalls: [{ name: 'fill', arguments: { id: 1, text: 'x'.repeat(300 * 1024) } }] });
  const world = pageWorld();
  const run = runAgentLoop(
    { conversationId: 'c1', model: 'qwen3:4b', mode: 'native', messages: [{ role: 'user', content: 'Fill in the form.' }] },
    { router: routerFor(server.url, 'ollama'), tools: world.tools, gate: allowAll, emit: () => undefined },
    new AbortController().signal,
  );
  const error = await run.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(LlmError);
  expect((error as LlmError).message).toMatch(/longer than 256 KB/);
  expect(world.log).toEqual([]);
  expect(world.fields[1]).toBe('');
});
