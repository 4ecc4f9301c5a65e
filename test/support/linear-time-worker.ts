/**
 * Times the parser, the stream filter and Markdown on one hostile input at two sizes, in a Node process of its own
 * (`linear-time.test.ts` bundles and runs it): jest's heap holds every suite's modules and strings, and collecting it
 * can land on one timed run and not the other. Arguments: the hostile input's name, the smaller size in bytes, the
 * factor. Prints `{"parse": {"small": ms, "large": ms}, "filter": …, "markdown": …}`, each figure the best of five
 * runs, the two sizes taking turns, with the collector run before each (`node --expose-gc`) so no run pays for
 * another's garbage.
 */
import { performance } from 'node:perf_hooks';
import { parseToolCalls } from '../../src/background/llm/tool-protocol/parse';
import { parseMarkdown } from '../../src/sidebar/lib/markdown';
import { HOSTILE_OUTPUTS, TOOLS } from '../fixtures/tool-calls/hostile';
import { streamThrough } from './stream-through';

const WORK: Record<string, (text: string) => unknown> = {
  parse: (text) => parseToolCalls(text, TOOLS),
  filter: (text) => streamThrough(text, TOOLS, 16),
  markdown: parseMarkdown,
};

const [name = '', sizeArg = '', factorArg = ''] = process.argv.slice(2);
const hostile = HOSTILE_OUTPUTS.find((h) => h.name === name);
if (!hostile) throw new Error(`usage: linear-time-worker <hostile input's name> <size> <factor>`);
const size = Number(sizeArg);
const inputs = [hostile.make(size), hostile.make(Number(factorArg) * size)];
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function timesOf(work: (text: string) => unknown): { small: number; large: number } {
  work(hostile!.make(size / 4)); // warm up the JIT
  const best = [Infinity, Infinity];
  for (let i = 0; i < 5; i++) {
    inputs.forEach((text, k) => {
      collect();
      const start = performance.now();
      work(text);
      best[k] = Math.min(best[k]!, performance.now() - start);
    });
  }
  return { small: best[0]!, large: best[1]! };
}

process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(WORK).map(([which, work]) => [which, timesOf(work)]))));
