/**
 * Formats that address a call with role tokens rather than a wrapper around JSON:
 * - Functionary v2: `<|from|>assistant\n<|recipient|>name\n<|content|>{…}`, one message per call,
 *   several in a row, ended by `<|stop|>`; the recipient `all` is the user (the content is prose),
 *   and the generation prompt ends at `<|recipient|>`, so a reply may open with `name\n<|content|>`.
 * - Functionary v3.2: `>>>name\n{…}` per call, glued to the words before it, `>>>all\n` before prose,
 *   and code after `>>>python\n`; the first call may open the reply without `>>>`.
 * - Functionary v2 on Llama 3: `<|reserved_special_token_249|>name\n{…}`, the same way.
 * - InternLM2/2.5's code interpreter: `<|action_start|><|interpreter|>` then code up to
 *   `<|action_end|>` (its `<|plugin|>` calls are JSON in a wrapper: tagged.ts).
 * Code sent to an interpreter FoxAgent does not offer is an `unknown_tool` failure, never prose.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';

const CONTENT = '<|content|>';
const STOP = '<|stop|>';

/** The recipient written before `<|content|>` at `at`, and where its header starts; undefined if none stands there. */
function headerBefore(text: string, at: number): { start: number; recipient: string } | undefined {
  // A header is short: a bounded look back, never a scan of the text before it.
  const from = Math.max(0, at - 160);
  const before = text.slice(from, at);
  const full = /(?:<\|from\|>[ \t]*[\w.-]{0,40}[ \t]*\n?[ \t]*)?<\|recipient\|>[ \t]*([\w.:-]{1,100})[ \t]*\n?[ \t]*$/.exec(before);
  if (full) return { start: from + full.index, recipient: full[1]! };
  // The prompt ended at `<|recipient|>`: the reply opens with the recipient's name.
  if (from === 0) {
    const opening = /^\s*([\w.:-]{1,100})[ \t]*\n?[ \t]*$/.exec(before);
    if (opening) return { start: 0, recipient: opening[1]! };
  }
  return undefined;
}

/** What a message's content to `recipient` asks for: a call, or why there is none. */
function contentAttempt(ctx: ScanContext, recipient: string, content: string, atEnd: boolean): Attempt {
  const body = content.trim();
  if (body.startsWith('{')) {
    if (atEnd && jsonEnding(body) === 'cut') return { problem: 'cut_off', name: recipient };
    const args = parseLooseJson(body);
    if (isRecord(args)) return named(ctx.resolve, recipient, args);
  }
  // Code for `python` (or anything else that is not JSON arguments): a call of an offered tool by that name takes it as its code.
  if (!ctx.resolve(recipient)) return { problem: 'unknown_tool', name: recipient };
  return body.startsWith('{') ? { problem: 'unparsable', name: recipient } : named(ctx.resolve, recipient, { code: body });
}

/** Functionary v2's messages: calls to tools, and the headers of messages to `all` (the prose stays). */
export const functionaryV2: Detector = (ctx) => {
  const text = ctx.text;
  if (!text.includes(CONTENT)) return [];
  // Where each message may end: the next header or a stop token, found once.
  const ends = [...matchesOf(/<\|from\|>|<\|stop\|>/g, text)].map((m) => m.index);
  let e = 0;
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(/<\|content\|>/g, text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const head = headerBefore(text, m.index);
    if (!head || head.start < covered) continue;
    const bodyAt = m.index + CONTENT.length;
    if (head.recipient.toLowerCase() === 'all') {
      spans.push(spanOf(head.start, bodyAt, [], 'anywhere'));
      covered = bodyAt;
      continue;
    }
    while (e < ends.length && ends[e]! < bodyAt) e++;
    const end = e < ends.length ? ends[e]! : text.length;
    const attempt = contentAttempt(ctx, head.recipient, text.slice(bodyAt, end), end === text.length);
    const stop = text.startsWith(STOP, end) ? end + STOP.length : end;
    spans.push(spanOf(head.start, stop, [attempt], 'anywhere'));
    covered = stop;
  }
  return spans;
};

/** InternLM's code interpreter: `<|action_start|><|interpreter|>` and code (fenced or not) up to `<|action_end|>`. */
export const internlmInterpreter: Detector = (ctx) => {
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(/<\|action_start\|>\s*<\|interpreter\|>/g, ctx.text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const bodyAt = m.index + m[0].length;
    const close = ctx.text.indexOf('<|action_end|>', bodyAt);
    const end = close === -1 ? ctx.text.length : close + '<|action_end|>'.length;
    const code = ctx.text.slice(bodyAt, close === -1 ? undefined : close).trim();
    const unfenced = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(code)?.[1] ?? code;
    const attempt: Attempt = ctx.resolve('interpreter') ? named(ctx.resolve, 'interpreter', { code: unfenced }) : { problem: 'unknown_tool', name: 'interpreter' };
    spans.push(spanOf(m.index, end, [attempt], 'token'));
    covered = end;
  }
  return spans;
};

/** A recipient marker: `>>>name\n` (Functionary v3.2) or `<|reserved_special_token_249|>name\n` (v2 on Llama 3). */
const RECIPIENT = /(?:>>>|<\|reserved_special_token_249\|>)[ \t]*([\w.-]{1,100})[ \t]*\n/g;
/** The first call opening the reply without its marker: `name\n{`. */
const OPENING_RECIPIENT = /^\s*([\w.-]{1,100})[ \t]*\n(?=[ \t]*\{)/;

/** Functionary v3.2's and v2-on-Llama-3's calls: each marker's JSON arguments, or code up to the next marker. */
export const functionaryRecipients: Detector = (ctx) => {
  const text = ctx.text;
  const marks = [...matchesOf(RECIPIENT, text)].map((m) => ({ start: m.index, bodyAt: m.index + m[0].length, name: m[1]! }));
  if (!marks.length) return [];
  const opening = OPENING_RECIPIENT.exec(text);
  if (opening && ctx.resolve(opening[1]!)) marks.unshift({ start: opening.index + opening[0].search(/\S/), bodyAt: opening[0].length, name: opening[1]! });
  const spans: Span[] = [];
  let covered = 0;
  for (const [k, mark] of marks.entries()) {
    if (mark.start < covered || ctx.isProtected(mark.start)) continue;
    const next = marks[k + 1]?.start ?? text.length;
    if (mark.name.toLowerCase() === 'all') {
      spans.push(spanOf(mark.start, mark.bodyAt, [], 'anywhere'));
      covered = mark.bodyAt;
      continue;
    }
    let i = mark.bodyAt;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '{') {
      const close = matchBracket(text, i);
      const json = text.slice(i, close === -1 ? undefined : close);
      const args = close === -1 && jsonEnding(json) === 'cut' ? undefined : parseLooseJson(json);
      const attempt: Attempt =
        isRecord(args) ? named(ctx.resolve, mark.name, args) : { problem: close === -1 && !args ? 'cut_off' : 'unparsable', name: mark.name };
      const end = close === -1 ? text.length : close;
      spans.push(spanOf(mark.start, end, [attempt], 'anywhere'));
      covered = end;
      continue;
    }
    // Code for `python` (or another recipient FoxAgent does not offer): up to the next marker.
    if (!ctx.resolve(mark.name) && mark.name !== 'python') continue;
    spans.push(spanOf(mark.start, next, [contentAttempt(ctx, mark.name, text.slice(mark.bodyAt, next), next === text.length)], 'anywhere'));
    covered = next;
  }
  return spans;
};
