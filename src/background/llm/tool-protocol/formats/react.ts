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
 * the call's span runs to the end of the reply. Actions back to back, each input right after the
 * one before (LLaMA-Factory's parallel calls), are calls each. An action without an input line is prose, unless it ends
 * the reply naming an offered tool (`loneAction`).
 */
import { matchesOf, named, spanOf, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { pythonCallOf } from './special-tokens';
import type { Fence } from './fenced';
import { requiresArguments } from '../tools';
import { singleInput } from '../call-objects';
import { isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';

/** An action's line: its name, a gloss in parentheses after it dropped. */
export const ACTION_LINE = /Action:[ \t]*([^\s()][^\n()]{0,99}?)[ \t]*(?:\([^)\n]{0,200}\))?[ \t]*\r?\n/;
const ACTION = new RegExp(`^[ \\t]*${ACTION_LINE.source}(?:[ \\t]*\\r?\\n){0,4}[ \\t]*Action Input:[ \\t]*`, 'gm');

/** `Action: None`, `Action: search the web`: words that name no tool, prose. */
export const namesNoTool = (name: string, resolve: (n: string) => string | undefined): boolean => /\s/.test(name) && !resolve(name);

/**
 * Words saying no tool is called (`Action: None`, `Action: Final Answer`, `Action: No action needed`). A few other words
 * naming no offered tool, an input on the line below (`Action: Look up`, `Action Input: Capital of Norway`, text-davinci-003),
 * are a tool the model made up: an unknown tool, so the repair turn names the tools there are. A sentence is prose.
 */
const NO_TOOL_WORDS = /^(?:none|n\/a|no\b|not\b|nothing|final answer|answer|respond|reply|finish|done|wait)/i;

/** Words that read as a made-up tool's name: two to four words, no sentence (`Look up`, `Internet Search Tool`). */
export const madeUpTool = (name: string): boolean => /^[A-Za-z][\w-]*(?:[ \t]+[\w-]+){1,3}$/.test(name) && !NO_TOOL_WORDS.test(name);
/** What may stand before the input's brace on its line. */
const DECORATION = /^[^\n{]{0,40}?(?=\{)/;

/** An input in a fence of its own, on the label's line or the next (```` ```python⏎…⏎``` ````): its opening line. */
const FENCED_INPUT = /[ \t]*(?:\r?\n[ \t]*)?(`{3,}|~{3,})[\w+-]{0,20}[ \t]*\r?\n/y;

/**
 * The content of a fenced input starting at `from` (LangChain strips the fence before the tool runs it), and where the
 * fence ends (-1: never closed, it runs to the next ReAct line or the end of the reply); undefined if no fence opens there.
 */
function fencedInput(text: string, from: number): { body: string; end: number } | undefined {
  FENCED_INPUT.lastIndex = from;
  const open = FENCED_INPUT.exec(text);
  if (!open) return undefined;
  const bodyFrom = FENCED_INPUT.lastIndex;
  const marker = open[1]!;
  const close = new RegExp(`^[ \\t]*${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*\\r?$`, 'gm');
  close.lastIndex = bodyFrom;
  const m = close.exec(text);
  if (m) return { body: text.slice(bodyFrom, m.index), end: m.index + m[0].length };
  const next = NEXT_STEP.exec(text.slice(bodyFrom));
  return { body: next ? text.slice(bodyFrom, bodyFrom + next.index) : text.slice(bodyFrom), end: -1 };
}

/** The action's input and where it ends (-1: it runs to the end of the reply). */
function inputOf(ctx: ScanContext, name: string, text: string, from: number): { attempt: Attempt; end: number } {
  const fenced = fencedInput(text, from);
  if (fenced) {
    const body = fenced.body.trim();
    if (body.startsWith('{')) {
      // A fence the reply ended inside, its JSON cut in a value: never the cut value.
      if (fenced.end === -1 && jsonEnding(body) === 'cut') return { attempt: { problem: 'cut_off', name }, end: -1 };
      const args = parseLooseJson(body);
      return { attempt: isRecord(args) ? named(ctx.resolve, name, args) : { problem: 'unparsable', name }, end: fenced.end };
    }
    return { attempt: wordsInput(ctx, name, body, 0), end: fenced.end };
  }
  const decoration = DECORATION.exec(text.slice(from, from + 41));
  if (!decoration) return { attempt: wordsInput(ctx, name, text, from), end: -1 };
  const open = from + decoration[0].length;
  const close = matchBracket(text, open);
  const end = close === -1 ? -1 : close + 1;
  const json = close === -1 ? text.slice(open).trim() : text.slice(open, close);
  if (close === -1 && jsonEnding(json) === 'cut') return { attempt: { problem: 'cut_off', name }, end };
  const args = parseLooseJson(json);
  return { attempt: isRecord(args) ? named(ctx.resolve, name, args) : { problem: 'unparsable', name }, end };
}

/** Where words given as an input end: at the next ReAct line (the model running on past its stop) or the reply's end. */
const NEXT_STEP = /\n[ \t]*(?:Observation|Thought|Action|Final Answer|(?:Tool )?(?:Result|Output))\s*:/;

/**
 * An input written as words (`Action Input: what is the temperature in SF?`), as LangChain's single-input tools take it:
 * stripped of blanks and of the quotes or backticks around it, it is the tool's one parameter.
 */
function wordsInput(ctx: ScanContext, name: string, text: string, from: number): Attempt {
  const rest = text.slice(from);
  const next = NEXT_STEP.exec(rest);
  // Quotes or backticks around the whole input are the model's, not the input's (LangChain strips both).
  const words = (next ? rest.slice(0, next.index) : rest).trim().replace(/^"([^"]*)"$|^`([^`]*)`$/, '$1$2');
  const tool = ctx.resolve(name);
  // No input (`Action Input: ""`) for a tool that requires none: a call without arguments.
  if (!words && tool && !requiresArguments(ctx.tools.schemaOf(tool))) return named(ctx.resolve, name, {});
  const args = tool ? singleInput(words, ctx.tools.schemaOf(tool)) : undefined;
  return args ? named(ctx.resolve, name, args) : { problem: 'unparsable', name };
}

/**
 * An action written as a call on its line, no input line after it, as many ReAct prompts ask
 * (`Action: tool_name(arguments)`): `Action: search_flights("HAN", "SGN")`, `Action: get_weather(city="Hue")`,
 * `Action: fetch_stock({"ticker": "FPT"})`; or in the ReAct paper's brackets, `Action: Search[David Chanoff]`. It must
 * call an offered tool; the turn ends at it, as at any action, and actions back to back are calls each.
 */
const ACTION_CALL = /^[ \t]*Action:[ \t]*([A-Za-z_][\w.-]{0,99})[ \t]*[([]/gm;

/** The call an action line writes, and where it ends; undefined where its name is no offered tool's. */
function actionCallAt(ctx: ScanContext, m: RegExpExecArray): { attempt: Attempt; end: number } | undefined {
  const name = m[1]!;
  if (!ctx.resolve(name)) return undefined;
  const open = m.index + m[0].length - 1;
  const close = matchBracket(ctx.text, open);
  // Its brackets never closed: the reply ended inside the call.
  if (close === -1) return { attempt: { problem: 'cut_off', name }, end: ctx.text.length };
  const inner = ctx.text.slice(open + 1, close - 1).trim();
  // One JSON object between the brackets: the arguments.
  const json = inner.startsWith('{') ? parseLooseJson(inner) : undefined;
  if (isRecord(json)) return { attempt: named(ctx.resolve, name, json), end: close };
  // The paper's `Search[words]`: the words, unquoted, are the input.
  if (ctx.text[open] === '[') {
    const input = singleInput(inner.replace(/^(["'])(.*)\1$/s, '$2'), ctx.tools.schemaOf(ctx.resolve(name)!));
    return { attempt: input ? named(ctx.resolve, name, input) : { problem: 'unparsable', name }, end: close };
  }
  const call = pythonCallOf(`${name}${ctx.text.slice(open, close)}`, ctx.resolve);
  if (call) return { attempt: call, end: close };
  // Words between the brackets (`Action: age(Leonardo DiCaprio)`): a single-input tool's input.
  const words = inner && !/["'{[]/.test(inner) ? singleInput(inner, ctx.tools.schemaOf(ctx.resolve(name)!)) : undefined;
  return { attempt: words ? named(ctx.resolve, name, words) : { problem: 'unparsable', name }, end: close };
}

/** Actions written as calls (`ACTION_CALL`): one span from the first to the end of the reply. */
export const reactCalls: Detector = (ctx) => {
  const attempts: Attempt[] = [];
  let start = -1;
  let after = -1;
  for (const m of matchesOf(ACTION_CALL, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    if (start !== -1 && ctx.text.slice(after, m.index).trim() !== '') break;
    const action = actionCallAt(ctx, m);
    if (!action) {
      if (start === -1) continue;
      break;
    }
    if (start === -1) start = m.index;
    attempts.push(action.attempt);
    after = action.end;
    // Cut off: the reply ended inside it, so every later action is inside it too.
    if (after >= ctx.text.length) break;
  }
  return start === -1 ? [] : [spanOf(start, ctx.text.length, attempts)];
};

/**
 * A fence opening the reply, with no language, around a ReAct step (`` ``` ``, `Thought: …`, `Action: …`): the step is
 * the model's, fenced whole (crewAI's gpt-4o-mini, its fence sometimes never closed). Its action is read, and its
 * opening marker goes with it.
 */
function stepFence(ctx: ScanContext): Fence | undefined {
  const fence = ctx.fences[0];
  if (!fence || fence.lang !== '' || fence.start !== ctx.text.search(/\S/)) return undefined;
  return /^\s*(?:Thought|Action)[ \t]*:/.test(fence.body) ? fence : undefined;
}

export const react: Detector = (ctx) => {
  const attempts: Attempt[] = [];
  let start = -1;
  /** Where the last input ended: another action may follow it directly. */
  let after = -1;
  const fence = stepFence(ctx);
  const inStep = (i: number) => fence !== undefined && i > fence.start && i < fence.end;
  for (const m of ctx.text.matchAll(ACTION)) {
    if (ctx.isProtected(m.index) && !inStep(m.index)) continue;
    // After the first action, only an action right after the last input is one more call; the rest is the model running on.
    if (start !== -1 && (after === -1 || ctx.text.slice(after, m.index).trim() !== '')) break;
    const name = m[1]!.trim();
    if (namesNoTool(name, ctx.resolve) && !madeUpTool(name)) {
      if (start === -1) continue;
      break;
    }
    if (start === -1) start = m.index;
    const input = inputOf(ctx, name, ctx.text, m.index + m[0].length);
    // A tool that is not offered is unknown, whatever its input is written as.
    attempts.push(ctx.resolve(name) ? input.attempt : { problem: 'unknown_tool', name });
    after = input.end;
    if (after === -1) break;
  }
  if (start === -1) return loneAction(ctx);
  const span = spanOf(start, ctx.text.length, attempts);
  return fence && inStep(start) ? [{ start: fence.start, end: fence.start + fence.lineLength, calls: [] }, span] : [span];
};

/** The reply's last line, an action naming an offered tool and nothing after it: `Action: get_now`. */
const LONE_ACTION = /(?:^|\n)[ \t]*Action:[ \t]*([A-Za-z_][\w.-]{0,99})[ \t]*\s*$/;

/**
 * An action ending the reply with no input line (Llama 3.2 3B under LangChain: `Action: get_now`): a call of a tool that
 * requires no arguments; for one that requires some, the call tried without them, unreadable, for the repair turn.
 */
function loneAction(ctx: ScanContext): Span[] {
  const m = LONE_ACTION.exec(ctx.text.slice(-160));
  if (!m) return [];
  const start = ctx.text.length - Math.min(160, ctx.text.length) + m.index + (m[0].startsWith('\n') ? 1 : 0);
  const tool = ctx.resolve(m[1]!);
  if (!tool || ctx.isProtected(start)) return [];
  return [spanOf(start, ctx.text.length, [requiresArguments(ctx.tools.schemaOf(tool)) ? { problem: 'unparsable', name: m[1]! } : named(ctx.resolve, m[1]!, {})])];
}
