/**
 * Throughput of `parseToolCalls` on the tool-call corpus (test/fixtures/tool-calls, one row per
 * family) and on two ~8 KB replies: markdown prose ending in one call, and the same prose with no
 * call. Each sample is one case parsed 10 times in a row, divided by 10; cases are interleaved
 * over 200 rounds. Baselines in the same run: `JSON.parse` of the case's calls as a JSON string
 * (what a native tool-calling API hands over) and a plain regex scan for `<tool_call>…</tool_call>`
 * over the same text as the parser.
 */
import { performance } from 'node:perf_hooks';
import { parseToolCalls } from '../src/background/llm/tool-protocol/parse';
import { loadCorpus, LONG_PROSE, LONG_PROSE_WITH_CALL } from './fixtures';
import { fmt, printTable, stats } from './lib';

const ROUNDS = 200;
const REPEAT = 10;
const WARMUP_ROUNDS = 20;

interface Row {
  label: string;
  tools: readonly string[];
  texts: string[];
  /** The same calls as JSON strings, for the JSON.parse baseline. */
  json: string[];
}

let sink = 0;
const TOOL_CALL = /<tool_call>[\s\S]*?<\/tool_call>/g;

/** Milliseconds per call of `fn` on each input, interleaved over rounds. */
function sample<T>(inputs: readonly T[], fn: (input: T) => number, rounds: number): number[] {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const input of inputs) {
      const start = performance.now();
      for (let i = 0; i < REPEAT; i++) sink += fn(input);
      samples.push((performance.now() - start) / REPEAT);
    }
  }
  return samples;
}

function run(row: Row) {
  const parse = (text: string) => parseToolCalls(text, row.tools).calls.length;
  const json = (s: string) => (JSON.parse(s) as unknown[]).length;
  const regex = (text: string) => text.match(TOOL_CALL)?.length ?? 0;
  sample(row.texts, parse, WARMUP_ROUNDS);
  sample(row.json, json, WARMUP_ROUNDS);
  sample(row.texts, regex, WARMUP_ROUNDS);
  const p = sample(row.texts, parse, ROUNDS);
  const j = sample(row.json, json, ROUNDS);
  const r = sample(row.texts, regex, ROUNDS);
  const bytes = row.texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  // MB/s over the whole run: bytes parsed divided by time spent parsing them.
  const mbps = (samples: number[]) => ((bytes * ROUNDS) / 1e6 / (samples.reduce((a, b) => a + b, 0) / 1000)).toFixed(1);
  const ps = stats(p);
  const js = stats(j);
  const rs = stats(r);
  return {
    input: row.label,
    cases: row.texts.length,
    'avg size': `${Math.round(bytes / row.texts.length)} B`,
    'parse median': fmt(ps.median),
    'parse p95': fmt(ps.p95),
    'parse MB/s': mbps(p),
    'JSON.parse median': fmt(js.median),
    'JSON.parse p95': fmt(js.p95),
    'regex median': fmt(rs.median),
    'regex p95': fmt(rs.p95),
    'regex MB/s': mbps(r),
  };
}

function main() {
  const corpus = loadCorpus();
  const tools = corpus[0]?.tools ?? [];
  const rows: Row[] = corpus.map((f) => ({
    label: f.family,
    tools: f.tools,
    texts: f.cases.map((c) => c.output),
    json: f.cases.map((c) => JSON.stringify(c.calls)),
  }));
  const all = corpus.flatMap((f) => f.cases);
  rows.push({ label: 'all corpus cases', tools, texts: all.map((c) => c.output), json: all.map((c) => JSON.stringify(c.calls)) });
  const call = JSON.stringify([{ name: 'click', arguments: { id: 12 } }]);
  rows.push({ label: 'long prose + 1 call', tools, texts: [LONG_PROSE_WITH_CALL], json: [call] });
  rows.push({ label: 'long prose, no call', tools, texts: [LONG_PROSE], json: ['[]'] });

  const results = rows.map(run);
  printTable(`parseToolCalls: time per parse, ${ROUNDS} rounds × ${REPEAT} parses per case (baselines: JSON.parse of the calls as JSON; regex scan of the same text)`, results);
  if (sink === -1) console.log(sink);
}

main();
