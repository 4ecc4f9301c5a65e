/**
 * What the streaming filter recognises at the start of held text, for the offered tools: whether
 * it may still grow into markup (`couldOpen`, from `stream-partial.ts`), which markup opens there and
 * how it closes (`opener`), and where no markup can open at all (`cannotOpenAt`). The fixed openers
 * are in `stream-openers.ts`; the patterns built from the tools' names in `stream-names.ts`.
 */
import { callLabel } from './formats/reply-calls';
import { LEAKED_TOOL_USE } from './formats/bare';
import { LABEL_LINE, PYTHON_FENCE_LANGS } from './formats/fenced';
import { CALL_TAG_NAME } from './formats/tagged';
import { ACTION_LINE, madeUpTool, namesNoTool } from './formats/react';
import { CALL_FENCE_LANGS, FIXED_OPENERS, JSON_CALL, SENTENCE_END, tag, wrapper, type CloserSpec } from './stream-openers';
import { escapeRegExp } from './template-tokens';
import { fenceOpening, TripleQuoteScan } from './stream-scans';
import { FENCED_WRAPPER_TAGS, namePatterns, startsFence } from './stream-names';
import { partialTest } from './stream-partial';
import type { ToolInput } from './tools';

/** Where the held text stands in what was shown. */
export interface Position {
  /** At the start of a line (or after reasoning, before any content, or after calls waiting for their line's end). */
  lineStart: boolean;
  lineQuoted: boolean;
  /** Anything but blanks shown yet. */
  shownContent: boolean;
  hidAnything: boolean;
  /** Whether reasoning was hidden: after it, a bare `</think>` ends nothing the template opened. */
  hidReasoning: boolean;
  /** Finished calls wait for their line's end. */
  pending: boolean;
  /** Nothing but blanks was shown since a call was hidden (invented-responses.ts). */
  afterCall: boolean;
  /** The recipient just hidden (`to=container.exec`, `to=self`): a commentary message after one is no preamble, a message to `self` is reasoning. */
  recipient: string | undefined;
  /** The last characters shown. */
  recent: string;
}

export interface Recogniser {
  /** Whether all that was shown is a label opening the reply (`tools call: `), which calls may follow on its line. */
  afterLabel(at: Position): boolean;
  /** Where in `held` a label opening the reply ends, with what was shown before it (-1: none): calls may start there. */
  labelEndIn(held: string, at: Position): number;
  couldOpen(text: string, at: Position): boolean;
  opener(held: string, at: Position): CloserSpec | undefined;
  cannotOpenAt(text: string, i: number): boolean;
}


/** Gemma 4's call body without its wrapper or `call:` (formats/gemma.ts): a name, `{`, and its string token soon after. */
const HEADLESS_GEMMA = /^[A-Za-z_][\w.-]{0,99}\{[^\n]{0,100}?<\|"\|>/;

/** The input line below an action (blank lines between, as formats/react.ts allows). */
const ACTION_INPUT_AFTER = /^(?:[ \t]*\r?\n){0,4}[ \t]*Action Input:/;

/** ReAct's action line, complete (formats/react.ts). */
const REACT_ACTION = new RegExp(`^${ACTION_LINE.source}`);

/**
 * The characters a regular expression's match must start with, where its source says so plainly (`^<`, `^\\[`, both
 * cases under `i`); undefined where it may start otherwise (a group, a class, an optional first character).
 */
export function firstCharsOf(re: RegExp): Set<string> | undefined {
  const src = re.source;
  if (src[0] !== '^') return undefined;
  let ch = src[1];
  let next = 2;
  if (ch === '\\') {
    ch = src[2];
    next = 3;
    if (ch === undefined || /[A-Za-z0-9]/.test(ch)) return undefined;
  } else if (ch === undefined || '([.|$'.includes(ch)) return undefined;
  if ('?*{'.includes(src[next] ?? '')) return undefined;
  return new Set(re.flags.includes('i') ? [ch.toLowerCase(), ch.toUpperCase()] : [ch]);
}


/** A ReAct step's first line, as a fence opening the reply may hold it. */
const REACT_STEP = /^\s*(?:Thought|Action)[ \t]*:/;

/** Each fixed opener's first characters, by its index (undefined: it is always tried). */
const OPENER_FIRSTS = FIXED_OPENERS.map((o) => firstCharsOf(o.match));
/** The fixed openers that may start with a character, in their order: those always tried, and those starting so. */
const ALWAYS_TRIED = FIXED_OPENERS.filter((_, k) => !OPENER_FIRSTS[k]);
const OPENERS_BY_FIRST = new Map(
  [...new Set(OPENER_FIRSTS.flatMap((firsts) => [...(firsts ?? [])]))].map((ch) => [ch, FIXED_OPENERS.filter((_, k) => !OPENER_FIRSTS[k] || OPENER_FIRSTS[k]!.has(ch))] as const),
);

/** A Python call list's opening, whatever the name: `[name(`. */
const UNKNOWN_CALL_LIST = /^\[\s*[A-Za-z_][\w.-]{0,99}\s*\(/;

export function createRecogniser(tools: readonly ToolInput[]): Recogniser {
  const patterns = namePatterns(tools);
  const { table, toolTag, pythonStart, quotedCallList, afterCallLabel, wrappedCall, mistralArgs, bareFunction, reactCall, decoratedCall, pairCallList, toolKeyedJson, recipientArgs, recipientContent, kimiHeadless, loggedCall, loggedInvoke, labelPair, chatglmHead, kimiBare, elementCall, fieldsHead } = patterns;
  const couldOpen = partialTest(patterns);

  /** Whether the characters at `i` rule out every opener (most prose, and runs of `<`, `[` or `{`). */
  const cannotOpenAt = (text: string, i: number): boolean => {
    if (i + 1 >= text.length) return false;
    const next = text[i + 1]!;
    const ch = text[i];
    // `<<function>>` (Gorilla OpenFunctions v2) is the one opener that starts with two.
    if (ch === '<') return !/[\w|｜/]/.test(next) && !(next === '<' && (i + 2 >= text.length || text[i + 2] === 'f'));
    if (ch === '[') return !/[\s{\w/'"([]/.test(next);
    // `{"name"` or a Python dict's `{'name'`.
    if (ch === '{') return !/[\s"'“]/.test(next);
    if (ch === '>') return next !== '>';
    // `$` before a call's JSON, copied from LangChain's `$JSON_BLOB`.
    if (ch === '$') return next !== '{';
    return false;
  };

  /** A complete opener at the start of `held`, with how it closes. */
  const opener = (held: string, at: Position): CloserSpec | undefined => {
    const lineStart = at.lineStart;
    // A call in inline code opening the reply: a call only as the whole reply, which the parser judges at its end.
    if (!at.shownContent && lineStart && !at.lineQuoted && /^`[^`]/.test(held) && pythonStart.test(held.slice(1))) return { kind: 'end', verify: true };
    // Calls' JSON in a fence on one line opening the reply: calls only as the whole reply, which the parser judges at its end.
    if (!at.shownContent && lineStart && !at.lineQuoted && /^```(?:json)?[ \t]*(?:\{|\[[ \t]*\{)/.test(held)) return { kind: 'end', verify: true };
    if (startsFence(held)) return lineStart && !at.lineQuoted ? fenceOpener(held, at) : undefined;
    // A tool's response the model invents right after its call: hidden, up to its closing tag or the reply's end.
    if (at.afterCall && lineStart && !at.lineQuoted && /^<tool_response>/i.test(held)) return { ...tag(/<\/tool_response\s*>/i), drop: true };
    // GPT-OSS's analysis channel after a recipient shown as text (`to=functions.name`, quoted) carries a call, not reasoning: as the parser reads it.
    if (held.startsWith('<|channel|>analysis') && (at.recipient?.startsWith('functions.') || /to=functions\.[\w.:-]{1,100}\s{0,8}$/.test(at.recent))) return at.lineQuoted ? undefined : tag(/<\|call\|>|<\|end\|>/);
    // Gemma 4's call body opening the reply without its wrapper or `call:`: a call (or an unknown tool's) if the parser reads one.
    if (!at.shownContent && lineStart && !at.lineQuoted && HEADLESS_GEMMA.test(held)) return { kind: 'end', verify: true };
    // Hunyuan's `<answer>` opening what the user sees, after the reasoning that opens the reply: a template token.
    if (!at.shownContent && at.hidReasoning && held.startsWith('<answer>')) return { ...tag(/>/), drop: true };
    // Glimmer: after its header, a message to `self` is reasoning up to its end; to anyone else, the message token goes.
    if (held.startsWith('<|message|>') && at.recipient !== undefined) return at.recipient === 'self' ? tag(/<\|eo[mt]\|>|(?=<\|start\|>)/) : { ...tag(/>/), drop: true };
    // After a recipient, a commentary message carries that recipient's call, whatever follows its header.
    if (at.recipient !== undefined && !at.lineQuoted && /^<\|channel\|>\s*commentary/.test(held)) return { ...tag(/<\|call\|>/), ...(lineStart ? { sure: true } : { mid: true }) } as CloserSpec;
    for (const o of OPENERS_BY_FIRST.get(held[0]!) ?? ALWAYS_TRIED) {
      if (!o.anywhere && (at.lineQuoted || (!lineStart && !o.glued))) continue;
      if (o.preamble && at.recipient !== undefined) continue;
      const m = held.match(o.match);
      if (!m) continue;
      // A template's wrapper right after a word (no blank between) is how special tokens come out: once read as a call, hidden whatever follows it, as in the parser.
      const gluedToWord = !lineStart && o.glued === true && /\S$/.test(at.recent);
      return { ...o.closer(m), ...(o.sure || (o.token && lineStart) || gluedToWord ? { sure: true } : {}), ...(o.drop ? { drop: true } : {}), ...(lineStart ? {} : { mid: true }) } as CloserSpec;
    }
    if (!at.lineQuoted && kimiBare.test(held)) return { kind: 'balanced', brace: true, ...(lineStart ? {} : { mid: true }) };
    // Anthropic's tool_use blocks a gateway leaked into the text, glued to the words and to each other: calls only as a run
    // ending the reply (formats/bare.ts), which the parser judges at its end.
    if (!at.lineQuoted && LEAKED_TOOL_USE.test(held)) return { kind: 'end', verify: true, ...(lineStart ? {} : { mid: true }) };
    // A JSON call after the model's words on its line is a call only as the end of the reply, as in the parser: wait and see.
    if (!lineStart && !at.lineQuoted && JSON_CALL.test(held)) return { kind: 'balanced', endOnly: true, mid: true };
    // Python calls after a label opening the reply (`tools call: [f(…)]`) are calls if they end the reply: wait and see.
    if (!lineStart && afterCallLabel(at) && pythonStart.test(held)) return { kind: 'balanced', endOnly: true, mid: true };
    // GLM-4's name glued to a sentence, its arguments on the next line: a call only as the end of the reply, which the parser judges.
    if (!lineStart && !at.lineQuoted && SENTENCE_END.test(at.recent) && recipientArgs.test(held)) return { kind: 'end', verify: true, mid: true };
    if (!lineStart || at.lineQuoted) return undefined;
    if (quotedCallList.test(held) || pairCallList.test(held)) return { kind: 'balanced', plain: true };
    // A Python call list opening the reply (after reasoning, perhaps) that names no offered tool: a failed call if it is the whole reply, which the parser judges at its end.
    if (!at.shownContent && (!at.hidAnything || at.hidReasoning) && UNKNOWN_CALL_LIST.test(held) && !pythonStart.test(held)) return { kind: 'end', verify: true };
    const named = held.match(toolTag);
    if (named) {
      const tool = table.resolve(named[1]!);
      const words = tool !== undefined && Object.keys(table.schemaOf(tool)?.properties ?? {}).length === 1;
      return { kind: 'tool-tag', name: named[1]!, close: new RegExp(`</${escapeRegExp(named[1]!)}\\s*>`, 'gi'), last: '', tail: '', ...(words ? { words } : {}) };
    }
    const element = elementCall(held);
    if (element === 'maybe') return undefined;
    if (element) return element;
    // A tag no template names whose name says it holds calls (`<call>`, `<action>`): hidden if the parser reads calls in it.
    const unnamed = /^<([a-z][\w-]{0,40})>/i.exec(held);
    if (unnamed && CALL_TAG_NAME.test(unnamed[1]!)) return wrapper(new RegExp(`</${escapeRegExp(unnamed[1]!)}\\s*>`, 'i'), unnamed[0].length);
    if (toolKeyedJson.test(held)) return { kind: 'balanced', plain: true };
    if (held[0] === '$' && JSON_CALL.test(held.slice(1))) return { kind: 'balanced', plain: true };
    if (loggedCall.test(held)) return { kind: 'balanced', plain: true };
    if (loggedInvoke.test(held)) return wrapper(/<\/invoke>/i);
    if (held.startsWith('<<function>>')) return wrapper(/(?=\r?\n)/);
    if (labelPair.test(held)) return { kind: 'balanced', brace: true };
    if (!at.shownContent && chatglmHead.test(held)) return { kind: 'balanced' };
    // An OpenAI-style `{"tool_calls": […]}` opening the reply counts whatever follows it on its line, as in the parser.
    if (JSON_CALL.test(held)) return { kind: 'balanced', ...(at.shownContent || at.pending || !/^\{\s*"tool_calls"/.test(held) ? { plain: true } : { firm: true }) };
    if (held[0] === '[' && pythonStart.test(held)) return { kind: 'balanced', plain: true };
    if (!at.shownContent && pythonStart.test(held)) return { kind: 'balanced', plain: true };
    if (pythonStart.test(held)) return { kind: 'balanced', endOnly: true };
    // Calls in bold or as headings opening the reply: calls only if the whole reply is such lines, which the parser judges at its end.
    if (!at.shownContent && decoratedCall.test(held)) return { kind: 'end', verify: true };
    // Gemma's `tool_code = name(…)` + `print(tool_code)`, or `print(name(…))`: a call only as the end of the reply, which the parser judges.
    if (wrappedCall.test(held)) return { kind: 'end', verify: true };
    if (mistralArgs.test(held)) return { kind: 'balanced', brace: true };
    if (kimiHeadless.test(held)) return { ...wrapper(/<\|tool_call_end\|>(?:[ \t]*<\|tool_calls_section_end\|>)?|<\|tool_calls_section_end\|>/), sure: true } as CloserSpec;
    if (!at.shownContent && recipientArgs.test(held)) return { kind: 'balanced', brace: true };
    if (!at.shownContent && recipientContent.test(held)) return wrapper(/<\|stop\|>|(?=<\|from\|>)/);
    // A tool's name alone on the line opening the reply, its arguments as `key: value` lines below: runs to the end of the
    // reply, hidden as far as the parser reads a call in it (formats/name-lines.ts).
    if (!at.shownContent && fieldsHead(held) === true) return { kind: 'end', verify: true };
    // ReAct's action naming an offered tool, or one word (an unknown tool): the turn ends there, so it runs to the end of
    // the reply, hidden if the parser reads a call in it. Words that name no tool (`Action: Final Answer`) are prose.
    // An action written as a call of an offered tool (`Action: search("…")`): the turn ends there, as at any action.
    if (reactCall.test(held)) return { kind: 'end', verify: true };
    const reactAction = REACT_ACTION.exec(held);
    if (reactAction && !namesNoTool(reactAction[1]!, table.resolve)) return { kind: 'end', verify: true };
    // Words naming no offered tool, an input line below: a tool the model made up, which the parser reads as an unknown tool.
    if (reactAction && madeUpTool(reactAction[1]!.trim()) && ACTION_INPUT_AFTER.test(held.slice(reactAction[0].length))) return { kind: 'end', verify: true };
    // An action naming an offered tool, its line not ended: it may end the reply with no input line (formats/react.ts).
    const loneAction = /^Action:[ \t]*([A-Za-z_][\w.-]{0,99})[ \t]*$/.exec(held);
    if (loneAction && table.resolve(loneAction[1]!)) return { kind: 'end', verify: true };
    // Command R+ and LangChain's structured chat: `Action:` on the line before the call's fence, or before its marker.
    const action = /^Action:[ \t]*(?:\n|(?=[`~]))/.exec(held);
    const actionFence = action ? fenceOpening(held.slice(action[0].length)) : undefined;
    // The turn ends at the action, so it runs to the end of the reply: hidden if the parser reads a call in it.
    if (actionFence && actionFence !== 'partial' && CALL_FENCE_LANGS.test(actionFence.lang)) return { kind: 'end', verify: true };
    // Or before a call's JSON on the lines after it (formats/bare.ts).
    if (action?.[0].endsWith('\n') && JSON_CALL.test(held.slice(action[0].length).trimStart())) return { kind: 'end', verify: true };
    // `name{…}</function>`: a call whose opening tag was lost; only its closing tag shows it is one.
    if (bareFunction.test(held)) return wrapper(/\}\s*<\/function>/i);
    return fenceOpener(held, at);
  };

  /** A fence at the start of `held` that may hold calls, read whole. */
  const fenceOpener = (held: string, at: Position): CloserSpec | undefined => {
    const fence = fenceOpening(held);
    if (!fence || fence === 'partial') return undefined;
    if (!CALL_FENCE_LANGS.test(fence.lang)) return /^\s*\[?\s*\{/.test(held.slice(fence.body)) ? { kind: 'fence', marker: fence.marker, lineStart: -1, matched: 0, phase: 'fail' } : undefined;
    const body = held.slice(fence.body);
    const first = body.search(/\S/);
    // A ReAct step fenced whole, opening the reply (formats/react.ts): read at the end, where the parser shows its thought.
    if (!at.shownContent && fence.lang === '' && REACT_STEP.test(body)) return { kind: 'end', verify: true };
    const wrapped = !at.shownContent && FENCED_WRAPPER_TAGS.some((t) => body.slice(first, first + t.length).toLowerCase() === t);
    const rest = body.slice(first).replace(LABEL_LINE, '');
    const assigned = /^[A-Za-z_]\w{0,60}[ \t]*=[ \t]*/.exec(rest);
    // A fence that says it holds a call (```tool_code, ```tool_call) holding a Python call of any tool: a failed call if it names none offered.
    const anyCall = /^(?:tool|function_?call)/i.test(fence.lang) && /^[A-Za-z_][\w.]{0,99}\s*\(/.test(rest);
    if (first !== -1 && (wrapped || anyCall || /^\s*[[{]/.test(rest) || pythonStart.test(rest) || (assigned && pythonStart.test(rest.slice(assigned[0].length))) || body.startsWith('print(', first) || body.startsWith('TOOL_NAME:', first))) {
      return { kind: 'fence', marker: fence.marker, lineStart: -1, matched: 0, phase: 'fail', ...(PYTHON_FENCE_LANGS.has(fence.lang.toLowerCase()) ? { strings: new TripleQuoteScan() } : {}) };
    }
    return undefined;
  };

  const labelEndIn = (held: string, at: Position): number => {
    const shownText = at.recent.trimStart();
    if (at.recent.length > 80 || at.lineQuoted || shownText.includes('\n')) return -1;
    const label = callLabel(shownText + held.slice(0, 120));
    const end = label ? label[0].length - shownText.length : -1;
    return end > 0 && end < held.length ? end : -1;
  };

  return { afterLabel: afterCallLabel, labelEndIn, couldOpen, opener, cannotOpenAt };
}
