/**
 * ReAct, as LangChain, LlamaIndex and crewAI prompt for it and models trained on it write:
 *
 *     Thought: I need the temperature.
 *     Action: search
 *     Action Input: {"query": "temperature in SF"}
 *
 * The action must name an offered tool (a gloss after it, `add (adds numbers)`, is dropped); its
 * input is a JSON object, or a Python dict, after at most a few characters of decoration on its
 * line (`** {…}`, `Tool({…})`). The turn ends at the action: what follows (an `Observation:` the
 * model made up, a "final answer" built on it) is the model running past its stop, never shown, so
 * the call's span runs to the end of the reply. An action without an input line is prose.
 */
import { named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { jsonEnding, matchBracket, parseLooseJson } from '../values';

const ACTION = /^[ \t]*Action:[ \t]*([^\s()][^\n()]{0,99}?)[ \t]*(?:\([^)\n]{0,200}\))?[ \t]*\r?\n(?:[ \t]*\r?\n){0,4}[ \t]*Action Input:[ \t]*/gm;
/** What may stand before the input's brace on its line. */
const DECORATION = /^[^\n{]{0,40}?(?=\{)/;

function inputOf(ctx: ScanContext, name: string, text: string, from: number): Attempt {
  const decoration = DECORATION.exec(text.slice(from, from + 41));
  if (!decoration) return { problem: 'unparsable', name };
  const open = from + decoration[0].length;
  const close = matchBracket(text, open);
  const json = close === -1 ? text.slice(open).trim() : text.slice(open, close);
  if (close === -1 && jsonEnding(json) === 'cut') return { problem: 'cut_off', name };
  const args = parseLooseJson(json);
  return args && typeof args === 'object' && !Array.isArray(args) ? named(ctx.resolve, name, args) : { problem: 'unparsable', name };
}

export const react: Detector = (ctx) => {
  const spans: Span[] = [];
  for (const m of ctx.text.matchAll(ACTION)) {
    if (ctx.isProtected(m.index)) continue;
    const name = m[1]!.trim();
    // `Action: None`, `Action: search the web`: no tool named, prose.
    if (!ctx.resolve(name) && /\s/.test(name)) continue;
    spans.push(spanOf(m.index, ctx.text.length, [inputOf(ctx, name, ctx.text, m.index + m[0].length)]));
    // The reply ends at its first action.
    break;
  }
  return spans;
};
