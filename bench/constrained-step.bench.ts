/**
 * Constrained mode's costs. (1) The step reader on 300 KB replies (a final answer full of
 * escapes, and a call whose argument is one long string), cut into 8-character tokens: time per
 * push, and the whole reply's read at the end; baselines in the same run: the same tokens appended
 * to a string, and one `JSON.parse` of the reply. (2) What the mode adds to each request for the
 * real 21 tools: the system-prompt catalogue and the reply schema, next to the text mode's
 * catalogue.
 */
import { performance } from 'node:perf_hooks';
import { constrainedCatalogue } from '../src/background/llm/constrained/messages';
import { stepSchema } from '../src/background/llm/constrained/schema';
import { readStep, StepReader } from '../src/background/llm/constrained/step-reader';
import { formatToolCatalogue } from '../src/background/llm/tool-protocol/xml-prompt';
import { createToolRegistry } from '../src/background/tools';
import { fmt, measure, printTable, stats } from './lib';

const TOKEN_CHARS = 8;
const SIZE = 300 * 1024;

const LINE = 'A line with "quotes", a \\ and é.\n';
const answer = JSON.stringify({ answer: LINE.repeat(Math.floor(SIZE / JSON.stringify(LINE).length)) });
const call = JSON.stringify({ tool: 'fill', arguments: { id: 3, text: 'x'.repeat(SIZE - 50) } });

function tokens(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += TOKEN_CHARS) out.push(text.slice(i, i + TOKEN_CHARS));
  return out;
}

function perPush(reply: string, rounds: number, push: (reader: StepReader, token: string) => void): number[] {
  const samples: number[] = [];
  const cut = tokens(reply);
  for (let round = 0; round < rounds; round++) {
    const reader = new StepReader();
    for (const token of cut) {
      const start = performance.now();
      push(reader, token);
      samples.push(performance.now() - start);
    }
  }
  return samples;
}

async function main() {
  const rows = [];
  for (const [label, reply] of [['300 KB answer', answer], ['300 KB call', call]] as const) {
    perPush(reply, 2, (r, t) => r.push(t)); // warm-up
    const reader = stats(perPush(reply, 5, (r, t) => r.push(t)));
    let text = '';
    const baseline = stats(perPush(reply, 5, (_r, t) => void (text += t)));
    const whole = await measure(() => readStep(reply), { runs: 30, warmup: 5 });
    const parse = await measure(() => JSON.parse(reply), { runs: 30, warmup: 5 });
    rows.push({
      reply: label,
      'push median': fmt(reader.median),
      'push p95': fmt(reader.p95),
      'append median (baseline)': fmt(baseline.median),
      'read at end median': fmt(whole.median),
      'JSON.parse median (baseline)': fmt(parse.median),
    });
  }
  printTable(`Step reader, ${TOKEN_CHARS}-character tokens`, rows);

  const specs = createToolRegistry({} as never).specs();
  const catalogue = constrainedCatalogue(specs).length;
  const schema = JSON.stringify(stepSchema(specs)).length;
  const text = formatToolCatalogue(specs as Parameters<typeof formatToolCatalogue>[0]).length;
  printTable(`What each mode adds to a request, ${specs.length} tools (characters)`, [
    { mode: 'constrained', 'system prompt': catalogue, 'reply schema': schema },
    { mode: 'text (xml)', 'system prompt': text, 'reply schema': 0 },
  ]);
}

void main();
