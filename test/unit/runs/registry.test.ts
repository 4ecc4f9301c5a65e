/**
 * Runs are first-class: started, listed and stopped through one registry, from several sources
 * at once, each with its own signal and permission scope; one run at a time per conversation.
 */
import { RunConflict, RunRegistry } from '../../../src/background/runs/registry';
import { routeTurn } from '../../../src/background/runs/turn-router';

/** Work that ends when its run is stopped, and says how it ended. */
const untilStopped = (ended: string[]) => (run: { id: string; signal: AbortSignal }) =>
  new Promise<void>((resolve) => run.signal.addEventListener('abort', () => (ended.push(run.id), resolve()), { once: true }));

test('runs from two sources at once are listed with their origins; stopping one leaves the other running', async () => {
  const runs = new RunRegistry(() => 1000);
  const ended: string[] = [];
  const chat = runs.start({ origin: 'sidebar', conversationId: 'conv-a' }, untilStopped(ended));
  const voice = runs.start({ origin: 'voice', conversationId: 'conv-b', budget: { steps: 3 } }, untilStopped(ended));
  expect(runs.list()).toEqual([
    { id: chat.id, origin: 'sidebar', conversationId: 'conv-a', startedAt: 1000 },
    { id: voice.id, origin: 'voice', conversationId: 'conv-b', startedAt: 1000 },
  ]);
  expect(voice.budget).toEqual({ steps: 3 });
  expect(chat.scope).not.toBe(voice.scope);

  expect(runs.stop(voice.id)).toBe(true);
  await new Promise((r) => setTimeout(r, 0));
  expect(ended).toEqual([voice.id]);
  expect(voice.signal.aborted).toBe(true);
  expect(chat.signal.aborted).toBe(false);
  expect(runs.list().map((r) => r.id)).toEqual([chat.id]);

  expect(runs.stopConversation('conv-a')).toBe(true);
  await new Promise((r) => setTimeout(r, 0));
  expect(runs.list()).toEqual([]);
  expect(runs.stop(chat.id)).toBe(false);
});

test('a conversation has one run at a time; it is free again once its run ends, even by failing', async () => {
  const runs = new RunRegistry();
  let finish!: () => void;
  runs.start({ origin: 'sidebar', conversationId: 'conv-a' }, () => new Promise<void>((r) => (finish = r)));
  expect(() => runs.open({ origin: 'voice', conversationId: 'conv-a' })).toThrow(RunConflict);
  expect(runs.busy('conv-a')).toBe(true);
  finish();
  await new Promise((r) => setTimeout(r, 0));
  expect(runs.busy('conv-a')).toBe(false);
  runs.start({ origin: 'procedure', conversationId: 'conv-a' }, async () => {
    throw new Error('the work failed');
  });
  await new Promise((r) => setTimeout(r, 0));
  expect(runs.busy('conv-a')).toBe(false);
});

test('the turn router sends actions to the agent loop and everything else to one answer', () => {
  expect(routeTurn({ kind: 'action', reason: '', by: 'rules' })).toBe('agent');
  for (const kind of ['question', 'summarize', 'chat', 'follow_up'] as const) expect(routeTurn({ kind, reason: '', by: 'rules' })).toBe('answer');
});

test('subscribers hear the whole list each time a run starts or ends, and not after unsubscribing', async () => {
  const runs = new RunRegistry(() => 5);
  const heard: string[][] = [];
  const unsubscribe = runs.subscribe((list) => heard.push(list.map((r) => `${r.origin}:${r.conversationId}`)));
  let finish!: () => void;
  runs.start({ origin: 'sidebar', conversationId: 'conv-a' }, () => new Promise<void>((r) => (finish = r)));
  const voice = runs.open({ origin: 'voice', conversationId: 'conv-b' });
  finish();
  await new Promise((r) => setTimeout(r, 0));
  expect(heard).toEqual([['sidebar:conv-a'], ['sidebar:conv-a', 'voice:conv-b'], ['voice:conv-b']]);
  unsubscribe();
  runs.close(voice.id);
  runs.close(voice.id);
  expect(heard).toHaveLength(3);
});

test('a run given tabs carries them in its permission scope; a run given none may use any tab', () => {
  const runs = new RunRegistry();
  expect([...(runs.open({ origin: 'workflow_step', conversationId: 'plan', tabs: [4, 9] }).scope.allowedTabs ?? [])]).toEqual([4, 9]);
  expect(runs.open({ origin: 'sidebar', conversationId: 'chat' }).scope.allowedTabs).toBeUndefined();
});

test("a plan's steps share their conversation; a normal turn there conflicts, and Stop in the chat stops every step", async () => {
  const runs = new RunRegistry();
  const ended: string[] = [];
  const first = runs.start({ origin: 'workflow_step', conversationId: 'conv-a', group: 'plan-1' }, untilStopped(ended));
  const second = runs.start({ origin: 'workflow_step', conversationId: 'conv-a', group: 'plan-1' }, untilStopped(ended));
  expect(second.group).toBe('plan-1');
  expect(() => runs.open({ origin: 'sidebar', conversationId: 'conv-a' })).toThrow(RunConflict);
  expect(() => runs.open({ origin: 'workflow_step', conversationId: 'conv-a', group: 'plan-2' })).toThrow(RunConflict);
  expect(runs.busy('conv-a')).toBe(true);
  expect(runs.stopConversation('conv-a')).toBe(true);
  await new Promise((r) => setTimeout(r, 0));
  expect(ended.sort()).toEqual([first.id, second.id].sort());
  expect(runs.busy('conv-a')).toBe(false);
  // A turn running in the chat keeps a plan's steps out too.
  runs.open({ origin: 'sidebar', conversationId: 'conv-b' });
  expect(() => runs.open({ origin: 'workflow_step', conversationId: 'conv-b', group: 'plan-3' })).toThrow(RunConflict);
});
