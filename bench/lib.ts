/** Timing helpers for `npm run bench`: medians and p95 over many runs, printed as a table. */
import { performance } from 'node:perf_hooks';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface Stats {
  runs: number;
  median: number;
  p95: number;
  mean: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
  return { runs: samples.length, median: at(0.5), p95: at(0.95), mean: samples.reduce((a, b) => a + b, 0) / samples.length };
}

/** Runs `fn` `runs` times after `warmup` untimed runs; returns milliseconds per run. */
export async function measure(fn: () => unknown, { runs = 200, warmup = 20 } = {}): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

export function fmt(ms: number): string {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  return `${ms.toFixed(2)} ms`;
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n## ${title}`);
  if (!rows.length) return;
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(columns.map((c) => String(row[c]))));
}

/**
 * The real-world page corpus beside the project (benches run from the project root), or undefined
 * after one clear line when a clone stands alone; with FOXAGENT_REQUIRE_CORPUS=1 its absence is an error.
 */
export function corpusDir(what: string): string | undefined {
  const dir = path.resolve(process.cwd(), '../shared/fixtures/readability-pages');
  if (existsSync(dir)) return dir;
  const line = `The real-world page corpus (../shared/fixtures/readability-pages beside the project) is missing, so ${what} cannot run. Check it out beside the project to run it.`;
  if (process.env.FOXAGENT_REQUIRE_CORPUS === '1') throw new Error(line);
  console.warn(`⚠ ${line}`);
  return undefined;
}
