/**
 * How many calls the text tool-call parser gets exactly right, per fixture file of the tool-call
 * corpus (test/fixtures/tool-calls), for the previous release's parser (commit a1739bd, tools by
 * name) and the current one (tools with their schemas where the case gives them). A call is right
 * when a produced call has the expected name and deep-equal arguments (each expected call matched
 * once). Also counted: wrong calls (produced, matching no expected call, in a case that has calls)
 * and false calls (any call produced from an output that holds none), the worst outcome: the agent
 * would act on the user's browser.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseToolCalls } from '../src/background/llm/tool-protocol/parse';
import { loadCorpus, namesOf, toolsOf, type CorpusCase, type CorpusFamily } from './fixtures';
import { printTable } from './lib';
import { previousRelease } from './support/previous-release';

type Parse = (family: CorpusFamily, c: CorpusCase) => { name: string; arguments: unknown }[];

interface Tally {
  expected: number;
  right: number;
  wrong: number;
  falseCalls: number;
}

/** Expected calls matched by produced ones (each used once), and the produced calls left over. */
function score(expected: readonly { name: string; arguments: unknown }[], produced: readonly { name: string; arguments: unknown }[]): Tally {
  const unused = produced.map((p) => JSON.parse(JSON.stringify(p)) as { name: string; arguments: unknown });
  let right = 0;
  for (const want of expected) {
    const at = unused.findIndex((p) => p.name === want.name && isDeepStrictEqual(p.arguments, want.arguments));
    if (at === -1) continue;
    right++;
    unused.splice(at, 1);
  }
  return { expected: expected.length, right, wrong: expected.length ? unused.length : 0, falseCalls: expected.length ? 0 : produced.length };
}

function tally(families: readonly CorpusFamily[], parse: Parse): Tally {
  const total: Tally = { expected: 0, right: 0, wrong: 0, falseCalls: 0 };
  for (const f of families) {
    for (const c of f.cases) {
      const t = score(c.calls, parse(f, c));
      total.expected += t.expected;
      total.right += t.right;
      total.wrong += t.wrong;
      total.falseCalls += t.falseCalls;
    }
  }
  return total;
}

const pct = (t: Tally) => (t.expected ? `${t.right}/${t.expected} (${((100 * t.right) / t.expected).toFixed(1)}%)` : '-');

function table(title: string, corpus: CorpusFamily[], now: Parse, before: Parse | undefined) {
  const groups = [...new Set(corpus.map((f) => f.family))].map((family) => ({ label: family, files: corpus.filter((f) => f.family === family) }));
  groups.push({ label: 'all', files: corpus });
  const rows = groups.map(({ label, files }) => {
    const current = tally(files, now);
    const old = before && tally(files, before);
    return {
      family: label,
      cases: files.reduce((n, f) => n + f.cases.length, 0),
      'previous: right': old ? pct(old) : '-',
      'previous: wrong': old ? old.wrong : '-',
      'previous: false': old ? old.falseCalls : '-',
      'now: right': pct(current),
      'now: wrong': current.wrong,
      'now: false': current.falseCalls,
    };
  });
  printTable(title, rows);
}

function main() {
  const previous = previousRelease();
  const now: Parse = (f, c) => parseToolCalls(c.output, toolsOf(f, c)).calls;
  const before: Parse | undefined = previous && ((f, c) => previous.parseToolCalls(c.output, namesOf(toolsOf(f, c))).calls);
  table('Text tool calls exactly right (name and deep-equal arguments), wrong calls, and false calls (a call from an output that holds none), per family of the corpus', loadCorpus(), now, before);
  table('The same on the pending held-out outputs (test/fixtures/tool-calls-pending: real outputs measured once, before any fix, that the parser does not read right yet)', loadCorpus('tool-calls-pending'), now, before);
}

main();
