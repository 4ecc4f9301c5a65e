import { z } from 'zod';
import { AskingGate } from '../../../src/background/permissions/default-gate';
import { PermissionPrompter } from '../../../src/background/permissions/prompter';
import { defineTool, type Risk } from '../../../src/background/tools/registry';
import type { BgToUiEvent } from '../../../src/shared/protocol';

const toolOf = (name: string, risk: Risk) => defineTool({ name, description: name, input: z.object({}), risk, timeoutMs: 1000, run: async () => ({ ok: true, content: '' }) });
const scope = { conversationId: 'c1', tabId: 1 };

function setup(timeoutMs = 5000, origin = 'https://shop.example') {
  const events: BgToUiEvent[] = [];
  const prompter = new PermissionPrompter((e) => events.push(e), timeoutMs);
  const gate = new AskingGate(prompter, async () => origin);
  const answerNext = (decision: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always') =>
    setTimeout(() => {
      const [request] = prompter.list();
      if (request) prompter.answer(request.id, decision);
    }, 5);
  return { events, prompter, gate, answerNext };
}

test('reading is allowed without asking', async () => {
  const { gate, events } = setup();
  const asked = jest.fn();
  const verdict = await gate.decide({ tool: toolOf('read_page', 'read'), args: {}, call: { id: '1', name: 'read_page', arguments: {} } }, scope, asked, new AbortController().signal);
  expect(verdict).toEqual({ allowed: true, by: 'policy' });
  expect(asked).not.toHaveBeenCalled();
  expect(events).toEqual([]);
});

test('a click asks; "always allow" stops the asking on that site only', async () => {
  const { gate, answerNext, events } = setup();
  const click = { tool: toolOf('click', 'interact'), args: { id: 3, reason: 'open the menu' }, call: { id: '1', name: 'click', arguments: {} } };
  answerNext('allow_always');
  expect(await gate.decide(click, scope, () => undefined, new AbortController().signal)).toEqual({ allowed: true, by: 'user' });
  const request = events.find((e) => e.type === 'permission/requested');
  expect(request).toMatchObject({ request: { tool: 'click', risk: 'interact', origin: 'https://shop.example', reason: 'open the menu', canAllowAlways: true } });
  const asked = jest.fn();
  expect(await gate.decide(click, scope, asked, new AbortController().signal)).toMatchObject({ allowed: true });
  expect(asked).not.toHaveBeenCalled();
});

test('a denial is reported with its reason; no answer in time is a denial', async () => {
  const { gate, answerNext } = setup(50);
  const call = { tool: toolOf('navigate', 'navigate'), args: {}, call: { id: '1', name: 'navigate', arguments: {} } };
  answerNext('reject_once');
  expect(await gate.decide(call, scope, () => undefined, new AbortController().signal)).toEqual({ allowed: false, by: 'user', reason: 'denied by the user' });
  expect(await gate.decide(call, scope, () => undefined, new AbortController().signal)).toEqual({ allowed: false, by: 'timeout', reason: 'no answer in time' });
});

test('a sensitive action never offers "always allow", and an always-allow answer is not remembered for it', async () => {
  const { gate, answerNext, events, prompter } = setup();
  const call = { tool: toolOf('submit_form', 'sensitive'), args: {}, call: { id: '1', name: 'submit_form', arguments: {} } };
  answerNext('allow_always');
  await gate.decide(call, scope, () => undefined, new AbortController().signal);
  expect(events.find((e) => e.type === 'permission/requested')).toMatchObject({ request: { canAllowAlways: false } });
  const asked = jest.fn();
  const pending = gate.decide(call, scope, asked, new AbortController().signal);
  await new Promise((r) => setTimeout(r, 5));
  expect(asked).toHaveBeenCalled();
  prompter.answer(prompter.list()[0]!.id, 'reject_once');
  expect((await pending).allowed).toBe(false);
});

test('Stop while waiting ends the wait and removes the request', async () => {
  const { gate, prompter } = setup();
  const controller = new AbortController();
  const pending = gate.decide({ tool: toolOf('click', 'interact'), args: {}, call: { id: '1', name: 'click', arguments: {} } }, scope, () => undefined, controller.signal);
  await new Promise((r) => setTimeout(r, 5));
  expect(prompter.list()).toHaveLength(1);
  controller.abort();
  expect(await pending).toMatchObject({ allowed: false, reason: 'the task was stopped' });
  expect(prompter.list()).toHaveLength(0);
});
