/**
 * A call written as a log line of named fields, as Ornith models write it when the server does not
 * parse their calls: `[Tool Call] name=run-command id=3d4e… args={"command": "…"}`. The `id` is
 * optional; the arguments are a JSON object. Read where the line starts with the marker; whether it
 * stands on its own (nothing but blanks or reasoning beside it) is judged as for every call
 * (parse.ts), so the shape quoted in a sentence stays prose.
 */
import { matchesOf, named, spanOf, type Detector, type Span } from '../scan';
import { isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';

/** `[Tool Call] name=… (id=…) args=` at a line's start, followed by the arguments' `{`. */
const FIELDS = /^[ \t]*\[Tool Call\][ \t]+name=([\w.:-]{1,100})(?:[ \t]+id=[\w.:-]{1,100})?[ \t]+args=(?=\{)/gim;

export const bracketFields: Detector = (ctx) => {
  const text = ctx.text;
  const spans: Span[] = [];
  // Arguments already read are not read again for a marker inside them.
  let covered = 0;
  for (const m of matchesOf(FIELDS, text)) {
    const start = m.index + m[0].search(/\S/);
    if (start < covered || ctx.isProtected(start)) continue;
    const open = m.index + m[0].length;
    const close = matchBracket(text, open);
    const end = close === -1 ? text.length : close + 1;
    const body = text.slice(open, end);
    covered = end;
    if (close === -1 && jsonEnding(body) === 'cut') {
      spans.push(spanOf(start, end, [{ problem: 'cut_off', name: m[1]! }]));
      continue;
    }
    const args = parseLooseJson(body);
    const readable = isRecord(args);
    spans.push(spanOf(start, end, [readable ? named(ctx.resolve, m[1]!, args) : { problem: 'unparsable', name: m[1]! }]));
  }
  return spans;
};
