/** @jest-environment jsdom */
/**
 * An element found at a point of a screenshot joins the latest snapshot: it keeps the id it has,
 * or gets the next free one, and the snapshot's other ids stay valid.
 */
import { ElementRegistry } from '../../../src/content/element-registry';

test('an element of the snapshot keeps its id; a new one gets the next, resolvable with the same nonce', () => {
  document.body.innerHTML = '<button id="a">A</button><button id="b">B</button><canvas id="c"></canvas>';
  const [a, b, c] = ['a', 'b', 'c'].map((id) => document.getElementById(id)!);
  const registry = new ElementRegistry(document);
  expect(registry.adopt(c!)).toBeUndefined();
  const nonce = registry.issue([a!, b!]);
  expect(registry.adopt(b!)).toBe(2);
  expect(registry.adopt(c!)).toBe(3);
  expect(registry.adopt(c!)).toBe(3);
  expect(registry.nonce).toBe(nonce);
  expect([1, 2, 3].map((id) => registry.resolve(nonce, id))).toEqual([a, b, c]);
  expect(registry.live().map(({ id, el }) => [id, el.id])).toEqual([
    [1, 'a'],
    [2, 'b'],
    [3, 'c'],
  ]);
  b!.remove();
  expect(registry.live().map(({ id }) => id)).toEqual([1, 3]);
});
