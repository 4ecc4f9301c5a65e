/**
 * The streaming markup filter's added latency per token: every corpus output
 * (test/fixtures/tool-calls) and an ~8 KB markdown reply, with and without a call at the end, are
 * cut into 4-character tokens and pushed through `createToolMarkupFilter`, one filter per reply;
 * each `push` is timed on its own, over 50 rounds. Baselines in the same run: the previous
 * release's filter (commit a1739bd, tools by name) on the same tokens, and the same tokens
 * appended to a string, timed the same way (this is mostly the cost of reading the clock).
 * Also: the worst hold-back on prose — characters pushed but not yet shown, max over the stream —
 * for the corpus cases with no calls (leaving out those where the filter hides some text, as
 * the hidden part would count as held back), and the long reply without a call.
 */
import { performance } from 'node:perf_hooks';
import { createToolMarkupFilter } from '../src/background/llm/tool-protocol/stream-filter';
import { loadCorpus, LONG_PROSE, LONG_PROSE_WITH_CALL, namesOf, toolsOf, type CorpusTool } from './fixtures';
import { fmt, printTable, stats } from './lib';
import { previousRelease } from './support/previous-release';

const TOKEN_CHARS = 4;
const ROUNDS = 50;
const WARMUP_ROUNDS = 5;

interface Reply {
  name: string;
  tokens: string[];
  tools: CorpusTool[];
}

type FilterFactory = (tools: CorpusTool[]) => { push(delta: string): string; flush(): string };

/** Cut into tokens of 4 code points, so no surrogate pair is split. */
function tokenize(text: string): string[] {
  const chars = Array.from(text);
  const tokens: string[] = [];
  for (let i = 0; i < chars.length; i += TOKEN_CHARS) tokens.push(chars.slice(i, i + TOKEN_CHARS).join(''));
  return tokens;
}

/** Milliseconds per push through a fresh filter for each reply. */
function filterTimes(replies: readonly Reply[], create: FilterFactory, rounds: number): number[] {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const reply of replies) {
      const filter = create(reply.tools);
      for (const token of reply.tokens) {
        const start = performance.now();
        filter.push(token);
        samples.push(performance.now() - start);
      }
      filter.flush();
    }
  }
  return samples;
}

/** Milliseconds per token when the text is shown as it comes. */
function passThroughTimes(replies: readonly Reply[], rounds: number): number[] {
  const samples: number[] = [];
  let total = 0;
  for (let round = 0; round < rounds; round++) {
    for (const reply of replies) {
      let shown = '';
      for (const token of reply.tokens) {
        const start = performance.now();
        shown += token;
        samples.push(performance.now() - start);
      }
      total += shown.length;
    }
  }
  if (total < 0) console.log(total);
  return samples;
}

/** Largest number of characters pushed but not yet shown; undefined if the filter hid anything. */
function worstHoldBack(text: string, tools: readonly CorpusTool[]): number | undefined {
  const filter = createToolMarkupFilter(tools);
  let pushed = 0;
  let shown = 0;
  let worst = 0;
  for (const token of tokenize(text)) {
    pushed += token.length;
    shown += filter.push(token).length;
    worst = Math.max(worst, pushed - shown);
  }
  shown += filter.flush().length;
  return shown === pushed && !filter.takeRetraction() ? worst : undefined;
}

function main() {
  const corpus = loadCorpus();
  const tools = corpus[0]?.tools ?? [];
  const cases = corpus.flatMap((f) => f.cases.map((c) => ({ ...c, family: f.family, tools: toolsOf(f, c) })));
  const sets: { label: string; replies: Reply[] }[] = [
    { label: `corpus, all ${cases.length} outputs`, replies: cases.map((c) => ({ name: c.name, tokens: tokenize(c.output), tools: c.tools })) },
    { label: 'long prose + 1 call', replies: [{ name: 'long', tokens: tokenize(LONG_PROSE_WITH_CALL), tools }] },
    { label: 'long prose, no call', replies: [{ name: 'long', tokens: tokenize(LONG_PROSE), tools }] },
  ];
  const current: FilterFactory = (t) => createToolMarkupFilter(t);
  const previous = previousRelease();
  const before: FilterFactory | undefined = previous && ((t) => previous.createToolMarkupFilter(namesOf(t)));

  const rows: Record<string, string | number>[] = [];
  for (const set of sets) {
    filterTimes(set.replies, current, WARMUP_ROUNDS);
    if (before) filterTimes(set.replies, before, WARMUP_ROUNDS);
    passThroughTimes(set.replies, WARMUP_ROUNDS);
    const filter = stats(filterTimes(set.replies, current, ROUNDS));
    const old = before && stats(filterTimes(set.replies, before, ROUNDS));
    const base = stats(passThroughTimes(set.replies, ROUNDS));
    const tokens = set.replies.reduce((n, r) => n + r.tokens.length, 0);
    rows.push(
      { input: set.label, tokens, what: 'baseline: string concatenation', median: fmt(base.median), p95: fmt(base.p95) },
      { input: '', tokens: '', what: 'filter.push', median: fmt(filter.median), p95: fmt(filter.p95) },
      { input: '', tokens: '', what: 'added per token', median: fmt(filter.median - base.median), p95: fmt(filter.p95 - base.p95) },
      ...(old
        ? [
            { input: '', tokens: '', what: 'previous release: filter.push', median: fmt(old.median), p95: fmt(old.p95) },
            { input: '', tokens: '', what: 'previous release: added per token', median: fmt(old.median - base.median), p95: fmt(old.p95 - base.p95) },
          ]
        : []),
    );
  }
  printTable(`Stream filter: time per ${TOKEN_CHARS}-character token, ${ROUNDS} rounds`, rows);

  const prose = cases.filter((c) => c.calls.length === 0);
  const held = prose.map((c) => ({ name: `${c.family} / ${c.name}`, chars: c.output.length, worst: worstHoldBack(c.output, c.tools) }));
  const measured = held.filter((h): h is { name: string; chars: number; worst: number } => h.worst !== undefined);
  const hid = held.length - measured.length;
  const worstCase = measured.reduce((a, b) => (b.worst > a.worst ? b : a), { name: '-', chars: 0, worst: 0 });
  const longWorst = worstHoldBack(LONG_PROSE, tools);
  printTable(`Hold-back on prose: characters pushed but not yet shown, max over the stream (${TOKEN_CHARS}-character tokens)`, [
    {
      input: `corpus prose-only cases (${measured.length} of ${prose.length}; ${hid} left out: they hold markup the filter hides, reasoning or malformed calls)`,
      'median of per-case max': stats(measured.map((h) => h.worst)).median,
      max: worstCase.worst,
      'worst case': `${worstCase.name} (${worstCase.chars} chars)`,
    },
    { input: `long prose, no call (${LONG_PROSE.length} chars)`, 'median of per-case max': '-', max: longWorst ?? 'hid text', 'worst case': '-' },
  ]);
}

main();
