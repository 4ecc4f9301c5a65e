/**
 * The text tool-call parser and the streaming filter over a corpus of real model outputs, in
 * fixture files (test/fixtures/tool-calls/*.json) that each hold one format family from one kind of
 * source. Each case gives the calls the model meant (none for negative cases), the prose left for
 * the user, and where it says so the calls that were tried but cannot be run (`failures`).
 *
 * Every case added since the first fifteen files names its own source: the published text it was
 * taken from, verbatim.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseToolCalls, type ParseResult } from '../../../src/background/llm/tool-protocol/parse';
import { createToolMarkupFilter } from '../../../src/background/llm/tool-protocol/stream-filter';

/** A tool offered to the model: its name, or its name and the JSON Schema of its arguments. */
type ToolSpec = string | { name: string; parameters?: Record<string, unknown> };
type Problem = 'unparsable' | 'unknown_tool' | 'cut_off';

interface Case {
  name: string;
  source?: string;
  output: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  text: string;
  /** Overrides the family's tools, e.g. to give argument schemas or to leave a named tool out. */
  tools?: ToolSpec[];
  /** Calls the output tries to make that cannot be run; `[]` says there are none. */
  failures?: { problem: Problem }[];
}
interface Family {
  family: string;
  source: string;
  tools: ToolSpec[];
  cases: Case[];
}

/** The first corpus: its cases share their file's source. */
const FIRST_FILES = [
  'deepseek.json', 'fenced.json', 'gemma.json', 'hermes.json', 'invoke.json', 'llama3.json', 'malformed.json', 'mistral.json',
  'negative.json', 'noise.json', 'pythonic.json', 'qwen3-coder.json', 'reasoning.json', 'xml-nested.json', 'xml-self-closing.json',
];

/** Every format family the corpus must cover, each with several cases. */
const FAMILIES = [
  'xml-self-closing', 'xml-nested', 'hermes', 'qwen3-coder', 'llama3', 'llama4', 'pythonic', 'mistral', 'deepseek', 'deepseek-dsml',
  'invoke', 'gemma', 'granite', 'phi4', 'xlam', 'kimi-k2', 'glm', 'minimax', 'fenced', 'reasoning', 'noise', 'negative', 'malformed',
  'negative-markdown', 'function-tag', 'bare-json', 'tools-wrapper', 'tool-call-block', 'jamba', 'continue', 'cut-off', 'closer-in-value',
  'internlm', 'functionary-v2', 'functionary-recipients', 'gemini', 'name-lines',
];

const DIR = path.resolve(__dirname, '../../fixtures/tool-calls');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Family) }));
const all = files.flatMap((f) => f.cases.map((c) => ({ ...c, file: f.file, family: f.family, tools: c.tools ?? f.tools })));

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const nameOf = (tool: ToolSpec) => (typeof tool === 'string' ? tool : tool.name);

/**
 * The parser takes the offered tools as names, or as names with their argument schemas; this
 * passes the fixture's entries as they are.
 */
const parse = (output: string, tools: readonly ToolSpec[]): ParseResult & { failures?: { problem: Problem }[] } =>
  parseToolCalls(output, tools as unknown as Parameters<typeof parseToolCalls>[1]);

/** Streams `text` through the filter in chunks of `size`; returns what was shown and the worst hold-back. */
function stream(text: string, tools: readonly ToolSpec[], size: number): { shown: string; maxLag: number } {
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

describe('the corpus', () => {
  test('holds at least 250 cases and every family, each with several cases', () => {
    expect(all.length).toBeGreaterThanOrEqual(250);
    const perFamily = new Map<string, number>();
    for (const c of all) perFamily.set(c.family, (perFamily.get(c.family) ?? 0) + 1);
    const thin = FAMILIES.filter((family) => (perFamily.get(family) ?? 0) < 3);
    expect(thin).toEqual([]);
  });

  test('names the source of every case: the file for the first corpus, the case itself since', () => {
    for (const f of files) expect(f.source.length).toBeGreaterThan(20);
    const unsourced = all.filter((c) => !FIRST_FILES.includes(c.file) && !(c.source && c.source.trim().length > 10));
    expect(unsourced.map((c) => `${c.file}: ${c.name}`)).toEqual([]);
    // Sources are published texts, never a path on some machine.
    const local = all.filter((c) => c.source && /(^|\s)(\/(home|tmp|work|Users)\/|[A-Z]:\\)/.test(c.source));
    expect(local.map((c) => `${c.file}: ${c.name}`)).toEqual([]);
  });

  test('has unique case names within each file and the calls of every case among its tools', () => {
    for (const f of files) {
      const names = f.cases.map((c) => c.name);
      expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    }
    const offered = all.filter((c) => c.calls.some((call) => !c.tools.map(nameOf).includes(call.name)));
    expect(offered.map((c) => `${c.file}: ${c.name}`)).toEqual([]);
  });

  test('has at least 30 new negative cases: outputs that call nothing and try to call nothing', () => {
    const negatives = all.filter((c) => !FIRST_FILES.includes(c.file) && c.calls.length === 0 && c.failures?.length === 0);
    expect(negatives.length).toBeGreaterThanOrEqual(30);
  });
});

describe.each(files.map((f) => [f.file, f] as const))('%s', (_file, f) => {
  test.each(f.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = parse(c.output, c.tools ?? f.tools);
    expect(result.calls).toEqual(c.calls);
    expect(squash(result.text)).toBe(squash(c.text));
    if (c.failures) expect((result.failures ?? []).map(({ problem }) => ({ problem }))).toEqual(c.failures);
  });
});

describe('streaming filter', () => {
  test.each(all.map((c) => [`${c.file}: ${c.name}`, c] as const))('%s shows the prose and hides the markup, in any chunking', (_name, c) => {
    for (const size of [1, 2, 5, 13, c.output.length]) {
      const { shown } = stream(c.output, c.tools, size);
      expect({ size, shown: squash(shown) }).toEqual({ size, shown: squash(c.text) });
    }
  });

  test('ordinary prose is held back by only a few characters', () => {
    // Ordinary prose: no code, no brackets, and no call's tags (`<tool_call>`, `<function name=…>`: held until they can be told from a call).
    const prose = all.filter((c) => c.calls.length === 0 && c.text === c.output && !/[`{[]|<\/?tool_call|<function[\s=>]/.test(c.output));
    expect(prose.length).toBeGreaterThan(3);
    const lags = prose.map((c) => stream(c.output, c.tools, 1).maxLag);
    expect(Math.max(...lags)).toBeLessThanOrEqual(24);
  });
});
