/**
 * A turn that makes a plan, through the chat service and its TurnRunner, the real router and
 * providers on the scripted server, and a plans service stand-in that records what it was given.
 */
import { ChatService } from '../../../src/background/chat-service';
import { ConversationStore } from '../../../src/background/conversations';
import type { PlanStarter } from '../../../src/background/plans/control';
import { PROPOSE_PLAN } from '../../../src/background/plans/plan-shape';
import type { RunOrigin } from '../../../src/background/runs/registry';
import type { AssistantMessage } from '../../../src/shared/conversation';
import type { PlanRecord } from '../../../src/shared/plan';
import type { BgToUiEvent, OpenTab } from '../../../src/shared/protocol';
import { DEFAULT_SETTINGS } from '../../../src/shared/settings';
import { allowAll, pageWorld, routerFor } from '../../support/agent-fixtures';
import { settled } from '../../support/chat-over-pages';
import { startLlmServer, type LlmServer } from '../../support/llm-server';
import { MemoryStorage } from '../../support/memory-storage';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: [{ name: 'qwen3:4b', tools: true, contextLength: 32768 }] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const tabs: OpenTab[] = [
  { id: 3, title: 'Kettle – Shop A', url: 'https://shop-a.example/kettle', active: true },
  { id: 7, title: 'Kettle – Shop B', url: 'https://shop-b.example/p/42', active: false },
  { id: 9, title: 'Kettle – Shop C', url: 'https://shop-c.example/k', active: false },
];

const proposed = {
  title: 'Compare the kettle on three shops',
  steps: tabs.map((t, i) => ({ id: 'abc'[i]!, goal: `Read the price in tab ${t.id}`, tab: { kind: 'tab', tabId: t.id }, fields: [{ name: 'price', type: 'number' }] })),
};

/** Records each proposal and answers with a record in the given state. */
function recordingStarter(status: PlanRecord['status'] = 'proposed') {
  const got: Parameters<PlanStarter['propose']>[0][] = [];
  const starter: PlanStarter = {
    async propose(input) {
      got.push(input);
      return { id: 'plan-1', conversationId: input.conversationId, messageId: input.messageId, request: input.request, plan: input.plan, status, steps: [], readOnly: true, openedTabs: [], createdAt: 1, updatedAt: 1 };
    },
  };
  return { starter, got };
}

function setup(plans?: PlanStarter) {
  const store = new ConversationStore(new MemoryStorage());
  const events: BgToUiEvent[] = [];
  const world = pageWorld();
  const chat = new ChatService({
    store,
    emit: (e) => events.push(e),
    session: async () => ({ router: routerFor(server.url, 'openai'), settings: { ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, baseUrl: server.url, model: 'qwen3:4b' } }, model: 'qwen3:4b' }),
    tools: world.tools,
    gate: allowAll,
    page: { context: async () => ({ tabId: 3, page: { title: 'Kettle – Shop A', url: 'https://shop-a.example/kettle', body: 'Kettle €49' } }), tabs: async () => tabs },
    ...(plans ? { plans } : {}),
    saveIntervalMs: 0,
  });
  return { store, events, chat, world };
}

async function send(chat: ChatService, store: ConversationStore, text: string, origin: RunOrigin = 'sidebar', about: { plan?: boolean } = {}) {
  const conversation = await store.create();
  await chat.send(conversation.id, text, origin, about);
  await settled(chat, conversation.id);
  return (await store.get(conversation.id))!;
}

test.each(['sidebar', 'voice'] as const)('from the %s: a multi-tab request is planned over the open tabs and proposed for the assistant message, which shows the card and says so', async (origin) => {
  const { starter, got } = recordingStarter();
  const { store, chat } = setup(starter);
  server.script({ toolCalls: [{ name: PROPOSE_PLAN, arguments: proposed }] });
  const conversation = await send(chat, store, 'Compare the price of this kettle on these three shops', origin);

  expect(server.chatRequests()).toHaveLength(1);
  expect(server.chatRequests()[0]!.body.messages[0].content).toContain('- tabId=9 "Kettle – Shop C" https://shop-c.example/k');
  const [user, assistant] = conversation.messages as [unknown, AssistantMessage];
  expect(conversation.messages).toHaveLength(2);
  expect(user).toMatchObject({ role: 'user', intent: { kind: 'plan', by: 'rules' } });
  expect(got).toHaveLength(1);
  expect(got[0]).toEqual({ conversationId: conversation.id, messageId: assistant.id, request: 'Compare the price of this kettle on these three shops', plan: expect.objectContaining({ title: proposed.title }), tabs });
  expect(got[0]!.plan.steps.map((s) => s.tab)).toEqual(tabs.map((t) => ({ kind: 'tab', tabId: t.id })));
  expect(assistant).toMatchObject({ role: 'assistant', planId: 'plan-1', status: 'complete', content: 'I made a plan of 3 steps: Compare the kettle on three shops. Check it below, then run it.' });
  expect(assistant.said).toEqual([{ key: 'planProposed', args: ['3', 'Compare the kettle on three shops'] }]);
});

test('the Plan toggle makes any message a plan; a plan that started at once says it is running', async () => {
  const { starter, got } = recordingStarter('running');
  const { store, chat } = setup(starter);
  const one = { title: 'Read the kettle\'s price', steps: [proposed.steps[0]] };
  server.script({ toolCalls: [{ name: PROPOSE_PLAN, arguments: one }] });
  const conversation = await send(chat, store, 'What does the kettle cost?', 'sidebar', { plan: true });
  expect(conversation.messages[0]).toMatchObject({ intent: { kind: 'plan', reason: 'the user asked for a plan' } });
  expect(got[0]!.plan.steps).toHaveLength(1);
  expect(conversation.messages[1]).toMatchObject({ planId: 'plan-1', said: [{ key: 'planRunningOne', args: ['Read the kettle\'s price'] }] });
});

test('a plan that stays invalid fails with plan_invalid: nothing is proposed and the user\'s text comes back', async () => {
  const { starter, got } = recordingStarter();
  const { store, chat, events } = setup(starter);
  const invalid = { title: 'x', steps: [{ id: 'a', goal: 'Read', tab: { kind: 'tab', tabId: 99 } }] };
  server.script({ toolCalls: [{ name: PROPOSE_PLAN, arguments: invalid }] }, { toolCalls: [{ name: PROPOSE_PLAN, arguments: invalid }] });
  const text = 'For each open tab about kettles, collect the price';
  const conversation = await send(chat, store, text);
  expect(got).toEqual([]);
  expect(server.chatRequests()).toHaveLength(2);
  expect(conversation.messages[0]).toMatchObject({ role: 'user', content: text });
  expect(conversation.messages[1]).toMatchObject({ role: 'assistant', status: 'error', error: { code: 'plan_invalid', text: { message: { key: 'errorPlanInvalid' }, hint: { key: 'hintPlanInvalid' } } } });
  expect(events).toContainEqual({ type: 'chat/error', conversationId: conversation.id, error: expect.objectContaining({ code: 'plan_invalid' }), unsentText: text });
});

test('without a plans service, a multi-tab request runs as an action does: the agent loop with the page tools', async () => {
  const { store, chat } = setup();
  server.script({ toolCalls: [{ name: 'done', arguments: { summary: 'Compared.' } }] });
  const conversation = await send(chat, store, 'Compare the price of this kettle on these three shops');
  const [request] = server.chatRequests();
  const offered = (request!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  expect(offered).toContain('read_page');
  expect(offered).not.toContain(PROPOSE_PLAN);
  expect(conversation.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Compared.' });
});

test('Stop while the planner is thinking ends the turn as stopped: nothing is proposed, no error', async () => {
  const { starter, got } = recordingStarter();
  const { store, chat, events } = setup(starter);
  server.script({ toolCalls: [{ name: PROPOSE_PLAN, arguments: proposed }], delayMs: 300 });
  const conversation = await store.create();
  await chat.send(conversation.id, 'Compare the price of this kettle on these three shops');
  for (let i = 0; i < 100 && !server.chatRequests().length; i++) await new Promise((r) => setTimeout(r, 5));
  expect(chat.stop(conversation.id)).toBe(true);
  await settled(chat, conversation.id);
  expect(got).toEqual([]);
  expect(events.filter((e) => e.type === 'chat/error')).toEqual([]);
  const saved = (await store.get(conversation.id))!;
  expect(saved.messages.map((m) => m.role)).toEqual(['user']);
});
