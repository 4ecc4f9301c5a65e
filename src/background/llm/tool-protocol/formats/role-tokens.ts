/**
 * Formats that address a call with role tokens rather than a wrapper around JSON:
 * - Functionary v2: `<|from|>assistant\n<|recipient|>name\n<|content|>{…}`, one message per call,
 *   several in a row, ended by `<|stop|>`; the recipient `all` is the user (the content is prose),
 *   and the generation prompt ends at `<|recipient|>`, so a reply may open with `name\n<|content|>`.
 * - InternLM2/2.5's code interpreter: `<|action_start|><|interpreter|>` then code up to
 *   `<|action_end|>` (its `<|plugin|>` calls are JSON in a wrapper: tagged.ts).
 * Code sent to an interpreter FoxAgent does not offer is an `unknown_tool` failure, never prose.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { jsonEnding, parseLooseJson } from '../values';

const FROM = '<|from|>';
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
    if (args && typeof args === 'object' && !Array.isArray(args)) return named(ctx.resolve, recipient, args);
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
  for (const m of matchesOf(/<\|action_start\|>[ \t]*<\|interpreter\|>/g, ctx.text)) {
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
