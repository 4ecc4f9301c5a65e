/**
 * When the agent looks without being asked: at the start and after each read, a page with almost
 * no text, nothing named to act on and a large area of pictures; and after two failed actions on
 * elements in a row. A page that cannot be measured is not looked at.
 */
import { isSparse, lookCall, VisionFallback } from '../../../src/background/vision/fallback';
import type { PageLook } from '../../../src/shared/vision';

const look = (over: Partial<PageLook> = {}): PageLook => ({ view: { width: 1280, height: 800, scrollX: 0, scrollY: 0, dpr: 1 }, marks: [], textChars: 0, visualShare: 0.6, ...over });
const named = { id: 1, role: 'button', name: 'Checkout', rect: { x: 0, y: 0, width: 10, height: 10 } };

test('a canvas app is sparse; text, a named element or a small picture make it readable', () => {
  expect(isSparse(look())).toBe(true);
  expect(isSparse(look({ marks: [{ ...named, name: ' ' }] }))).toBe(true);
  expect(isSparse(look({ textChars: 500 }))).toBe(false);
  expect(isSparse(look({ marks: [named] }))).toBe(false);
  expect(isSparse(look({ visualShare: 0.05 }))).toBe(false);
});

function fallbackOver(pages: PageLook[] | (() => Promise<PageLook>)) {
  const asked: number[] = [];
  const queue = Array.isArray(pages) ? [...pages] : undefined;
  const fallback = new VisionFallback({
    look: (tabId) => {
      asked.push(tabId);
      return queue ? Promise.resolve(queue.shift() ?? look({ textChars: 900 })) : (pages as () => Promise<PageLook>)();
    },
  });
  return { fallback, asked };
}

test('checked at the start and after each read of the page, not before every step', async () => {
  const { fallback, asked } = fallbackOver([look({ textChars: 900 }), look()]);
  expect(await fallback.due(7)).toBeUndefined();
  expect(await fallback.due(7)).toBeUndefined();
  fallback.saw({ name: 'click' }, true);
  expect(await fallback.due(7)).toBeUndefined();
  expect(asked).toEqual([7]);
  fallback.saw({ name: 'read_page' }, true);
  expect(await fallback.due(7)).toBe('sparse_page');
  expect(asked).toEqual([7, 7]);
});

test('two failed actions on elements in a row: the agent looks; a success in between starts the count again', async () => {
  const { fallback } = fallbackOver([look({ textChars: 900 })]);
  await fallback.due(3);
  fallback.saw({ name: 'click' }, false);
  fallback.saw({ name: 'fill' }, true);
  fallback.saw({ name: 'click' }, false);
  expect(await fallback.due(3)).toBeUndefined();
  fallback.saw({ name: 'click' }, false);
  expect(await fallback.due(3)).toBe('actions_failing');
  // Said once: the look that follows starts over.
  expect(await fallback.due(3)).toBeUndefined();
  // Failed reads and tab tools are not actions on elements.
  fallback.saw({ name: 'navigate' }, false);
  fallback.saw({ name: 'wait_for' }, false);
  expect(await fallback.due(3)).toBeUndefined();
});

test('a look the model made itself settles the page check and the failures', async () => {
  const { fallback, asked } = fallbackOver([look()]);
  fallback.saw({ name: 'click' }, false);
  fallback.saw({ name: 'look' }, true);
  fallback.saw({ name: 'hover' }, false);
  expect(await fallback.due(1)).toBeUndefined();
  expect(asked).toEqual([]);
});

test('no tab, or a page that cannot be measured (restricted, closed): no look', async () => {
  const { fallback } = fallbackOver(() => Promise.reject(new Error('restricted')));
  expect(await fallback.due(undefined)).toBeUndefined();
  expect(await fallback.due(2)).toBeUndefined();
});

test('the look the agent makes itself says why, for the user and the model', () => {
  const call = lookCall('sparse_page');
  expect(call).toMatchObject({ name: 'look', arguments: { reason: 'Looking at the page because the page shows almost no text and nothing named to act on.' } });
  expect(lookCall('actions_failing').id).not.toBe(call.id);
});
