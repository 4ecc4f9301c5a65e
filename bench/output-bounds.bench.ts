/**
 * Work on untrusted model output, per KB: the stream filter (16-character pushes), the text
 * tool-call parser and the sidebar's Markdown parser, each on 256 KB (the reply cap) of every input
 * in test/fixtures/tool-calls/hostile.ts — plain prose, an unclosed <think>, and texts chosen to make
 * a careless parser quadratic. Medians and p95 over 7 runs, next to a baseline in the same run:
 * copying the text through a string builder in the same 16-character pieces. The bench fails when
 * any median goes over BOUND_MS_PER_KB.
 */
import { performance } from 'node:perf_hooks';
import { parseToolCalls } from '../src/background/llm/tool-protocol/parse';
import { createToolMarkupFilter } from '../src/background/llm/tool-protocol/stream-filter';
import { parseMarkdown } from '../src/sidebar/lib/markdown';
import { HOSTILE_OUTPUTS, TOOLS } from '../test/fixtures/tool-calls/hostile';
import { printTable, stats } from './lib';

const SIZE = 256 * 1024;
const RUNS = 7;
/** Linear code stays well under this on a slow machine; the quadratic versions took from 15 ms to seconds per KB. */
const BOUND_MS_PER_KB = 5;

let sink = 0;

function stream(text: string): number {
  const filter = createToolMarkupFilter(TOOLS);
  let shown = 0;
  for (let i = 0; i < text.length; i += 16) shown += filter.push(text.slice(i, i + 16)).length;
  return shown + filter.flush().length;
}

function copy(text: string): number {
  let out = '';
  for (let i = 0; i < text.length; i += 16) out += text.slice(i, i + 16);
  return out.length;
}

/** Milliseconds per KB, one sample per run. */
function perKb(text: string, fn: (text: string) => number): number[] {
  fn(text.slice(0, 4096)); // warm up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    sink += fn(text);
    samples.push((performance.now() - start) / (text.length / 1024));
  }
  return samples;
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

function main() {
  const rows: Record<string, string | number>[] = [];
  let worst = { median: 0, what: '' };
  for (const hostile of HOSTILE_OUTPUTS) {
    const text = hostile.make(SIZE).slice(0, SIZE);
    const base = stats(perKb(text, copy));
    const measured = {
      'stream filter': stats(perKb(text, stream)),
      parseToolCalls: stats(perKb(text, (t) => parseToolCalls(t, TOOLS).calls.length + 1)),
      'Markdown parse': stats(perKb(text, (t) => parseMarkdown(t).length + 1)),
    };
    for (const [what, s] of Object.entries(measured)) {
      rows.push({ input: hostile.name, what, 'median / KB': ms(s.median), 'p95 / KB': ms(s.p95), 'baseline median / KB': ms(base.median) });
      if (s.median > worst.median) worst = { median: s.median, what: `${what} on ${hostile.name}` };
    }
  }
  printTable(`Work on ${SIZE / 1024} KB of model output, per KB (${RUNS} runs; baseline: copying the text in 16-character pieces; bound ${BOUND_MS_PER_KB} ms / KB)`, rows);
  console.log(`\nWorst median: ${ms(worst.median)} per KB (${worst.what}).`);
  if (sink === -1) console.log(sink);
  if (worst.median > BOUND_MS_PER_KB) {
    console.error(`Over the bound of ${BOUND_MS_PER_KB} ms per KB.`);
    process.exit(1);
  }
}

main();
