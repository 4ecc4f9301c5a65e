/**
 * A point read from a screenshot back to the page: the screenshot shows the viewport scaled (device
 * pixel ratio, zoom, the 1280 px cap), so the point is scaled by the viewport's CSS size over the
 * image's, then moved by the scroll since the picture was taken. A zoom or resize since then, or a
 * point that has scrolled away, is refused with words the model can act on.
 */
import { clientToScreen, screenToClient, type View } from '../../../src/shared/vision';

const view = (over: Partial<View> = {}): View => ({ width: 1280, height: 800, scrollX: 0, scrollY: 0, dpr: 1, ...over });

test('at ratio 1 and no cap a screenshot pixel is a CSS pixel', () => {
  expect(screenToClient({ x: 510, y: 165, image: { width: 1280, height: 800 }, view: view() }, view())).toEqual({ ok: true, x: 510, y: 165 });
});

test('device pixel ratio 2: a 1280 px viewport is captured at 2560 and sent at 1280, so a pixel is still one CSS pixel', () => {
  const shot = { image: { width: 1280, height: 800 }, view: view({ dpr: 2 }) };
  expect(screenToClient({ x: 640, y: 400, ...shot }, view({ dpr: 2 }))).toEqual({ ok: true, x: 640, y: 400 });
});

test('page zoom 125 % at ratio 2: an 800 CSS px viewport sent at 1280 px, a screenshot pixel is 0.625 CSS pixels', () => {
  const zoomed = view({ width: 800, height: 560, dpr: 2.5 });
  expect(screenToClient({ x: 336, y: 296, image: { width: 1280, height: 896 }, view: zoomed }, zoomed)).toEqual({ ok: true, x: 210, y: 185 });
});

test('a page scrolled since the screenshot: the point moves with the content', () => {
  const shot = { image: { width: 1280, height: 800 }, view: view({ scrollY: 200 }) };
  expect(screenToClient({ x: 100, y: 500, ...shot }, view({ scrollY: 300, scrollX: 0 }))).toEqual({ ok: true, x: 100, y: 400 });
  const moved = screenToClient({ x: 100, y: 50, ...shot }, view({ scrollY: 300 }));
  expect(moved).toEqual({ ok: false, why: expect.stringContaining('scrolled since the screenshot') });
});

test('a zoom or resize since the screenshot is refused: the picture no longer matches the page', () => {
  const shot = { image: { width: 1280, height: 800 }, view: view() };
  expect(screenToClient({ x: 10, y: 10, ...shot }, view({ width: 1024 }))).toEqual({ ok: false, why: expect.stringContaining('call look again') });
  expect(screenToClient({ x: 10, y: 10, ...shot }, view({ dpr: 1.5 }))).toEqual({ ok: false, why: expect.stringContaining('zoomed') });
});

test('a point outside the screenshot names its size', () => {
  const shot = { image: { width: 1280, height: 800 }, view: view() };
  expect(screenToClient({ x: 1280, y: 10, ...shot }, view())).toEqual({ ok: false, why: 'The point (1280, 10) is outside the screenshot, which is 1280×800 pixels.' });
  expect(screenToClient({ x: -1, y: 10, ...shot }, view())).toMatchObject({ ok: false });
  expect(screenToClient({ x: Number.NaN, y: 10, ...shot }, view())).toMatchObject({ ok: false });
});

test('a viewport rectangle scales into the screenshot the other way', () => {
  expect(clientToScreen({ x: 210, y: 185, width: 80, height: 40 }, view({ width: 800, height: 560 }), { width: 1280, height: 896 })).toEqual({ x: 336, y: 296, width: 128, height: 64 });
});
