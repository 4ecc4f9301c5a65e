/**
 * The agent loop's own overhead per step: everything except model and tool time. A provider that
 * answers at once with one tool call, and a tool that returns at once, are driven through the
 * real loop (router, validation, guards, gate, compaction, events); the baseline calls the same
 * provider and tool directly. 1,008 timed steps: 42 tasks of 25 steps, the first step of each
 * task untimed.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { runAgentLoop } from '../src/background/agent/loop';
import type { PermissionGate } from '../src/background/permissions/gate';
import { ModeCache } from '../src/background/llm/capabilities';
import { LlmRouter } from '../src/background/llm/router';
import type { ChatEvent, LlmProvider } from '../src/background/llm/types';
import { defineTool, ToolRegistry } from '../src/background/tools/registry';
import { fmt, printTable, stats } from './lib';

const TASKS = 42;
const STEPS = 25;

let counter = 0;
const provider: LlmProvider = {
  id: 'ollama',
  listModels: async () => [{ id: 'bench' }],
  describeModel: async () => ({ tools: true, contextLength: 131_072, source: 'server' }),
  async *chat(): AsyncGenerator<ChatEvent> {
    counter++;
    yield { type: 'text', delta: 'Filling the next field.' };
    yield { type: 'tool_call', call: { id: `c${counter}`, name: 'fill', arguments: { id: counter, text: `value ${counter}` } } };
    yield { type: 'done', finishReason: 'tool_calls' };
  },
};
const fill = defineTool({
  name: 'fill',
  description: 'Type into a field',
  input: z.object({ id: z.number(), text: z.string() }),
  risk: 'interact',
  timeoutMs: 5000,
  run: async ({ id }) => ({ ok: true, content: `Typed into field ${id}; it now holds the value.` }),
});
const tools = new ToolRegistry([fill]);
const gate: PermissionGate = { decide: async () => ({ allowed: true, by: 'policy' }) };
const storage = { data: {} as Record<string, unknown>, async get(k: string) { return { [k]: this.data[k] }; }, async set(items: Record<string, unknown>) { Object.assign(this.data, items); }, async remove(k: string) { delete this.data[k]; } };
const router = new LlmRouter({ provider, modeCache: new ModeCache(storage), cacheKey: (m) => m });

async function loopSteps(): Promise<number[]> {
  const samples: number[] = [];
  for (let task = 0; task < TASKS; task++) {
    let last = performance.now();
    await runAgentLoop(
      { conversationId: 'bench', model: 'bench', mode: 'native', messages: [{ role: 'system', content: 'You are a bench.' }, { role: 'user', content: 'Fill every field.' }], limits: { stepLimit: STEPS } },
      {
        router,
        tools,
        gate,
        emit: (event) => {
          if (event.type !== 'step' || event.step === 1) return;
          const now = performance.now();
          samples.push(now - last);
          last = now;
        },
      },
      new AbortController().signal,
    );
  }
  return samples;
}

async function directSteps(): Promise<number[]> {
  const samples: number[] = [];
  const signal = new AbortController().signal;
  for (let i = 0; i < TASKS * (STEPS - 1); i++) {
    const start = performance.now();
    for await (const event of provider.chat({ model: 'bench', messages: [] }, signal)) {
      if (event.type === 'tool_call') await fill.run(event.call.arguments as { id: number; text: string }, { signal, conversationId: 'bench', task: { openedTabs: new Set() } });
    }
    samples.push(performance.now() - start);
  }
  return samples;
}

async function main() {
  await loopSteps(); // warm-up
  await directSteps();
  const loop = stats(await loopSteps());
  const direct = stats(await directSteps());
  printTable(`Agent loop: time per step, ${loop.runs} steps (${TASKS} tasks of ${STEPS} steps; the first step of each is not timed)`, [
    { what: 'baseline: provider + tool called directly', median: fmt(direct.median), p95: fmt(direct.p95) },
    { what: 'through the agent loop', median: fmt(loop.median), p95: fmt(loop.p95) },
    { what: 'loop overhead per step', median: fmt(loop.median - direct.median), p95: fmt(loop.p95 - direct.p95) },
  ]);
}

void main();
