/**
 * The page layer's half of "the gate sees what runs": the gate's inspection is kept for the call
 * it was made for, and the action is sent with it (snapshot, document, origin, element) in one
 * message; an action nobody inspected is not sent at all.
 */
import { ELEMENT_TOOLS, TabAgent, type TabsApi } from '../../../src/background/page/tab-agent';
import { createPageTools } from '../../../src/background/tools/page';
import { createVisionTools } from '../../../src/background/tools/vision';
import { PAGE_AGENT_VERSION, type ContentRequest } from '../../../src/shared/content-protocol';

function fakeTabs(answers: Partial<Record<ContentRequest['type'], unknown>>) {
  const sent: ContentRequest[] = [];
  const tabs: TabsApi = {
    get: async (id) => ({ id, url: 'https://shop.example/' }),
    executeScript: async () => [],
    sendMessage: async (_tab, message) => {
      const request = message as ContentRequest;
      if (request.type === 'page/ping') return { value: { version: PAGE_AGENT_VERSION, mutations: 0, url: 'https://shop.example/' } };
      sent.push(request);
      return { value: answers[request.type] };
    },
  };
  return { tabs, sent };
}

const ref = { snapshot: 'nonce-2', doc: 'doc-1', origin: 'https://shop.example' };
const target = { tag: 'button', role: 'button', name: 'Show more' };

test('the inspection uses the latest snapshot read, and the action carries what was inspected', async () => {
  const { tabs, sent } = fakeTabs({ 'page/read': { snapshot: { url: 'https://shop.example/', title: '', text: '', elements: [], frames: [], truncated: { text: false, elements: false, totalTextChars: 0, totalElements: 0 }, nonce: 'nonce-2', source: 'visible-text' }, rendered: '', mutations: 0 }, 'page/inspect': { ref, target }, 'page/act': { message: 'Clicked.', url: 'https://shop.example/' } });
  const agent = new TabAgent(tabs);
  await agent.request(7, { type: 'page/read', options: {} });
  const args = { id: 3 };
  expect(await agent.inspect(7, { tool: 'click', args })).toEqual(target);
  await agent.act(7, args, { action: 'click', id: 3 });
  expect(sent.slice(1)).toEqual([
    { type: 'page/inspect', snapshot: 'nonce-2', id: 3, key: undefined },
    { type: 'page/act', act: { action: 'click', id: 3 }, expect: { ...ref, target } },
  ]);
});

test('an action the gate did not inspect, or inspected for another call or tab, is not sent', async () => {
  const { tabs, sent } = fakeTabs({ 'page/inspect': { ref, target } });
  const agent = new TabAgent(tabs);
  await expect(agent.act(7, { id: 3 }, { action: 'click', id: 3 })).rejects.toThrow(/not checked/);
  const args = { id: 3 };
  await agent.inspect(7, { tool: 'click', args });
  await expect(agent.act(7, { id: 3 }, { action: 'click', id: 3 })).rejects.toThrow(/not checked/);
  await expect(agent.act(8, args, { action: 'click', id: 3 })).rejects.toThrow(/another tab/);
  // An inspection is used once.
  await expect(agent.act(7, args, { action: 'click', id: 3 })).rejects.toThrow(/not checked/);
  expect(sent.filter((r) => r.type === 'page/act')).toEqual([]);
});

test('a failed inspection is the action’s answer, and nothing is sent', async () => {
  const tabs: TabsApi = {
    get: async (id) => ({ id, url: 'https://shop.example/' }),
    executeScript: async () => [],
    sendMessage: async (_tab, message) =>
      (message as ContentRequest).type === 'page/ping' ? { value: { version: PAGE_AGENT_VERSION } } : { error: { code: 'stale', message: 'Element [3] comes from an older reading of the page.' } },
  };
  const agent = new TabAgent(tabs);
  const args = { id: 3 };
  await expect(agent.inspect(7, { tool: 'click', args })).rejects.toThrow(/older reading/);
  await expect(agent.act(7, args, { action: 'click', id: 3 })).rejects.toThrow(/older reading/);
});

test('every page tool that acts is inspected by the gate', () => {
  const deps = { agent: {} as never, reader: {} as never, tabs: {} as never };
  const tools = [...createPageTools(deps), ...createVisionTools(deps)].filter((t) => t.risk !== 'read');
  expect(tools.map((t) => t.name).sort()).toEqual([...ELEMENT_TOOLS].sort());
});

test('a point is inspected in the latest screenshot, and the action runs on the element the page agent found there, at that point', async () => {
  const view = { width: 1280, height: 800, scrollX: 0, scrollY: 0, dpr: 1 };
  const { tabs, sent } = fakeTabs({ 'page/inspect': { ref, target, pointed: { id: 9, at: { x: 510, y: 165 } } }, 'page/act': { message: 'Clicked.', url: 'https://shop.example/' } });
  const agent = new TabAgent(tabs);
  const args = { x: 510, y: 165 };
  // Before any screenshot there is nothing to point in: the page is not asked.
  await expect(agent.inspect(7, { tool: 'click_at', args })).rejects.toMatchObject({ code: 'no_screenshot' });
  expect(sent).toEqual([]);
  agent.rememberScreenshot(7, { image: { width: 1280, height: 800 }, view });
  expect(await agent.inspect(7, { tool: 'click_at', args })).toEqual(target);
  const found = agent.pointed(args)!;
  expect(found).toEqual({ id: 9, at: { x: 510, y: 165 } });
  await agent.act(7, args, { action: 'click', id: found.id, at: found.at });
  expect(sent).toEqual([
    { type: 'page/inspect', snapshot: '', id: undefined, key: undefined, point: { x: 510, y: 165, image: { width: 1280, height: 800 }, view } },
    { type: 'page/act', act: { action: 'click', id: 9, at: { x: 510, y: 165 } }, expect: { ...ref, target } },
  ]);
  // A new document forgets the screenshot: its points mean nothing there.
  agent.onDocumentChange(7);
  await expect(agent.inspect(7, { tool: 'click_at', args: { x: 1, y: 1 } })).rejects.toMatchObject({ code: 'no_screenshot' });
});

test('a mark is inspected as the element id it is', async () => {
  const { tabs, sent } = fakeTabs({ 'page/inspect': { ref, target } });
  const agent = new TabAgent(tabs);
  const args = { mark: 4 };
  await agent.inspect(7, { tool: 'hover_at', args });
  expect(sent).toEqual([{ type: 'page/inspect', snapshot: '', id: 4, key: undefined }]);
  expect(agent.pointed(args)).toEqual({ id: 4 });
});
