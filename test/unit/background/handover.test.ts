/**
 * A hand-over's need is the model's words, which a page can steer ("enter your bank password"):
 * the request names the site of the tab it brings to the front, read from the tab when the task
 * hands over; a task stopped before that is neither announced nor focused.
 */
import { HandOverRegistry } from '../../../src/background/handover';
import type { BgToUiEvent } from '../../../src/shared/protocol';

function registry(site: () => Promise<string | undefined>) {
  const events: BgToUiEvent[] = [];
  const focused: number[] = [];
  const handovers = new HandOverRegistry((e) => events.push(e), async (id) => void focused.push(id), site);
  return { events, focused, handovers };
}

test('the hand-over names the site its tab is on; Continue ends it', async () => {
  const t = registry(async () => 'https://evil.example');
  const waiting = t.handovers.wait({ runId: 'run-1', conversationId: 'c', tabId: 5, need: 'Enter your bank password' }, new AbortController().signal);
  await new Promise((r) => setTimeout(r, 0));
  expect(t.events).toEqual([{ type: 'handover/requested', request: expect.objectContaining({ tabId: 5, site: 'https://evil.example', need: 'Enter your bank password' }) }]);
  expect(t.handovers.pending()[0]).toMatchObject({ site: 'https://evil.example' });
  expect(t.focused).toEqual([5]);
  expect(t.handovers.continue(t.handovers.pending()[0]!.id)).toBe(true);
  expect(await waiting).toBe(true);
});

test('stopped before its site is known: never announced, its tab never brought to the front', async () => {
  let answer!: (site: string) => void;
  const t = registry(() => new Promise((resolve) => (answer = resolve)));
  const controller = new AbortController();
  const waiting = t.handovers.wait({ runId: 'run-1', conversationId: 'c', tabId: 5, need: 'Solve the captcha' }, controller.signal);
  controller.abort();
  expect(await waiting).toBe(false);
  answer('https://shop.example');
  await new Promise((r) => setTimeout(r, 0));
  expect(t.events.map((e) => e.type)).toEqual(['handover/resolved']);
  expect(t.focused).toEqual([]);
  expect(t.handovers.pending()).toEqual([]);
});

test('a tab whose site cannot be read: the need alone, still announced and focused', async () => {
  const t = registry(() => Promise.reject(new Error('No tab with id 5')));
  void t.handovers.wait({ runId: 'run-1', conversationId: 'c', tabId: 5, need: 'Solve the captcha' }, new AbortController().signal);
  await new Promise((r) => setTimeout(r, 0));
  expect(t.events).toHaveLength(1);
  expect(t.events[0]).toMatchObject({ type: 'handover/requested', request: { tabId: 5, need: 'Solve the captcha' } });
  expect((t.events[0] as Extract<BgToUiEvent, { type: 'handover/requested' }>).request.site).toBeUndefined();
  expect(t.focused).toEqual([5]);
});
