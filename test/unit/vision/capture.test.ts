/**
 * The screenshot's path in the background, with the browser's tabs and the canvas given as plain
 * functions: only the working tab, at the size it is sent, and each fault a result the model can
 * act on. The vision tools reach only models that take images, and a screenshot of a site the
 * user marked sensitive is asked first.
 */
import { captureWithMarks, type CaptureDeps } from '../../../src/background/vision/capture';
import { offeredTools } from '../../../src/background/vision/offer';
import { PageError } from '../../../src/background/page/tab-agent';
import { tierOf } from '../../../src/background/permissions/tiers';
import { evaluate } from '../../../src/background/permissions/engine';
import { createToolRegistry, type ToolDeps } from '../../../src/background/tools';
import type { PageLook } from '../../../src/shared/vision';
import { callFacts } from '../../support/call-facts';

const pageLook: PageLook = {
  view: { width: 1000, height: 700, scrollX: 0, scrollY: 120, dpr: 2 },
  marks: [{ id: 4, role: 'button', name: 'Add to cart', rect: { x: 100, y: 50, width: 80, height: 20 } }],
  textChars: 10,
  visualShare: 0.8,
};

function world(tab: { url?: string; active?: boolean; windowId?: number }, capture: () => Promise<string> = () => Promise.resolve('data:image/jpeg;base64,/9j/')) {
  const calls: { windowId?: number; options: object }[] = [];
  const remembered: unknown[] = [];
  const drawn: { type: string; size: object; marks: unknown }[] = [];
  const deps: CaptureDeps = {
    tabs: {
      get: () => Promise.resolve({ id: 5, ...tab }),
      captureVisibleTab: (windowId, options) => (calls.push({ windowId, options }), capture()),
    },
    agent: { request: (() => Promise.resolve(pageLook)) as unknown as CaptureDeps['agent']['request'], rememberScreenshot: (_tabId, shot) => void remembered.push(shot) },
    encode: async (blob, layout) => {
      const size = { width: 1280, height: 896 };
      drawn.push({ type: blob.type, size, marks: layout(size) });
      return { data: 'AAAA', bytes: 3, ...size };
    },
  };
  return { deps, calls, remembered, drawn };
}

test('the working tab is captured as JPEG at the size it is sent, its marks laid out for that size, and its geometry kept for points', async () => {
  const w = world({ url: 'https://shop.example/', active: true, windowId: 9 });
  const shot = await captureWithMarks(5, w.deps);
  // 1000 CSS px at ratio 2 would be 2000 px: the browser is asked for 1280 / 1000 = 1.28 device pixels per CSS pixel.
  expect(w.calls).toEqual([{ windowId: 9, options: { format: 'jpeg', quality: 85, scale: 1.28 } }]);
  expect(w.drawn).toEqual([{ type: 'image/jpeg', size: { width: 1280, height: 896 }, marks: [{ id: 4, box: { x: 128, y: 64, width: 102.4, height: 25.6 }, label: expect.any(Object) }] }]);
  expect(w.remembered).toEqual([{ image: { width: 1280, height: 896 }, view: pageLook.view }]);
  expect(shot.image).toMatchObject({ width: 1280, height: 896 });
});

test('a small viewport is not enlarged: the browser’s own ratio is the scale', async () => {
  const w = world({ url: 'https://shop.example/', active: true, windowId: 1 });
  (w.deps.agent as { request: unknown }).request = () => Promise.resolve({ ...pageLook, view: { ...pageLook.view, width: 400, height: 300, dpr: 1.5 } });
  await captureWithMarks(5, w.deps);
  expect(w.calls[0]!.options).toMatchObject({ scale: 1.5 });
});

test.each([
  ['a restricted page', { url: 'about:config', active: true }, 'restricted_page', /cannot .*|screenshots of it/],
  ['a tab in the background', { url: 'https://shop.example/', active: false }, 'tab_not_visible', /switch_tab/],
])('%s: no capture, and a result that says what to do', async (_what, tab, code, words) => {
  const w = world(tab);
  const error = await captureWithMarks(5, w.deps).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PageError);
  expect(error).toMatchObject({ code, message: expect.stringMatching(words) });
  expect(w.calls).toEqual([]);
});

test('the browser refusing the capture becomes a result pointing back to read_page', async () => {
  const w = world({ url: 'https://shop.example/', active: true }, () => Promise.reject(new Error('Missing host permission')));
  await expect(captureWithMarks(5, w.deps)).rejects.toMatchObject({ code: 'capture_refused', message: expect.stringContaining('Work from read_page') });
});

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used in this test')) });
const registry = createToolRegistry({ agent: unused, reader: unused, tabs: unused } as unknown as ToolDeps);

test('a model without vision is neither offered nor able to call the vision tools', () => {
  const plain = offeredTools(registry, { vision: false, contextLength: 128_000 });
  const unknown = offeredTools(registry, { contextLength: 128_000 });
  // A vision model whose window could not hold a screenshot beside the task keeps to text too.
  const cramped = offeredTools(registry, { vision: true, contextLength: 2048 });
  for (const tools of [plain, unknown, cramped]) {
    expect(tools.names.filter((n) => ['look', 'click_at', 'type_at', 'hover_at'].includes(n))).toEqual([]);
    expect(tools.validate({ id: 'c1', name: 'look', arguments: {} })).toMatchObject({ ok: false, error: expect.stringContaining('There is no tool named "look"') });
  }
  expect(offeredTools(registry, { vision: true, contextLength: 8192 }).names).toEqual(expect.arrayContaining(['look', 'click_at', 'type_at', 'hover_at', 'click']));
});

test('acting by mark or point takes one target: a mark, or both x and y', () => {
  const tools = offeredTools(registry, { vision: true, contextLength: 8192 });
  expect(tools.validate({ id: 'c', name: 'click_at', arguments: { mark: '[4]' } })).toMatchObject({ ok: true, args: { mark: 4 } });
  expect(tools.validate({ id: 'c', name: 'click_at', arguments: { x: '12', y: 30 } })).toMatchObject({ ok: true, args: { x: 12, y: 30 } });
  expect(tools.validate({ id: 'c', name: 'click_at', arguments: { x: 12 } })).toMatchObject({ ok: false, error: expect.stringContaining('either mark, or both x and y') });
  expect(tools.validate({ id: 'c', name: 'type_at', arguments: { mark: 2, x: 1, y: 1, text: 'a' } })).toMatchObject({ ok: false });
});

test('a screenshot of a site the user marked sensitive is asked, and cannot be allowed for always; reading it stays a read', async () => {
  expect(tierOf({ risk: 'read', tool: 'look', sensitiveSite: true })).toBe('sensitive');
  expect(tierOf({ risk: 'read', tool: 'look', sensitiveSite: false })).toBe('read');
  expect(tierOf({ risk: 'read', tool: 'read_page', sensitiveSite: true })).toBe('read');
  const rules = { find: () => Promise.resolve(undefined), sensitiveSites: () => Promise.resolve(['https://bank.example']) };
  const asked = await evaluate(callFacts({ tool: 'look', risk: 'read', args: {}, origin: 'https://bank.example', startOrigin: 'https://bank.example' }), rules);
  expect(asked).toMatchObject({ tier: 'sensitive', policy: 'ask', canAllowAlways: false });
  const elsewhere = await evaluate(callFacts({ tool: 'look', risk: 'read', args: {}, origin: 'https://shop.example' }), rules);
  expect(elsewhere).toMatchObject({ tier: 'read', policy: 'allow' });
});

test('acting by point is judged like acting by id: hovering only looks, clicking in a password form is sensitive', () => {
  const inPasswordForm = { tag: 'button', formHasPassword: true };
  expect(tierOf({ risk: 'interact', tool: 'hover_at', target: inPasswordForm })).toBe(tierOf({ risk: 'interact', tool: 'hover', target: inPasswordForm }));
  expect(tierOf({ risk: 'interact', tool: 'hover_at', target: inPasswordForm })).toBe('interact');
  expect(tierOf({ risk: 'interact', tool: 'click_at', target: inPasswordForm })).toBe('sensitive');
  expect(tierOf({ risk: 'interact', tool: 'type_at', target: { tag: 'input', type: 'password' } })).toBe('sensitive');
});
