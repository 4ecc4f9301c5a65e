/**
 * Work on model output grows linearly with its size, whatever text an attacker picks: the
 * stream filter, the text tool-call parser and the sidebar's Markdown, each on inputs that made
 * earlier versions quadratic (or worse). Each input is timed at two sizes: the larger must stay
 * within a generous absolute bound, and doubling the input must not much more than double the time.
 * The bench (`npm run bench -- output-bounds`) prints the figures.
 */
import { performance } from 'node:perf_hooks';
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { createToolMarkupFilter } from '../../../src/background/llm/tool-protocol/stream-filter';
import { parseMarkdown } from '../../../src/sidebar/lib/markdown';
import { HOSTILE_OUTPUTS, TOOLS } from '../../fixtures/tool-calls/hostile';

jest.setTimeout(120_000);

/**
 * Best of five runs of each, in milliseconds, the two sizes taking turns: the least disturbed by
 * the machine's other work, and disturbed alike.
 */
function timesOf(small: () => unknown, large: () => unknown): [number, number] {
  const best = [Infinity, Infinity];
  for (let i = 0; i < 5; i++) {
    [small, large].forEach((fn, k) => {
      const start = performance.now();
      fn();
      best[k] = Math.min(best[k]!, performance.now() - start);
    });
  }
  return [best[0]!, best[1]!];
}

function streamAll(text: string): string {
  const filter = createToolMarkupFilter(TOOLS);
  let shown = '';
  for (let i = 0; i < text.length; i += 16) shown += filter.push(text.slice(i, i + 16));
  return shown + filter.flush();
}

const KB = 1024;

/**
 * `factor` times the input: within 1.5 × `factor` times the time (plus 50 ms for the collector and timer noise), and
 * the larger one under `boundMs`, which the quadratic versions missed by an order of magnitude or more.
 */
function expectLinear(label: string, run: (size: number) => unknown, size: number, boundMs: number, factor = 2) {
  run(size / 4); // warm up the JIT
  const [small, large] = timesOf(
    () => run(size),
    () => run(factor * size),
  );
  const times = `${size / KB} KB: ${small.toFixed(1)} ms, ${(factor * size) / KB} KB: ${large.toFixed(1)} ms`;
  expect({ label, times, withinBound: large < boundMs, linear: large <= 1.5 * factor * small + 50 }).toEqual({ label, times, withinBound: true, linear: true });
}

describe.each(HOSTILE_OUTPUTS.map((h) => [h.name, h] as const))('%s', (_name, hostile) => {
  test('parseToolCalls is linear', () => {
    // Up to the reply cap, four times the input: a quadratic term small at 64 KB shows by 256 KB.
    expectLinear(hostile.name, (size) => parseToolCalls(hostile.make(size), TOOLS), 64 * KB, 1500, 4);
  });

  test('the stream filter is linear', () => {
    expectLinear(hostile.name, (size) => streamAll(hostile.make(size)), 128 * KB, 2500);
  });

  test('Markdown is linear', () => {
    expectLinear(hostile.name, (size) => parseMarkdown(hostile.make(size)), 64 * KB, 1500);
  });
});

test('the stream filter shows a long plain answer whole, and an unclosed reasoning block not at all', () => {
  const plain = HOSTILE_OUTPUTS.find((h) => h.name === 'plain prose')!.make(256 * KB);
  expect(streamAll(plain)).toBe(plain);
  expect(streamAll(`<think>${plain}`)).toBe('');
});
