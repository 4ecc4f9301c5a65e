/**
 * Calls introduced by a marker or label on their line:
 * - Gorilla OpenFunctions v2: `<<function>>name(key=value)`, several on one line, each after its marker;
 * - a prompt's own label pair, `TOOL_CALL: name` then `ARGS: {…}` on the next line (Qwen2.5 3B given such a prompt);
 * - ChatGLM3 opening its reply with the tool's name alone on its line, then `tool_call(key=value)`.
 * Each names an offered tool (an unknown one after Gorilla's marker is a failure) and stands on lines of its own.
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type Span } from '../scan';
import { isRecord, matchBracket, parseLooseJson } from '../values';
import { parsePythonCall } from '../python-calls';

const GORILLA_LINE = /^[ \t]*<<function>>[^\n]*/gm;
const LABEL_PAIR = /^[ \t]*TOOL_CALL:[ \t]*([A-Za-z_][\w.-]{0,99})[ \t]*\r?\n[ \t]*ARGS:[ \t]*(?=\{)/gm;
const CHATGLM_HEAD = /^\s*([A-Za-z_][\w.-]{0,99})[ \t]*\r?\n[ \t]*tool_call(?=\()/;

export const labelCalls: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  if (text.includes('<<function>>')) {
    for (const m of matchesOf(GORILLA_LINE, text)) {
      if (ctx.isProtected(m.index)) continue;
      const parts = m[0].trim().split('<<function>>').slice(1);
      const attempts: Attempt[] = parts.map((part) => {
        const call = parsePythonCall(part.trim());
        return call ? named(ctx.resolve, call.name, call.arguments) : { problem: 'unparsable' };
      });
      if (attempts.length) spans.push(spanOf(m.index, m.index + m[0].length, attempts));
    }
  }
  if (text.includes('TOOL_CALL:')) {
    let covered = 0;
    for (const m of matchesOf(LABEL_PAIR, text)) {
      if (m.index < covered || ctx.isProtected(m.index) || !ctx.resolve(m[1]!)) continue;
      const open = m.index + m[0].length;
      const close = matchBracket(text, open);
      // Arguments never closed run to the end of the reply: no later pair is read again from inside them.
      if (close === -1) break;
      covered = close;
      const args = parseLooseJson(text.slice(open, close));
      spans.push(spanOf(m.index, close, [isRecord(args) ? named(ctx.resolve, m[1]!, args) : { problem: 'unparsable', name: m[1] }]));
    }
  }
  const head = CHATGLM_HEAD.exec(text);
  if (head && ctx.resolve(head[1]!) && !ctx.isProtected(head.index + head[0].search(/\S/))) {
    const open = head[0].length;
    const close = matchBracket(text, open);
    const call = close === -1 ? undefined : parsePythonCall(`${head[1]}${text.slice(open, close)}`);
    if (call) spans.push(spanOf(head[0].search(/\S/), close, [named(ctx.resolve, call.name, call.arguments)]));
  }
  return spans;
};
