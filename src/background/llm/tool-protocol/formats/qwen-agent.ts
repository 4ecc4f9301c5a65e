/**
 * Qwen-Agent's function-calling template (its `qwen` prompt, for Qwen2/2.5 and DashScope models):
 * `✿FUNCTION✿: name`, then `✿ARGS✿: {…}` on the next line (or the same one), a pair for each of
 * parallel calls; the template's stop word `✿RESULT✿` ends the turn. The ✿ markers are the template's
 * own and nothing else writes them: a call wherever it stands, glued to the words before it too. Qwen2
 * also writes the older `[FUNCTION] name` and `[ARGS] {…}`: those start their line.
 */
import { matchesOf, named, spanOf, type Detector, type Span } from '../scan';
import { jsonArgumentsAt } from './special-tokens';

/** A call's head, up to where its arguments start; the older bracketed markers (`[FUNCTION]`, `[ARGS]`) start their line. */
export const MARKED_HEAD = /✿FUNCTION✿[ \t]*:?[ \t]*([^\s✿]{0,100})[ \t]*\r?\n?[ \t]*✿ARGS✿/;
export const BRACKETED_HEAD = /\[FUNCTION\][ \t]*:?[ \t]*([^\s[\]]{0,100})[ \t]*\r?\n?[ \t]*\[ARGS\]/;
const HEAD = new RegExp(`(?:${MARKED_HEAD.source}|^[ \\t]*${BRACKETED_HEAD.source})[ \\t]*:?`, 'gm');

export const qwenAgent: Detector = (ctx) => {
  const spans: Span[] = [];
  let covered = 0;
  for (const m of matchesOf(HEAD, ctx.text)) {
    if (m.index < covered || ctx.isProtected(m.index)) continue;
    const found = jsonArgumentsAt(ctx.text, m.index + m[0].length, true);
    covered = found.end;
    const name = m[1] ?? m[2]!;
    spans.push(spanOf(m.index, found.end, [found.args ? named(ctx.resolve, name, found.args) : { problem: name ? found.problem! : 'unparsable', ...(name ? { name } : {}) }], 'token'));
  }
  return spans;
};
