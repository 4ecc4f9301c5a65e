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

/** One model turn that reads the latest screenshot; a script error goes into the chat, where the test shows it. */
function seeing(build: (request: RecordedRequest) => ScriptedReply): (request: RecordedRequest) => ScriptedReply {
  return (request) => {
    try {
      return build(request);
    } catch (error) {
      return { text: `SCRIPT ERROR: ${(error as Error).message}` };
    }
  };
}

const clicksOn = (page: Page) => page.evaluate(() => (window as unknown as { canvasClicks: string[] }).canvasClicks);
/** "Checkout" is painted at (360…600, 80…170) of a canvas placed at (30, 40) of the page. */
const CHECKOUT = { x: 30 + 480, y: 40 + 125 };

test('a canvas page the DOM reader cannot describe: the agent looks by itself, the model gets a marked JPEG and clicks a painted button by its point', async () => {
  const page = await h.openPage('/canvas-app.html');
  await page.setViewport({ width: 1280, height: 800 });
  const view = await viewOf(page);
  const asked: RecordedRequest[] = [];
  h.llm.script(
    seeing((request) => {
      asked.push(request);
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
  expect((first.body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(expect.arrayContaining(['look', 'click_at', 'type_at', 'hover_at']));
  expect((await h.sidebar.toolRows()).map((r) => [r.tool, r.status])).toEqual([
    ['look', 'done'],
    ['click_at', 'done'],
    ['done', 'done'],
  ]);
});
