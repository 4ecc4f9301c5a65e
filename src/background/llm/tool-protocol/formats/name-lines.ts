/**
 * Lines that start with an offered tool's name and its arguments' opening bracket, `name(…)` or
 * `name{…}`, read after every other format had its turn:
 * - ending the reply (after prose, on lines of their own), `name(key=value)`, `name({…})` or
 *   `name{…}` (a call whose special token the server stripped) is the call;
 * - standing as a call would but giving none (its arguments unreadable, or cut off at the end), it
 *   is a failure, so the repair turn asks again instead of the attempt vanishing.
 * A readable `name(…)` line between paragraphs of prose is an example the model shows, not a call.
 * Whether each line stands on its own (nothing but blanks or reasoning beside it) is judged as for
 * every call (parse.ts).
 */
import { isCall, matchesOf, named, spanOf, type Attempt, type Detector, type NameResolver, type Span } from '../scan';
import { jsonEnding, matchBracket, parseLooseJson, parsePythonCall } from '../values';
import { contentEnd } from './bare';

/**
 * `name(` or `name{` starting a line. Gemma's and Gemini's tool code, its fence left out, wraps the
 * call: `print(name(…))`, or `tool_code = name(…)` then `print(tool_code)`.
 */
const NAME_LINE = /^[ \t]*(tool_code[ \t]*=[ \t]*|print\([ \t]*)?([A-Za-z_][\w.:-]{0,99})[ \t]*([({])/gm;
/** What closes a wrapped call: `print(tool_code)` after the assignment, `)` after `print(`. */
const AFTER_ASSIGNMENT = /^\s*print\(\s*tool_code\s*\)/;
const AFTER_PRINT = /^[ \t]*\)/;

export const nameLines: Detector = (ctx) => {
  const text = ctx.text;
  const tailEnd = contentEnd(text);
  const spans: Span[] = [];
  // A line inside arguments already read is part of them: each stretch is read once.
  let covered = 0;
  for (const m of matchesOf(NAME_LINE, text)) {
    const start = m.index + m[0].search(/\S/);
    const open = m.index + m[0].length - 1;
    if (start < covered || ctx.isProtected(start) || !ctx.resolve(m[2]!)) continue;
    const paren = m[3] === '(';
    // Keyword arguments stay on their line (an apostrophe in a sentence must not open a string to
    // the end of the reply); a JSON object, `name({…})` or `name{…}`, may span lines.
    let i = open + 1;
    while (text[i] === ' ' || text[i] === '\t') i++;
    const lineEnd = paren && text[i] !== '{' ? lineEndFrom(text, open) : text.length;
    const inLine = matchBracket(text, open, lineEnd);
    const callEnd = inLine !== -1 ? inLine : paren ? parenEnd(text, open, lineEnd) : lineEnd;
    const wrapped = m[1] ? (m[1].startsWith('print') ? AFTER_PRINT : AFTER_ASSIGNMENT).exec(text.slice(callEnd, callEnd + 64)) : null;
    // `print(name(…)` without its own closing paren is not the wrapped call.
    if (m[1]?.startsWith('print') && !wrapped) continue;
    const end = wrapped ? callEnd + wrapped[0].length : callEnd;
    covered = end;
    const endsReply = end >= tailEnd;
    const attempt = lineAttempt(text.slice(start + (m[1]?.length ?? 0), callEnd), m[2]!, paren, inLine === -1, endsReply, ctx.resolve);
    // A readable call counts only where it ends the reply; `name{…}` and wrapped calls are read only there.
    if (attempt && (endsReply || (paren && !m[1] && !isCall(attempt)))) spans.push(spanOf(start, end, [attempt]));
  }
  return spans;
};

/** Past the `)` closing the one at `open` on its line, quotes ignored (`search(it's here)`), else the line's end. */
function parenEnd(text: string, open: number, lineEnd: number): number {
  let depth = 0;
  for (let i = open; i < lineEnd; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return lineEnd;
}

function lineEndFrom(text: string, at: number): number {
  const newline = text.indexOf('\n', at);
  return newline === -1 ? text.length : newline;
}

/** The call a `name(…)` or `name{…}` stretch gives, or why it gives none; `open`: its bracket never closes. */
function lineAttempt(stretch: string, rawName: string, paren: boolean, open: boolean, endsReply: boolean, resolve: NameResolver): Attempt | undefined {
  const body = stretch.slice(stretch.indexOf(paren ? '(' : '{') + (paren ? 1 : 0)).trim();
  if (open && (paren || jsonEnding(body) === 'cut')) return { problem: endsReply ? 'cut_off' : 'unparsable', name: rawName };
  if (paren) {
    const call = parsePythonCall(stretch);
    return call ? named(resolve, rawName, call.arguments) : { problem: 'unparsable', name: rawName };
  }
  const args = parseLooseJson(body);
  return args && typeof args === 'object' && !Array.isArray(args) ? named(resolve, rawName, args) : { problem: 'unparsable', name: rawName };
}
