/**
 * Tool calls written as text, in the forms real models emit. `parseToolCalls` is pure: text in,
 * the calls to known tools and the prose without their markup out. Detectors run in order of
 * how unambiguous their markers are; each region of text is claimed by one detector only, and
 * code (fences, inline code) and reasoning (`<think>`) are never read as calls by the tag-based
 * detectors.
 *
 * A call counts only where it stands as the reply or on its own lines: nothing but blanks (or
 * reasoning, or another call) before it on its line and after it on its line. Markup quoted inside
 * a sentence or a block quote — text a model copied from a page — is prose, and stays in the text.
 *
 * Model output is untrusted and may be large: every step is linear in the text (no pass re-reads
 * what an earlier one covered, and no regular expression can backtrack over the whole input).
 */
import { functionNamed, toolCallNamed } from './formats/attributed';
import { bare } from './formats/bare';
import { continueBlocks } from './formats/continue';
import { react, reactCalls } from './formats/react';
import { fenced, findFences } from './formats/fenced';
import { gemma } from './formats/gemma';
import { hunyuan } from './formats/hunyuan';
import { plamo, solarOpen } from './formats/token-calls';
import { kimiBare, kimiHeadless, kimiXtml } from './formats/kimi';
import { labelCalls } from './formats/label-calls';
import { bracketFields } from './formats/bracket-fields';
import { bracketLines, fieldLines, nameLines } from './formats/name-lines';
import { functionaryRecipients, functionaryV2, internlmInterpreter } from './formats/role-tokens';
import { deepseek, harmony, mistral, pythonTag } from './formats/special-tokens';
import { dsml, invoke } from './formats/invoke';
import { unnamedWrapped, wrapped } from './formats/tagged';
import { functionTag } from './formats/function-tag';
import { elementCalls } from './formats/element-calls';
import { qwenAgent } from './formats/qwen-agent';
import { cwmTool } from './formats/cwm';
import { dspy } from './formats/dspy';
import { xmlTags } from './formats/xml-tags';
import { failureOf, type CallFailure } from './failures';
import { END_OF_REPLY_EOS, END_TOKENS, escapeRegExp } from './template-tokens';
import { turnEndStart } from './turn-end';
import { quotedLines, standing } from './standing';
import { inventedResponses } from './invented-responses';
import { reasoningSpans, withoutDrafts } from './reasoning';
import { LEFTOVER_CLOSER, matchesOf, Regions, STRIPPED_HEADER, type Detector, type ParsedCall, type Problem, type ScanContext, type Span } from './scan';
import { withArgumentsFitted, withPositionalNamed } from './call-objects';
import { createToolTable, type ToolInput } from './tools';

export type { ParsedCall } from './scan';
export type { ToolInput } from './tools';

const DETECTORS: readonly Detector[] = [deepseek, dsml, kimiXtml, kimiHeadless, kimiBare, hunyuan, solarOpen, plamo, mistral, gemma, harmony, qwenAgent, dspy, functionaryV2, functionaryRecipients, internlmInterpreter, pythonTag, toolCallNamed, wrapped, invoke, functionNamed, functionTag, cwmTool, xmlTags, unnamedWrapped, elementCalls, fenced, continueBlocks, labelCalls, react, reactCalls, bracketLines, bracketFields, bare, nameLines, fieldLines];

/** Detectors whose every form holds a tag (`<…>`): a reply without a `<` is not scanned by them. */
const TAG_DETECTORS: ReadonlySet<Detector> = new Set([deepseek, dsml, kimiHeadless, hunyuan, solarOpen, plamo, internlmInterpreter, toolCallNamed, invoke, functionNamed, cwmTool, xmlTags, unnamedWrapped, elementCalls]);

/** Spans whose calls count once lose them when later spans hold the same calls; their markup stays hidden. */
function countedOnce(spans: Span[]): Span[] {
  if (!spans.some((s) => s.once)) return spans;
  const key = (c: ParsedCall) => JSON.stringify([c.name, c.arguments]);
  const later = new Set<string>();
  const out = [...spans];
  for (let i = spans.length - 1; i >= 0; i--) {
    const span = spans[i]!;
    if (span.once && span.calls.length && span.calls.every((c) => later.has(key(c)))) out[i] = { ...span, calls: [] };
    for (const c of span.calls) later.add(key(c));
  }
  return out;
}

/** Inline code: as in CommonMark, it may run over lines, but not across a blank line (a paragraph's end). */
const INLINE_CODE = /`(?:[^`\n]|\n(?![ \t\r]*(?:\n|$)))+`/g;

/** Fences, and inline code outside them; sorted and disjoint. */
function codeSpans(text: string, fences: ReturnType<typeof findFences>): [number, number][] {
  const spans: [number, number][] = [];
  let f = 0;
  for (const m of matchesOf(INLINE_CODE, text)) {
    while (f < fences.length && fences[f]!.end <= m.index) spans.push([fences[f]!.open, fences[f++]!.end]);
    // Backticks that would pair across a fence's opening are not code: the fence is.
    if (f < fences.length && m.index + m[0].length > fences[f]!.open) continue;
    // Nor are runs of three or more, a fence's marker glued to words (`Sure: ```json`), as the stream filter reads them.
    if (runOfTicks(text, m.index) >= 3 || runOfTicks(text, m.index + m[0].length - 1) >= 3) continue;
    spans.push([m.index, m.index + m[0].length]);
  }
  while (f < fences.length) spans.push([fences[f]!.open, fences[f++]!.end]);
  return spans;
}

/** The length of the run of backticks the one at `at` is in (looked at up to three on each side). */
function runOfTicks(text: string, at: number): number {
  let from = at;
  while (from > at - 3 && text[from - 1] === '`') from--;
  let to = at + 1;
  while (to < at + 4 && text[to] === '`') to++;
  return to - from;
}

const END_OF_SEQUENCE = /\s*<\/s>\s*$|[ \t]*<\/s>/y;

/**
 * A call with the end-of-sequence token right after it (`[TOOL_CALLS][…]</s>`, Mistral's; Llama 2's),
 * or ending the reply after it (ERNIE 4.5): the token belongs to the call. Elsewhere `</s>` may be the user's strikethrough, so it stays.
 */
function withEndOfSequence(text: string, span: Span): Span {
  let end = span.end;
  STRIPPED_HEADER.lastIndex = end;
  if (span.calls.length && STRIPPED_HEADER.test(text)) end = STRIPPED_HEADER.lastIndex;
  // Wrappers' closing tags written again after the call, closing nothing, go with it.
  for (LEFTOVER_CLOSER.lastIndex = end; LEFTOVER_CLOSER.test(text); LEFTOVER_CLOSER.lastIndex = end) end = LEFTOVER_CLOSER.lastIndex;
  END_OF_SEQUENCE.lastIndex = end;
  if (END_OF_SEQUENCE.test(text)) end = END_OF_SEQUENCE.lastIndex;
  return end === span.end ? span : { ...span, end };
}

/** Template tokens that are never prose: end-of-turn markers. */
const TEMPLATE_TOKEN = new RegExp(
  [
    '^all\\n(?=[\\s\\S])',
    // Glimmer's and Onyx's recipient header opening the reply (below), or a message's after the last one's end token.
    '<\\|eo[mt]\\|>[ \\t]*to=[\\w.:-]{1,100}<\\|message\\|>',
    ...END_TOKENS.map(escapeRegExp),
    '<[｜|]end[▁_ ]of[▁_ ]sentence[｜|]>',
    '<\\|start\\|>assistant(?:\\s+to=[\\w.:-]{1,100})?(?:<\\|message\\|>)?',
    '^[ \\t]*to=[\\w.:-]{1,100}<\\|message\\|>',
    '<\\|im_start\\|>(?:assistant)?',
    '<\\|start_header_id\\|>(?:assistant<\\|end_header_id\\|>)?',
    '<\\|channel\\|>(?:final|commentary)<\\|message\\|>',
    // Mistral's and Llama 2's end of sequence ending the reply, where no `<s>` on its line makes it a strikethrough.
    END_OF_REPLY_EOS.source,
  ].join('|'),
  'g',
);

/** A recipient's header after `<|eom|>` or `<|eot|>`, and that token's length. */
const HEADER_AFTER_END = /^<\|eo[mt]\|>[ \t]*to=/;
const END_TOKEN_LENGTH = '<|eom|>'.length;

/** Removes the given regions (sorted, disjoint) and tidies what is left: blanks at line ends, runs of blank lines. */
function withoutSpans(text: string, spans: readonly [number, number][]): string {
  // Pieces joined once, the last character kept apart: asking a string built by appending for its last character
  // flattens it, once per span.
  const pieces: string[] = [];
  let last = '';
  let at = 0;
  for (const [s, e] of spans) {
    if (s < at) {
      at = Math.max(at, e);
      continue;
    }
    if (s > at) {
      pieces.push(text.slice(at, s));
      last = text[s - 1]!;
    }
    // Markup glued between two words leaves a space between them.
    if (last && !/\s/.test(last) && e < text.length && !/\s/.test(text[e]!)) {
      pieces.push(' ');
      last = ' ';
    }
    at = e;
  }
  pieces.push(text.slice(at));
  return pieces
    .join('')
    .split('\n')
    .map(trimLineEnd)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A line without the blanks at its end (a backwards walk: no regex that could retry each blank). */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** Merges two sorted lists of disjoint spans. */
function merged(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i]!.start <= b[j]!.start) ? a[i++]! : b[j++]!);
  return out;
}

export interface ParseResult {
  calls: ParsedCall[];
  /** The prose, without the calls' markup and without reasoning. */
  text: string;
  /** For each call, the markup it was read from (a span holding several calls gives each the whole span). */
  raw: string[];
  /** Markup standing as a call would that gives no call to run: unreadable, an unknown tool, or cut off. */
  failures: CallFailure[];
}

/**
 * The text with the reasoning it opens with (blocks with nothing but blanks before and between them) turned into blanks,
 * line breaks kept; unchanged where that reasoning holds a call (a `<tool_call>` block on its own line in it).
 */
function withLeadingReasoningBlanked(text: string, reasoning: readonly [number, number][], carved: readonly [number, number][]): { scanned: string; answerTag?: Span } {
  let end = 0;
  let at = 0;
  for (const [start, stop] of reasoning) {
    while (at < start && /\s/.test(text[at]!)) at++;
    if (at !== start) break;
    end = at = stop;
  }
  if (end === 0 || carved.some(([start]) => start < end)) return { scanned: text };
  // Hunyuan opens what the user sees with `<answer>` after its reasoning (and closes it with `</answer>`, turn-end.ts).
  while (at < text.length && /\s/.test(text[at]!)) at++;
  const answerTag = text.startsWith(ANSWER_OPEN, at) ? { start: at, end: at + ANSWER_OPEN.length, calls: [] } : undefined;
  const blankTo = answerTag?.end ?? end;
  return { scanned: text.slice(0, blankTo).replace(/[^\n]/g, ' ') + text.slice(blankTo), ...(answerTag ? { answerTag } : {}) };
}

const ANSWER_OPEN = '<answer>';

/**
 * The calls in a reply. `tools` are the offered tools: names, or names with the JSON Schema of
 * their arguments, which then shapes the values read from markup.
 */
export function parseToolCalls(reply: string, tools: readonly ToolInput[]): ParseResult {
  return readReply(reply, tools).result;
}

/**
 * The stretches of the reply its text leaves out, in order: calls' and failed calls' markup, reasoning, template
 * tokens; the end-of-turn tokens it closes with are not among them. For the stream filter.
 */
export function hiddenRegions(reply: string, tools: readonly ToolInput[]): [number, number][] {
  return readReply(reply, tools).hidden;
}

/** The tool table of each tools list the parser was given, made once: the stream filter parses every finished call with the same list. */
const tables = new WeakMap<readonly ToolInput[], { size: number; table: ReturnType<typeof createToolTable> }>();

function tableOf(tools: readonly ToolInput[]): ReturnType<typeof createToolTable> {
  const known = tables.get(tools);
  if (known && known.size === tools.length) return known.table;
  const table = createToolTable(tools);
  tables.set(tools, { size: tools.length, table });
  return table;
}

/**
 * A fence's body read as a reply of its own, where it is all markup (`<function_call>…</function_call>` in an xml fence):
 * its calls and failures. A body holding a fence itself is not read so, so each character is read at most twice.
 */
function markupOnly(body: string, tools: readonly ToolInput[]): Pick<Span, 'calls' | 'problems'> | undefined {
  if (!body.trimStart().startsWith('<') || /`{3}|~{3}/.test(body)) return undefined;
  const { result } = readReply(body, tools);
  if (result.text.trim() || (!result.calls.length && !result.failures.length)) return undefined;
  return { calls: result.calls, ...(result.failures.length ? { problems: result.failures.map((f) => ({ problem: f.problem, ...(f.name ? { name: f.name } : {}) })) } : {}) };
}

function readReply(reply: string, tools: readonly ToolInput[]): { result: ParseResult; hidden: [number, number][] } {
  // The reply is read without the end-of-turn tokens it closes with.
  const text = reply.slice(0, turnEndStart(reply));
  const fences = findFences(text);
  const code = new Regions(codeSpans(text, fences));
  const { spans: reasoningList, carved } = reasoningSpans(text, (i) => code.contains(i));
  const reasoning = new Regions(reasoningList);
  // The detectors read the reply with the reasoning it opens with blanked: what follows it starts the reply, as the user
  // sees it and the stream filter reads it (a bare call, a call fence or a tool's name line opening the reply).
  const { scanned, answerTag } = withLeadingReasoningBlanked(text, reasoningList, carved);
  let claimed: Span[] = [];
  // What earlier detectors claimed, rebuilt only when one adds to it (most find nothing in a reply).
  let taken = new Regions();
  const table = tableOf(tools);
  const hasTag = scanned.includes('<');
  for (const detect of DETECTORS) {
    if (!hasTag && TAG_DETECTORS.has(detect)) continue;
    const codeAware = detect === fenced;
    const ctx: ScanContext = {
      text: scanned,
      resolve: table.resolve,
      tools: table,
      fences,
      isProtected: (i) => reasoning.contains(i) || (!codeAware && code.contains(i)) || taken.contains(i),
      ...(codeAware ? { readMarkup: (inner: string) => markupOnly(inner, tools) } : {}),
    };
    const found = detect(ctx)
      .filter((span) => span.end > span.start && !taken.overlaps(span.start, span.end))
      .sort((a, b) => a.start - b.start);
    // A detector's own spans do not overlap: keep the first of any that would.
    const own: Span[] = [];
    for (const span of found) if (!own.length || span.start >= own.at(-1)!.end) own.push(span);
    if (!own.length) continue;
    claimed = merged(claimed, own);
    taken = new Regions(claimed.map((s) => [s.start, s.end] as const));
  }
  const { calls: found, drafts } = withoutDrafts(countedOnce(standing(text, claimed, reasoning).map((span) => withEndOfSequence(text, span))), carved);
  const calls = found.map((span) => withArgumentsFitted(withPositionalNamed(span, table.schemaOf), table.schemaOf));
  // Template tokens left in the text go too, except in code, where they are what the user wrote about.
  const tokens: Span[] = answerTag ? [answerTag] : [];
  // A token right after a call ends the call's turn, even where a fence in the call left the text looking like code (DeepSeek V3's ```json).
  const callEnds = new Set(calls.map((s) => s.end));
  /** Block quotes' lines, found when first asked for (a recipient's header after an end token is rare). */
  let quoted: Regions | undefined;
  for (const m of matchesOf(TEMPLATE_TOKEN, text)) {
    // A recipient's header after an end token is the template's, but not on a line a block quote holds (copied text): there
    // only the token goes.
    const end = HEADER_AFTER_END.test(m[0]) && (quoted ??= quotedLines(text)).contains(m.index) ? m.index + END_TOKEN_LENGTH : m.index + m[0].length;
    if (!code.contains(m.index) || callEnds.has(m.index)) tokens.push({ start: m.index, end, calls: [] });
  }
  const invented = inventedResponses(text, calls, (i) => code.contains(i));
  const removed = merged(
    merged(
      [...reasoningList, ...drafts, ...invented].sort((a, b) => a[0] - b[0]).map(([start, end]) => ({ start, end, calls: [] })),
      calls,
    ),
    tokens,
  ).map((s): [number, number] => [s.start, s.end]);
  const result = {
    calls: calls.flatMap((s) => s.calls),
    text: withoutSpans(text, removed),
    raw: calls.flatMap((s) => s.calls.map(() => text.slice(s.start, s.end))),
    failures: calls.flatMap((s) => (s.problems ?? []).map((p) => failureOf(p, text.slice(s.start, s.end)))),
  };
  return { result, hidden: removed };
}
