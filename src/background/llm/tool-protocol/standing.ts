/**
 * Where a call's markup may stand: on lines of its own (after blanks, the end of reasoning or another call; before the
 * end of its line or of the reply, end-of-turn tokens aside), never in a block quote, after prose leading into it as
 * an example only where the format allows; runs of spans side by side are judged together. Used by `parse.ts`.
 */
import { presentsExample } from './formats/fenced';
import { END_TOKENS, escapeRegExp } from './template-tokens';
import { isBlank, Regions, STRIPPED_HEADER, type Span } from './scan';

/** End-of-turn tokens, and Llama 3's header of the next assistant turn a model that runs on past its end writes after them. */
const END_TOKEN = new RegExp(`${END_TOKENS.map(escapeRegExp).join('|')}|<[｜|]end[▁_ ]of[▁_ ]sentence[｜|]>|</s>|<\\|start_header_id\\|>assistant<\\|end_header_id\\|>`, 'y');

/**
 * Whether a call's markup stands on its own: before it on its line only blanks, the end of
 * reasoning, or another call; after it only blanks, the end of a template token, and the end of
 * the line or the text.
 */
const MESSAGE_TOKEN = '<|message|>';

function startsLine(text: string, at: number, reasoning: Regions): boolean {
  let i = at - 1;
  while (i >= 0 && isBlank(text[i])) i--;
  // A message header's end (`…to=name<|message|>`, Glimmer's and GPT-OSS's) starts the message body as a line does.
  return i < 0 || text[i] === '\n' || reasoning.endsAt(i + 1) || text.startsWith(MESSAGE_TOKEN, i + 1 - MESSAGE_TOKEN.length);
}

function endsLine(text: string, at: number, reasoning: Regions): boolean {
  let i = at;
  STRIPPED_HEADER.lastIndex = at;
  if (STRIPPED_HEADER.test(text)) i = STRIPPED_HEADER.lastIndex;
  for (;;) {
    while (i < text.length && isBlank(text[i])) i++;
    END_TOKEN.lastIndex = i;
    if (!END_TOKEN.test(text)) break;
    i = END_TOKEN.lastIndex;
  }
  return i >= text.length || text[i] === '\n' || reasoning.startsAt(i);
}

/** Whether nothing but whitespace and end-of-turn tokens follows `at`. */
export function endsReply(text: string, at: number): boolean {
  let i = at;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    END_TOKEN.lastIndex = i;
    if (!END_TOKEN.test(text)) break;
    i = END_TOKEN.lastIndex;
  }
  return i >= text.length;
}

function onlyBlanks(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isBlank(text[i])) return false;
  return true;
}

/** A recipient marker filling its line: `>>>name`. */
const RECIPIENT_LINE = /^>>>[\w.-]{1,100}[ \t]*$/;

/** The lines of a Markdown block quote (`>` their first character after blanks), in one pass. */
export function quotedLines(text: string): Regions {
  const lines = new Regions();
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let i = start;
    while (i < end && isBlank(text[i])) i++;
    // Functionary v3.2's `>>>name` on its own line is a recipient marker, not a quote three deep.
    if (text[i] === '>' && !RECIPIENT_LINE.test(text.slice(i, Math.min(end, i + 110)))) lines.add(start, end + 1);
    if (newline === -1) break;
    start = newline + 1;
  }
  return lines;
}

/**
 * Whether a wrapper's markup opens right after a word, with no blank between
 * (`prefix<|tool_call>…<tool_call|>tail`): that is how a template's special tokens come out of a
 * model, not how a sentence quotes markup, which sets it off with a blank. Words may then follow.
 */
function gluedToWord(text: string, start: number): boolean {
  const before = text[start - 1];
  return before !== undefined && !/\s/.test(before);
}

/** The 200 characters before `at` after `after` (the markup before it), less the reasoning block that ends last before it. */
function leadInto(text: string, at: number, reasoning: Regions, after = 0): string {
  const from = Math.max(after, at - 200);
  const block = reasoning.lastBefore(at);
  if (!block || block[1] <= from) return text.slice(from, at);
  return text.slice(from, Math.max(from, block[0])) + text.slice(block[1], at);
}

/** The spans that stand on their own lines; runs of spans side by side are judged together. */
export function standing(text: string, spans: readonly Span[], reasoning: Regions): Span[] {
  const kept: Span[] = [];
  const quoted = quotedLines(text);
  for (let i = 0; i < spans.length; ) {
    let j = i;
    while (j + 1 < spans.length && onlyBlanks(text, spans[j]!.end, spans[j + 1]!.start)) j++;
    // A block quote is text the model quotes (from a page, from docs): never a call, wherever on its line.
    if (quoted.contains(spans[i]!.start)) {
      i = j + 1;
      continue;
    }
    // After prose that presents an example (`e.g.:`, `for example`) or code (`an updated version`), markup is what it
    // presents unless the reply ends with it. The words leading into it, without the reasoning right before it (hidden,
    // it presents nothing to the user).
    // A call's own markup before it presents nothing: the words of its arguments (`"path": "data/sample.csv"`) are no lead.
    const lead = leadInto(text, spans[i]!.start, reasoning, i > 0 ? spans[i - 1]!.end : 0);
    if (presentsExample(lead) && !endsReply(text, spans[j]!.end)) {
      i = j + 1;
      continue;
    }
    const starts = startsLine(text, spans[i]!.start, reasoning);
    const ends = endsLine(text, spans[j]!.end, reasoning);
    const glueEnd = spans[j]!.glue;
    const startOk = starts || spans[i]!.glue !== undefined;
    const endOk = ends || glueEnd === 'anywhere' || (glueEnd === 'token' && starts) || (glueEnd !== undefined && gluedToWord(text, spans[i]!.start));
    if (startOk && endOk) kept.push(...spans.slice(i, j + 1));
    i = j + 1;
  }
  return kept;
}
