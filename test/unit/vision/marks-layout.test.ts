/** The marks' layout on a screenshot: boxes scaled into the image, number labels inside it and apart from each other, and the legend. */
import { layoutMarks, legendOf, labelSize, LABEL_HEIGHT } from '../../../src/background/vision/marks-layout';
import type { Mark, View } from '../../../src/shared/vision';

const view: View = { width: 800, height: 500, scrollX: 0, scrollY: 0, dpr: 2 };
const image = { width: 1280, height: 800 };
const mark = (id: number, x: number, y: number, width = 100, height = 30, name = `Button ${id}`): Mark => ({ id, role: 'button', name, rect: { x, y, width, height } });
const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('a box is the element scaled into the image, its label just above its top-left corner', () => {
  const [placed] = layoutMarks([mark(12, 100, 100)], view, image);
  expect(placed!.box).toEqual({ x: 160, y: 160, width: 160, height: 48 });
  expect(placed!.label).toEqual({ x: 160, y: 160 - LABEL_HEIGHT, ...labelSize(12) });
  expect(labelSize(12).width).toBeGreaterThan(labelSize(7).width);
});

test('at the top edge the label goes inside the box; at the right edge it stays inside the image', () => {
  const [top, right] = layoutMarks([mark(1, 10, 0), mark(2, 790, 200, 10, 10)], view, image);
  expect(top!.label.y).toBe(0);
  expect(right!.label.x + right!.label.width).toBeLessThanOrEqual(image.width);
});

test('labels of elements side by side and stacked do not cover each other', () => {
  // A dense toolbar: 40 small buttons in two tight rows.
  const marks = Array.from({ length: 40 }, (_, i) => mark(i + 1, (i % 20) * 40, 100 + Math.floor(i / 20) * 22, 36, 20));
  const placed = layoutMarks(marks, view, image);
  const clashes = placed.flatMap((a, i) => placed.slice(i + 1).filter((b) => overlap(a.label, b.label)).map((b) => [a.id, b.id]));
  expect(clashes).toEqual([]);
  for (const p of placed) {
    expect(p.label.x).toBeGreaterThanOrEqual(0);
    expect(p.label.y).toBeGreaterThanOrEqual(0);
    expect(p.label.x + p.label.width).toBeLessThanOrEqual(image.width);
  }
});

test('the legend lists each mark as the snapshot lists elements, names quoted as data', () => {
  expect(legendOf([mark(12, 0, 0, 1, 1, 'Add to cart'), mark(3, 0, 0, 1, 1, ''), { ...mark(4, 0, 0), role: 'link', name: 'Say "hi"\nnow' }])).toBe('[12] button "Add to cart"\n[3] button ""\n[4] link "Say \\"hi\\"\\nnow"');
});

test('a long page-written name is clipped, so 80 marks’ legend stays within a tool result', () => {
  const legend = legendOf(Array.from({ length: 80 }, (_, i) => mark(i + 1, 0, 0, 1, 1, 'x'.repeat(200))));
  expect(legend.split('\n')[0]).toBe(`[1] button "${'x'.repeat(59)}…"`);
  expect(legend.length).toBeLessThan(6000);
});
