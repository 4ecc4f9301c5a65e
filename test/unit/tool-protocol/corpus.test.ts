/**
 * The text tool-call parser and the streaming filter over a corpus of real-world model outputs,
 * one fixture file per family (test/fixtures/tool-calls/*.json). Each case gives the calls that
 * must come out (none for negative cases) and the prose left for the user.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseToolCalls } from '../../../src/background/llm/tool-protocol/parse';
import { createToolMarkupFilter } from '../../../src/background/llm/tool-protocol/stream-filter';

interface Case {
  name: string;
  output: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  text: string;
}
interface Family {
  family: string;
  source: string;
  tools: string[];
  cases: Case[];
}

const DIR = path.resolve(__dirname, '../../fixtures/tool-calls');
const families: Family[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as Family);
const all = families.flatMap((f) => f.cases.map((c) => ({ ...c, family: f.family, tools: f.tools })));

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Streams `text` through the filter in chunks of `size`; returns what was shown and the worst hold-back. */
function stream(text: string, tools: string[], size: number): { shown: string; maxLag: number } {
  const filter = createToolMarkupFilter(tools);
  let shown = '';
  let maxLag = 0;
  for (let i = 0; i < text.length; i += size) {
    const piece = filter.push(text.slice(i, i + size));
    // A retraction clears what was shown: it was reasoning.
    if (filter.takeRetraction()) shown = '';
    shown += piece;
    maxLag = Math.max(maxLag, Math.min(i + size, text.length) - shown.length);
  }
  return { shown: shown + filter.flush(), maxLag };
}

test('the corpus is big enough and covers every family', () => {
  expect(all.length).toBeGreaterThanOrEqual(60);
  expect(families.map((f) => f.family)).toEqual(
    expect.arrayContaining(['xml-self-closing', 'xml-nested', 'hermes', 'qwen3-coder', 'llama3', 'pythonic', 'mistral', 'deepseek', 'invoke', 'gemma', 'fenced', 'reasoning', 'noise', 'negative', 'malformed']),
  );
  for (const f of families) expect(f.source.length).toBeGreaterThan(20);
});

describe.each(families.map((f) => [f.family, f] as const))('%s', (_family, f) => {
  test.each(f.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = parseToolCalls(c.output, f.tools);
    expect(result.calls).toEqual(c.calls);
    expect(squash(result.text)).toBe(squash(c.text));
  });
});

describe('streaming filter', () => {
  test.each(all.map((c) => [`${c.family}: ${c.name}`, c] as const))('%s shows the prose and hides the markup, in any chunking', (_name, c) => {
    for (const size of [1, 2, 5, 13, c.output.length]) {
      const { shown } = stream(c.output, c.tools, size);
      expect({ size, shown: squash(shown) }).toEqual({ size, shown: squash(c.text) });
    }
  });

  test('ordinary prose is held back by only a few characters', () => {
    const prose = all.filter((c) => c.calls.length === 0 && c.text === c.output && !/[`{[]/.test(c.output));
    expect(prose.length).toBeGreaterThan(3);
    const lags = prose.map((c) => stream(c.output, c.tools, 1).maxLag);
    expect(Math.max(...lags)).toBeLessThanOrEqual(24);
  });
});
