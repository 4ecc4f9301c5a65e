/**
 * Workflow plans. (1) The orchestrator's overhead per step: a one-step plan run through the plans
 * service, the scheduler, storage, the step runner (tab, run registry, scope) and the composed
 * answer, against the bare agent loop doing the same step with the same messages and tools, in the
 * same run; the model answers at once with return_fields. (2) The wall time of a 10-step plan whose
 * model answers each call after a fixed delay, with 3 steps at a time against one at a time.
 */
import { performance } from 'node:perf_hooks';
import { runAgentLoop } from '../src/background/agent/loop';
import { ConversationStore } from '../src/background/conversations';
import { ModeCache } from '../src/background/llm/capabilities';
import { LlmRouter } from '../src/background/llm/router';
import type { ChatEvent, LlmProvider } from '../src/background/llm/types';
import type { PermissionGate } from '../src/background/permissions/gate';
import { checkPlan, isReadOnly } from '../src/background/plans/check';
import { composeAnswer } from '../src/background/plans/compose';
import { PlanService } from '../src/background/plans/plan-service';
import { PlanStore } from '../src/background/plans/plan-store';
import { createStepRunner } from '../src/background/plans/step-runner';
import { StepTabs } from '../src/background/plans/step-tab';
import { stepTask } from '../src/background/plans/step-task';
import { withStepTools } from '../src/background/plans/step-tools';
import { RunRegistry } from '../src/background/runs/registry';
import { CONTROL_TOOLS } from '../src/background/tools/control';
import { ToolRegistry } from '../src/background/tools/registry';
import type { Plan, PlanStep } from '../src/shared/plan';
import { PlanSettingsSchema } from '../src/shared/plan-settings';
import type { OpenTab } from '../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../src/shared/settings';
import { fmt, printTable, stats } from './lib';

const SAMPLES = 300;
const DELAY_MS = 100;

class MapStorage {
  private readonly data = new Map<string, unknown>();
  async get(key: string) {
    return this.data.has(key) ? { [key]: structuredClone(this.data.get(key)) } : {};
  }
  async set(items: Record<string, unknown>) {
    for (const [k, v] of Object.entries(items)) this.data.set(k, structuredClone(v));
  }
  async remove(key: string) {
    this.data.delete(key);
  }
}

/** A model that returns the step's field at once (or after `delayMs`). */
function scriptedProvider(delayMs: number): LlmProvider {
  let counter = 0;
  return {
    id: 'ollama',
    listModels: async () => [{ id: 'bench' }],
    describeModel: async () => ({ tools: true, contextLength: 131_072, source: 'server' }),
    async *chat(): AsyncGenerator<ChatEvent> {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      yield { type: 'tool_call', call: { id: `c${++counter}`, name: 'return_fields', arguments: { fields: { price: 39.9 }, summary: 'Found it.' } } };
      yield { type: 'done', finishReason: 'tool_calls' };
    },
  };
}

const TABS: OpenTab[] = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, title: `Shop ${i + 1}`, url: `https://shop${i + 1}.example/kettle`, active: i === 0 }));
const gate: PermissionGate = { decide: async () => ({ allowed: true, by: 'policy' }) };
const tools = new ToolRegistry([...CONTROL_TOOLS]);
const step = (i: number): PlanStep => ({ id: `s${i}`, goal: 'Find the kettle price', tab: { kind: 'tab', tabId: i }, dependsOn: [], fields: [{ name: 'price', type: 'number' }], may: [] });

async function world(delayMs: number, concurrency: number) {
  const storage = new MapStorage();
  const router = new LlmRouter({ provider: scriptedProvider(delayMs), modeCache: new ModeCache(storage), cacheKey: (m) => m });
  const conversations = new ConversationStore(storage);
  const conversation = await conversations.create();
  const runs = new RunRegistry();
  const ended = new Map<string, () => void>();
  const runStep = createStepRunner({
    runs,
    session: async () => ({ router, settings: DEFAULT_SETTINGS, model: 'bench' }),
    tools,
    gate,
    tabs: new StepTabs({ get: async (id) => ({ id, ...TABS[id - 1], status: 'complete' }), create: async () => ({ id: 99 }) }, async () => 1),
    waitForLoad: async () => undefined,
    onTabRemoved: () => () => undefined,
    core: { stepTask, withStepTools },
  });
  const service = new PlanService({
    store: new PlanStore(storage),
    conversations,
    emit: (event) => {
      if (event.type === 'plan/updated' && ['done', 'failed', 'stopped'].includes(event.plan.status)) ended.get(event.plan.id)?.();
    },
    settings: async () => PlanSettingsSchema.parse({ concurrency }),
    runStep,
    core: { checkPlan, isReadOnly, composeAnswer },
    runs,
    tabs: { list: async () => TABS, close: async () => undefined },
  });
  /** Proposes and runs `plan`, resolving when it has ended. */
  const runPlan = async (plan: Plan) => {
    const record = await service.propose({ conversationId: conversation.id, messageId: 'm', request: 'bench', plan, tabs: TABS });
    const done = new Promise<void>((resolve) => ended.set(record.id, resolve));
    await service.run(record.id);
    await done;
  };
  return { router, runPlan };
}

async function orchestratorOverhead() {
  const { router, runPlan } = await world(0, 3);
  const bare = async () => {
    const s = step(1);
    const stepTools = withStepTools(tools, s);
    const task = { conversationId: 'bench', model: 'bench', mode: 'native' as const, messages: stepTask(s, { tab: { id: 1, title: TABS[0]!.title, url: TABS[0]!.url }, inputs: {} }), tabId: 1 };
    await runAgentLoop(task, { router, tools: stepTools.tools, gate, emit: () => undefined }, new AbortController().signal);
    if (stepTools.fields()?.price !== 39.9) throw new Error('the bare loop did not return the field');
  };
  const planned = () => runPlan({ title: 'bench', steps: [step(1)] });
  const sample = async (fn: () => Promise<void>) => {
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const start = performance.now();
      await fn();
      samples.push(performance.now() - start);
    }
    return stats(samples);
  };
  await sample(bare); // warm-up
  await sample(planned);
  const direct = await sample(bare);
  const plan = await sample(planned);
  printTable(`Plans: one step through the orchestrator vs the bare agent loop, ${SAMPLES} steps each (model answers at once)`, [
    { what: 'baseline: the agent loop alone (same messages, tools, model)', median: fmt(direct.median), p95: fmt(direct.p95) },
    { what: 'a one-step plan: service, scheduler, storage, step runner, answer', median: fmt(plan.median), p95: fmt(plan.p95) },
    { what: 'orchestrator overhead per step', median: fmt(plan.median - direct.median), p95: fmt(plan.p95 - direct.p95) },
  ]);
}

async function concurrencyWallTime() {
  const plan: Plan = { title: 'Ten shops', steps: Array.from({ length: 10 }, (_, i) => step(i + 1)) };
  const rows: Record<string, string>[] = [];
  for (const concurrency of [3, 1]) {
    const { runPlan } = await world(DELAY_MS, concurrency);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await runPlan(plan);
      times.push(performance.now() - start);
    }
    const s = stats(times);
    rows.push({ what: `10 steps, ${concurrency} at a time`, median: fmt(s.median), p95: fmt(s.p95) });
  }
  printTable(`Plans: wall time of a 10-step plan, each model call answering after ${DELAY_MS} ms (5 runs each)`, rows);
}

async function main() {
  await orchestratorOverhead();
  await concurrencyWallTime();
}

void main();
