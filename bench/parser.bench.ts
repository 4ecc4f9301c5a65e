/**
 * Throughput of `parseToolCalls` on the tool-call corpus (test/fixtures/tool-calls, one row per
 * fixture file, each case with its own tools) and on two ~8 KB replies: markdown prose ending in
 * one call, and the same prose with no call. Each sample is one case parsed 10 times in a row,
 * divided by 10; cases are interleaved over 200 rounds. Baselines in the same run: the previous
 * release's parser (commit a1739bd, tools by name) on the same texts, `JSON.parse` of the case's
 * calls as a JSON string (what a native tool-calling API hands over), and a plain regex scan for
 * `<tool_call>…</tool_call>` over the same text as the parser.
 */
import { performance } from 'node:perf_hooks';
import { parseToolCalls } from '../src/background/llm/tool-protocol/parse';
import { loadCorpus, LONG_PROSE, LONG_PROSE_WITH_CALL, namesOf, toolsOf, type CorpusTool } from './fixtures';
import { fmt, printTable, stats } from './lib';
import { previousRelease } from './support/previous-release';

const ROUNDS = 200;
const REPEAT = 10;
const WARMUP_ROUNDS = 20;

interface Input {
  text: string;
  tools: CorpusTool[];
  names: string[];
}

interface Row {
  label: string;
  inputs: Input[];
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
  const previous = previousRelease();
  const parse = (input: Input) => parseToolCalls(input.text, input.tools).calls.length;
  const parsePrevious = (input: Input) => previous?.parseToolCalls(input.text, input.names).calls.length ?? 0;
  const json = (s: string) => (JSON.parse(s) as unknown[]).length;
  const regex = (input: Input) => input.text.match(TOOL_CALL)?.length ?? 0;
  sample(row.inputs, parse, WARMUP_ROUNDS);
  if (previous) sample(row.inputs, parsePrevious, WARMUP_ROUNDS);
  sample(row.json, json, WARMUP_ROUNDS);
  sample(row.inputs, regex, WARMUP_ROUNDS);
  const p = sample(row.inputs, parse, ROUNDS);
  const v = previous ? sample(row.inputs, parsePrevious, ROUNDS) : [];
  const j = sample(row.json, json, ROUNDS);
  const r = sample(row.inputs, regex, ROUNDS);
  const bytes = row.inputs.reduce((n, t) => n + Buffer.byteLength(t.text), 0);
  // MB/s over the whole run: bytes parsed divided by time spent parsing them.
  const mbps = (samples: number[]) => ((bytes * ROUNDS) / 1e6 / (samples.reduce((a, b) => a + b, 0) / 1000)).toFixed(1);
  const ps = stats(p);
  const vs = v.length ? stats(v) : undefined;
  const js = stats(j);
  const rs = stats(r);
  return {
    input: row.label,
    cases: row.inputs.length,
    'avg size': `${Math.round(bytes / row.inputs.length)} B`,
    'parse median': fmt(ps.median),
    'parse p95': fmt(ps.p95),
    'parse MB/s': mbps(p),
    'previous median': vs ? fmt(vs.median) : '-',
    'previous p95': vs ? fmt(vs.p95) : '-',
    'JSON.parse median': fmt(js.median),
    'JSON.parse p95': fmt(js.p95),
    'regex median': fmt(rs.median),
    'regex p95': fmt(rs.p95),
    'regex MB/s': mbps(r),
  };
}

function main() {
  const corpus = loadCorpus();
  const input = (text: string, tools: CorpusTool[]): Input => ({ text, tools, names: namesOf(tools) });
  const rows: Row[] = corpus.map((f) => ({
    label: f.file,
    inputs: f.cases.map((c) => input(c.output, toolsOf(f, c))),
    json: f.cases.map((c) => JSON.stringify(c.calls)),
  }));
  rows.push({ label: 'all corpus cases', inputs: rows.flatMap((r) => r.inputs), json: rows.flatMap((r) => r.json) });
  const tools = corpus[0]?.tools ?? [];
  const call = JSON.stringify([{ name: 'click', arguments: { id: 12 } }]);
  rows.push({ label: 'long prose + 1 call', inputs: [input(LONG_PROSE_WITH_CALL, tools)], json: [call] });
  rows.push({ label: 'long prose, no call', inputs: [input(LONG_PROSE, tools)], json: ['[]'] });

  const results = rows.map(run);
  printTable(`parseToolCalls: time per parse, ${ROUNDS} rounds × ${REPEAT} parses per case (baselines: the previous release's parser; JSON.parse of the calls as JSON; regex scan of the same text)`, results);
  if (sink === -1) console.log(sink);
}

main();
