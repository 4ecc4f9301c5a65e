/**
 * Work on model output grows linearly with its size, whatever text an attacker picks: the
 * stream filter, the text tool-call parser and the sidebar's Markdown, each on inputs that made
 * earlier versions quadratic (or worse). Each input is timed at two sizes, 64 KB and four times that (the reply
 * cap): the larger must stay within a generous absolute bound, and must not take much more than four times as long.
 * The bench (`npm run bench -- output-bounds`) prints the figures.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { HOSTILE_OUTPUTS, TOOLS } from '../../fixtures/tool-calls/hostile';
import { streamThrough } from '../../support/stream-through';

jest.setTimeout(120_000);

const KB = 1024;

/** The timing worker (`test/support/linear-time-worker.ts`), bundled once for plain Node. */
let worker = '';
let workDir = '';
beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'linear-time-'));
  worker = path.join(workDir, 'worker.cjs');
  buildSync({ entryPoints: [path.join(__dirname, '../../support/linear-time-worker.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: worker, logLevel: 'error' });
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

type Work = 'parse' | 'filter' | 'markdown';
type Figures = Record<Work, { small: number; large: number }>;
const SIZE = 64 * KB;
const FACTOR = 4;

/**
 * Each input timed in a Node process of its own, the collector run before each run: inside jest, collecting its heap
 * could land on the larger runs and make a linear case look worse than quadratic.
 */
function figuresOf(name: string): Figures {
  const run = spawnSync(process.execPath, ['--expose-gc', worker, name, String(SIZE), String(FACTOR)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the timing worker failed on ${name}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Figures;
}

/**
 * Four times the input: within eight times the time (plus 50 ms for timer noise), and the larger one under `boundMs`,
 * which the quadratic versions missed by an order of magnitude or more. A quadratic cost takes sixteen times as long;
 * a linear one four, and a little more where the larger input no longer fits the caches. Doubling the input told the
 * two apart by too little (a ratio of 3 against 4).
 */
function expectLinear(label: string, { small, large }: { small: number; large: number }, boundMs: number) {
  const times = `${SIZE / KB} KB: ${small.toFixed(1)} ms, ${(FACTOR * SIZE) / KB} KB: ${large.toFixed(1)} ms`;
  expect({ label, times, withinBound: large < boundMs, linear: large <= 2 * FACTOR * small + 50 }).toEqual({ label, times, withinBound: true, linear: true });
}

describe.each(HOSTILE_OUTPUTS.map((h) => [h.name, h] as const))('%s', (_name, hostile) => {
  let figures: Figures;
  beforeAll(() => {
    figures = figuresOf(hostile.name);
  });

  test('parseToolCalls is linear', () => {
    expectLinear(hostile.name, figures.parse, 1500);
  });

  test('the stream filter is linear', () => {
    expectLinear(hostile.name, figures.filter, 2500);
  });

  test('Markdown is linear', () => {
    expectLinear(hostile.name, figures.markdown, 1500);
  });
});

test('the stream filter shows a long plain answer whole, and an unclosed reasoning block not at all', () => {
  const plain = HOSTILE_OUTPUTS.find((h) => h.name === 'plain prose')!.make(256 * KB);
  expect(streamThrough(plain, TOOLS, 16)).toBe(plain);
  expect(streamThrough(`<think>${plain}`, TOOLS, 16)).toBe('');
});
