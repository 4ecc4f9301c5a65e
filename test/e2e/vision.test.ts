/**
 * The vision fallback in real Firefox, driven by a scripted model over the real Ollama wire
 * protocol: screenshots of the working tab with numbered marks, sent only to a model that takes
 * images, and actions by mark or by a point of the screenshot, checked by their effect on the page.
 */
import type { Page } from 'puppeteer-core';
import { agentHarness } from '../support/agent-harness';
import { jpegInfo } from '../support/jpeg';
import type { RecordedRequest, ScriptedReply } from '../support/llm-server';
import { finish, transcript } from '../support/page-model';
import { configure, portRequest } from '../support/sidebar-driver';

const VISION = 'gemma3:4b';
const TEXT_ONLY = 'qwen2.5:3b';
const h = agentHarness({
  models: [
    { name: VISION, tools: true, vision: true, contextLength: 32768 },
    { name: TEXT_ONLY, tools: true, vision: false, contextLength: 32768 },
    // Listed by an OpenAI-compatible server that says nothing about images: the known-models table knows it reads them.
    { name: 'gpt-4o-mini', tools: true, contextLength: 128_000 },
  ],
  provider: { kind: 'ollama', model: VISION, stepLimit: 8 },
});

const useModel = (model: string) => configure(h.sidebar.page, { kind: 'ollama', baseUrl: h.llm.url, model, stepLimit: 8 });
beforeEach(() => useModel(VISION));

/** The latest screenshot in a request: its JPEG header's size, and the text the model read beside it. */
function screenshotIn(request: RecordedRequest): { width: number; height: number; bytes: number } {
  const image = request.images.at(-1);
  if (!image) throw new Error('The request carries no image.');
  return { ...jpegInfo(image.bytes), bytes: image.bytes.length };
}

/** The viewport in CSS pixels, as the page sees it. */
const viewOf = (page: Page) => page.evaluate(() => ({ width: innerWidth, height: innerHeight }));

/** Where a viewport point (CSS pixels) is in the request's latest screenshot. */
function inScreenshot(request: RecordedRequest, view: { width: number; height: number }, client: { x: number; y: number }) {
  const shot = screenshotIn(request);
  return { x: Math.round((client.x * shot.width) / view.width), y: Math.round((client.y * shot.height) / view.height) };
}

/** One model turn that reads the latest screenshot, kept in `asked`; a script error goes into the chat, where the test shows it. */
function seeing(asked: RecordedRequest[], build: (request: RecordedRequest) => ScriptedReply): (request: RecordedRequest) => ScriptedReply {
  return (request) => {
    asked.push(request);
    try {
      return build(request);
    } catch (error) {
      return { text: `SCRIPT ERROR: ${(error as Error).message}` };
    }
  };
}

/** A fixture page in a new tab with a 1280×800 viewport, and that viewport as the page sees it. */
async function openAt1280(route: string) {
  const page = await h.openPage(route);
  await page.setViewport({ width: 1280, height: 800 });
  return { page, view: await viewOf(page) };
}

const clicksOn = (page: Page) => page.evaluate(() => (window as unknown as { canvasClicks: string[] }).canvasClicks);
/** "Checkout" is painted at (360…600, 80…170) of a canvas placed at (30, 40) of the page. */
const CHECKOUT = { x: 30 + 480, y: 40 + 125 };

test('a canvas page the DOM reader cannot describe: the agent looks by itself, the model gets a marked JPEG and clicks a painted button by its point', async () => {
  const { page, view } = await openAt1280('/canvas-app.html');
  const asked: RecordedRequest[] = [];
  h.llm.script(
    seeing(asked, (request) => {
      return { toolCalls: [{ name: 'click_at', arguments: { ...inScreenshot(request, view, CHECKOUT), reason: 'press Checkout' } }] };
    }),
    finish('Checked out.'),
  );
  await h.sidebar.runTask('Press Checkout in this shop');

  expect(await clicksOn(page)).toEqual(['Checkout']);
  const first = asked[0]!;
  // The fallback ran before the model's first turn: a real JPEG of the 1280×800 viewport, and the legend beside it.
  expect(screenshotIn(first)).toMatchObject({ width: 1280, height: 800, components: 3 });
  expect(first.images).toHaveLength(1);
  const text = transcript(first);
  expect(text).toContain('Screenshot of the visible part of the page, 1280×800 pixels');
  expect(text).toMatch(/Marks:\n\[\d+\] button ""/);
  // A 3B model gets the compact set: looking and clicking by mark or point; typing and hovering by point on request.
  const offered = (first.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  expect(offered).toEqual(expect.arrayContaining(['look', 'click_at', 'more_tools']));
  expect(offered.filter((n) => ['type_at', 'hover_at'].includes(n))).toEqual([]);
  expect((await h.sidebar.toolRows()).map((r) => [r.tool, r.status])).toEqual([
    ['look', 'done'],
    ['click_at', 'done'],
    ['done', 'done'],
  ]);
  // The user sees what was sent: the same JPEG as the look row's thumbnail.
  const shown = await h.sidebar.page.$$eval('[data-testid="tool-image"]', (els) => els.map((el) => el.getAttribute('src') ?? ''));
  expect(shown).toEqual([`data:image/jpeg;base64,${first.images[0]!.bytes.toString('base64')}`]);
});

/** The mark the legend beside the latest screenshot gives an element with this role and (empty) name. */
function markOf(request: RecordedRequest, role: string, name: string): number {
  const found = [...transcript(request).matchAll(new RegExp(`^\\[(\\d+)\\] ${role} ${JSON.stringify(name).replace(/[[\]]/g, '\\$&')}$`, 'gm'))].at(-1);
  if (!found) throw new Error(`No mark for ${role} ${JSON.stringify(name)} in the legend.`);
  return Number(found[1]);
}

/** The colour of one pixel of a JPEG, decoded by Firefox in `page`. */
function pixelOf(page: Page, jpeg: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    async (data, px, py) => {
      const image = new Image();
      image.src = `data:image/jpeg;base64,${data}`;
      await image.decode();
      const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      return Array.from(ctx.getImageData(px, py, 1, 1).data.slice(0, 3));
    },
    jpeg.toString('base64'),
    x,
    y,
  );
}

test('a mark drawn on the screenshot is clicked by its number: the unnamed icon button, which the legend lists', async () => {
  const { page } = await openAt1280('/canvas-app.html');
  const asked: RecordedRequest[] = [];
  h.llm.script(
    seeing(asked, (request) => {
      return { toolCalls: [{ name: 'click_at', arguments: { mark: markOf(request, 'button', ''), reason: 'open the menu' } }] };
    }),
    finish('Opened the menu.'),
  );
  await h.sidebar.runTask('Open the menu');

  expect(await clicksOn(page)).toEqual(['menu']);
  // The mark is painted on the copy sent (a box on the button at 960,40 and its number's label above it), never on the page.
  const jpeg = asked[0]!.images[0]!.bytes;
  const label = await pixelOf(page, jpeg, 961, 30);
  const box = await pixelOf(page, jpeg, 961, 64);
  for (const [r, g, b] of [label, box]) expect({ r: r! > 150, g: g! < 110, b: b! < 160 }).toEqual({ r: true, g: true, b: true });
  await new Promise((r) => setTimeout(r, 800)); // the action's own highlight is gone by then
  expect(await page.evaluate(() => Array.from(document.querySelectorAll('body *'), (el) => el.tagName))).toEqual(['CANVAS', 'BUTTON', 'DIV', 'SCRIPT']);
});

test('device pixel ratio 2, page zoom and a scrolled page: the point the model reads from the screenshot lands on the painted button', async () => {
  const page = await h.openPage('/canvas-app.html');
  await page.setViewport({ width: 1000, height: 700, deviceScaleFactor: 2 });
  const zoom = (factor: number) =>
    h.sidebar.page.evaluate(
      async (u, z) => {
        const api = (globalThis as unknown as { browser: { tabs: { query(q: object): Promise<{ id: number; url?: string }[]>; setZoom(id: number, z: number): Promise<void> } } }).browser;
        const tab = (await api.tabs.query({})).find((t) => t.url === u);
        await api.tabs.setZoom(tab!.id, z);
      },
      page.url(),
      factor,
    );
  await zoom(1.25);
  try {
    await zoomedAndScrolled(page);
  } finally {
    // Firefox keeps a zoom per site: the next tests start at 100 %.
    await zoom(1);
  }
});

async function zoomedAndScrolled(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 200));
  const view = await page.evaluate(() => ({ width: innerWidth, height: innerHeight, dpr: devicePixelRatio, scrollY }));
  // The zoom shows in the CSS viewport (1000 × 700 device-independent pixels at 125 %); the ratio is at least the 2 set.
  expect(view).toMatchObject({ width: 800, height: 560, scrollY: 200 });
  expect(view.dpr).toBeGreaterThanOrEqual(2);
  // "Empty cart" is painted at (60…300, 300…390) of the canvas at (30, 40): its centre is 200 px higher in the scrolled view.
  const emptyCart = { x: 30 + 180, y: 40 + 345 - 200 };
  const asked: RecordedRequest[] = [];
  h.llm.script(
    seeing(asked, (request) => {
      return { toolCalls: [{ name: 'click_at', arguments: { ...inScreenshot(request, view, emptyCart), reason: 'empty the cart' } }] };
    }),
    finish('Emptied the cart.'),
  );
  await h.sidebar.runTask('Press Empty cart');

  expect(await clicksOn(page)).toEqual(['Empty cart']);
  // 800 CSS pixels at a ratio of 2 or more are at least 1600 device pixels: sent at 1280 on the long side.
  expect(screenshotIn(asked[0]!)).toMatchObject({ width: 1280, height: 896 });
}

test('elements in an open shadow root and a same-origin frame are found at their points, typed into and clicked', async () => {
  const { page, view } = await openAt1280('/shadow-iframe.html');
  await page.evaluate(() => {
    const log = document.getElementById('log')!;
    (window as unknown as { logs: string[] }).logs = [];
    new MutationObserver(() => (window as unknown as { logs: string[] }).logs.push(log.textContent ?? '')).observe(log, { childList: true, characterData: true, subtree: true });
  });
  const points = await page.evaluate(() => {
    const centre = (r: DOMRect, dx = 0, dy = 0) => ({ x: dx + r.left + r.width / 2, y: dy + r.top + r.height / 2 });
    const frame = document.getElementById('same') as HTMLIFrameElement;
    const f = frame.getBoundingClientRect();
    const inner = (id: string) => centre(frame.contentDocument!.getElementById(id)!.getBoundingClientRect(), f.left + frame.clientLeft, f.top + frame.clientTop);
    return { upgrade: centre(document.querySelector('settings-card')!.shadowRoot!.getElementById('upgrade')!.getBoundingClientRect()), nick: inner('nick'), save: inner('save') };
  });
  h.llm.script(
    { toolCalls: [{ name: 'look', arguments: { reason: 'see the settings' } }] },
    seeing([], (request) => ({
      toolCalls: [
        { name: 'click_at', arguments: { ...inScreenshot(request, view, points.upgrade), reason: 'upgrade' } },
        { name: 'type_at', arguments: { ...inScreenshot(request, view, points.nick), text: 'Ada', reason: 'nickname' } },
        { name: 'click_at', arguments: { ...inScreenshot(request, view, points.save), reason: 'save' } },
      ],
    })),
    finish('Upgraded and saved your nickname.'),
  );
  await h.sidebar.runTask('Click Upgrade plan, then type Ada as my nickname and save it');

  expect(await page.evaluate(() => (window as unknown as { logs: string[] }).logs)).toEqual(['upgrade clicked', 'saved Ada']);
  expect((await h.sidebar.toolRows()).map((r) => [r.tool, r.status])).toEqual([
    ['look', 'done'],
    ['click_at', 'done'],
    ['type_at', 'done'],
    ['click_at', 'done'],
    ['done', 'done'],
  ]);
});

test('a model without vision: no image in any request, no vision tool offered, and a look it calls anyway is refused', async () => {
  await useModel(TEXT_ONLY);
  const { page } = await openAt1280('/canvas-app.html');
  h.llm.script({ toolCalls: [{ name: 'look', arguments: {} }] }, finish('I cannot see this page.'));
  await h.sidebar.runTask('Press Checkout in this shop');

  const requests = h.llm.chatRequests();
  expect(requests).toHaveLength(2);
  for (const request of requests) {
    expect(request.images).toEqual([]);
    const names = (request.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(names).toContain('click');
    expect(names.filter((n) => ['look', 'click_at', 'type_at', 'hover_at'].includes(n))).toEqual([]);
  }
  expect(transcript(requests[1]!)).toContain('There is no tool named "look"');
  expect(await clicksOn(page)).toEqual([]);
});

test('a sensitive site: the screenshot is asked first, and a denial sends no image', async () => {
  await portRequest(h.sidebar.page, { type: 'sensitive-sites/set', origins: [h.site.url] });
  try {
    await openAt1280('/canvas-app.html');
    h.llm.script((request) => ({ text: /did not allow/.test(transcript(request)) ? 'Understood: no screenshot.' : 'I looked anyway.' }));
    await h.sidebar.send('Press Checkout in this shop');
    const asked = await h.sidebar.readQuestion('look');
    expect(asked.risk).toBe('sensitive');
    expect(asked.canAlways).toBe(false);
    await h.sidebar.answerPermission('look', 'deny');
    await h.sidebar.waitForAnswer('Understood: no screenshot.');
    await h.sidebar.waitForIdle();
    expect(h.llm.chatRequests().flatMap((r) => r.images)).toEqual([]);
    expect(await h.sidebar.toolRows()).toEqual([{ tool: 'look', status: 'denied' }]);
  } finally {
    await portRequest(h.sidebar.page, { type: 'sensitive-sites/set', origins: [] });
  }
});

test('text tool-call mode: the screenshot rides on the turn that carries the result, and a call written as text clicks the painted button', async () => {
  await configure(h.sidebar.page, { kind: 'ollama', baseUrl: h.llm.url, model: VISION, stepLimit: 8, toolCallMode: 'xml' });
  const { page, view } = await openAt1280('/canvas-app.html');
  const asked: RecordedRequest[] = [];
  h.llm.script(
    seeing(asked, (request) => {
      const at = inScreenshot(request, view, CHECKOUT);
      return { text: `I can see the Checkout button.\n<click_at x="${at.x}" y="${at.y}" reason="press Checkout" />` };
    }),
    { text: '<done summary="Checked out." />' },
  );
  await h.sidebar.runTask('Press Checkout in this shop');

  expect(await clicksOn(page)).toEqual(['Checkout']);
  const first = asked[0]!;
  expect(first.body.tools).toBeUndefined();
  expect(first.images).toEqual([expect.objectContaining({ role: 'user' })]);
  expect(screenshotIn(first)).toMatchObject({ width: 1280, height: 800 });
  expect(transcript(first)).toContain('### click_at');
});

test('two failed actions in a row: the agent looks at the page before the model’s next turn', async () => {
  await h.openPage('/login.html');
  h.llm.script(
    { toolCalls: [{ name: 'click', arguments: { id: 98 } }] },
    { toolCalls: [{ name: 'click', arguments: { id: 99 } }] },
    finish('I could not find the button.'),
  );
  await h.sidebar.runTask('Click the sign in button');

  const requests = h.llm.chatRequests();
  expect(requests.map((r) => r.images.length)).toEqual([0, 0, 1]);
  // The look is the agent's own call, its reason saying why, and its result the screenshot's.
  expect(JSON.stringify(requests[2]!.body.messages)).toContain('Looking at the page because two actions on the page failed in a row.');
  expect(transcript(requests[2]!)).toContain('Screenshot of the visible part of the page');
  expect((await h.sidebar.toolRows()).map((r) => [r.tool, r.status])).toEqual([
    ['click', 'denied'],
    ['click', 'denied'],
    ['look', 'done'],
    ['done', 'done'],
  ]);
});

test('an OpenAI-compatible server that says nothing: a model known to read images gets the screenshot as an image_url part', async () => {
  await configure(h.sidebar.page, { kind: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini', stepLimit: 8 });
  const { page, view } = await openAt1280('/canvas-app.html');
  const asked: RecordedRequest[] = [];
  h.llm.script(
    seeing(asked, (request) => ({ toolCalls: [{ name: 'click_at', arguments: { ...inScreenshot(request, view, CHECKOUT), reason: 'press Checkout' } }] })),
    finish('Checked out.'),
  );
  await h.sidebar.runTask('Press Checkout in this shop');

  expect(await clicksOn(page)).toEqual(['Checkout']);
  expect(asked[0]!.api).toBe('openai');
  expect(asked[0]!.images).toEqual([expect.objectContaining({ role: 'user', mimeType: 'image/jpeg' })]);
  expect(screenshotIn(asked[0]!)).toMatchObject({ width: 1280, height: 800 });
});
