/**
 * What the streaming filter recognises at the start of held text, for the offered tools: whether
 * it may still grow into markup (`couldOpen`), which markup opens there and how it closes
 * (`opener`), and where no markup can open at all (`cannotOpenAt`). The fixed openers are in
 * `stream-openers.ts`; the ones built from the tools' names are here.
 */
import { callLabel } from './formats/reply-calls';
import { BODY_LABELS, FENCED_WRAPPERS, LABEL_LINE } from './formats/fenced';
import { ARGUMENTS_ELEMENTS, CALL_TAG_NAME, LEAD_ELEMENTS, NAME_ELEMENTS } from './formats/tagged';
import { ACTION_LINE, namesNoTool } from './formats/react';
import { CALL_FENCE_LANGS, escapeRegExp, FIXED_OPENERS, FUNCTIONARY_HEADER, LONE_REASONING_TOKENS, RECIPIENT_HEAD, JSON_CALL, REASONING, RECHECK_FLOOR, SENTENCE_END, tag, wrapper, type CloserSpec } from './stream-openers';
import { fenceOpening } from './stream-scans';
import { hiddenRegions, parseToolCalls } from './parse';
import type { ShownText } from './stream-shown';
import { createToolTable, nameKey, toolNameOf, type ToolInput } from './tools';

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

/** GPT-OSS's stripped header (formats/special-tokens.ts) still arriving: the recipient's name, the constraint and tokens left. */
const STRIPPED_HARMONY_PARTIAL = /^(?:assistant)?(?:commentary|analysis)[ \t]+to=functions\.[\w.:-]{0,100}[ \t<|>a-z]{0,40}$/;

/** Gemma 4's call body without its wrapper or `call:` (formats/gemma.ts): a name, `{`, and its string token soon after. */
const HEADLESS_GEMMA = /^[A-Za-z_][\w.-]{0,99}\{[^\n]{0,100}?<\|"\|>/;
/** What may still become it: a name, then perhaps `{` and the start of the body. */
const HEADLESS_GEMMA_START = /^[A-Za-z_][\w.-]{0,99}(?:\{[^\n]{0,104})?$/;

/** ReAct's action line, complete (formats/react.ts). */
const REACT_ACTION = new RegExp(`^${ACTION_LINE.source}`);

/** Each fixed opener's literal in lower case, by its index: looked at for every character that may open markup. */
const LOWER_LITERALS = FIXED_OPENERS.map((o) => o.literal?.toLowerCase() ?? '\u0000');

/** The fixed openers whose literal starts with a character (lower-cased), by that character: the others cannot grow from text starting otherwise. */
const BY_LITERAL_START = new Map<string, number[]>();
LOWER_LITERALS.forEach((literal, k) => BY_LITERAL_START.set(literal[0]!, [...(BY_LITERAL_START.get(literal[0]!) ?? []), k]));

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

/** A ReAct step's first line, as a fence opening the reply may hold it; and its start, while it arrives. */
const REACT_STEP = /^\s*(?:Thought|Action)[ \t]*:/;
const REACT_STEP_START = /^\s*(?:T(?:h(?:o(?:u(?:g(?:h(?:t[ \t]*)?)?)?)?)?)?|A(?:c(?:t(?:i(?:o(?:n[ \t]*)?)?)?)?)?)$/;

/** A word's first character: where a tool's name, `all`, `functions.` or a wrapper's word (`tool_code =`, `print(`) may start. */
const NAME_LEAD = /\w/;

/** Each fixed opener's first characters, by its index (undefined: it is always tried). */
const OPENER_FIRSTS = FIXED_OPENERS.map((o) => firstCharsOf(o.match));
/** The fixed openers that may start with a character, in their order: those always tried, and those starting so. */
const ALWAYS_TRIED = FIXED_OPENERS.filter((_, k) => !OPENER_FIRSTS[k]);
const OPENERS_BY_FIRST = new Map(
  [...new Set(OPENER_FIRSTS.flatMap((firsts) => [...(firsts ?? [])]))].map((ch) => [ch, FIXED_OPENERS.filter((_, k) => !OPENER_FIRSTS[k] || OPENER_FIRSTS[k]!.has(ch))] as const),
);

/** Qwen-Agent's call head still arriving: `✿FUNCTION✿: name`, then its `✿ARGS✿` marker. */
const QWEN_AGENT_HEAD = /^✿FUNCTION✿[ \t]*:?[ \t]*[^\s✿]{0,100}[ \t]*\r?\n?[ \t]*(?:✿(?:A(?:R(?:G(?:S)?)?)?)?)?$/;
const QWEN_AGENT_BRACKETED_HEAD = /^\[FUNCTION\][ \t]*:?[ \t]*[^\s[\]]{0,100}[ \t]*\r?\n?[ \t]*(?:\[(?:A(?:R(?:G(?:S)?)?)?)?)?$/;

/** A JSON value still arriving that may become a call (`{"na`, `[{"`). */
/** A label line opening a call fence's body, its line ended. */
const LABEL_LINE_START = new RegExp(`^(?:${BODY_LABELS.join('|')})[ \\t]*\\n`, 'i');
const JSON_CALL_START = /^[[{]\s*(\[?\s*\{?\s*(["'“][a-z_]*["'”]?\s*:?\s*)?)?$/i;

/** The lone reasoning closers a held text may grow into (`</think:suffix>` is matched apart), lower-cased as the held text is. */
const LONE_REASONING_OPENINGS = ['</think>', '</thinking>', '</mm:think>', '</seed:think>', ...LONE_REASONING_TOKENS].map((t) => t.toLowerCase());

/** A call written as XML elements without a wrapper, up to its arguments' element (formats/tagged.ts `elementCalls`). */
const ELEMENT_CALL_HEAD = new RegExp(`^(?:<(${LEAD_ELEMENTS})>[^<\\n]{0,200}<\\/\\1>\\s*)*<(${NAME_ELEMENTS})>[ \\t]*([\\w.:-]{1,100})[ \\t]*<\\/\\2>(\\s*<(?:(${ARGUMENTS_ELEMENTS})>)?)?`, 'i');
const ELEMENT_CALL_START = new RegExp(`^<(?:${LEAD_ELEMENTS}|${NAME_ELEMENTS})>`, 'i');

/** A Python call list's opening, whatever the name: `[name(`. */
const UNKNOWN_CALL_LIST = /^\[\s*[A-Za-z_][\w.-]{0,99}\s*\(/;

/** Whether text starts with a fence's character: no other opener does (every fixed opener is a tag, a bracket or a word). */
const startsFence = (text: string) => text[0] === '`' || text[0] === '~';

/** The call wrappers a fence opening the reply may hold, as the parser unwraps them. */
const FENCED_WRAPPER_TAGS = FENCED_WRAPPERS.map((t) => `<${t}>`);

export function createRecogniser(tools: readonly ToolInput[]): Recogniser {
  const table = createToolTable(tools);
  // Each name also without its `_` (`webfetch`), as the parser resolves `WebFetch` to `web_fetch`, and with Markdown's escaped `\_`.
  const names = [...new Set(tools.flatMap((t) => [nameKey(toolNameOf(t)), nameKey(toolNameOf(t)).replace(/_/g, ''), nameKey(toolNameOf(t)).replace(/_/g, '\\_')]))];
  const nameFirsts = new Set(names.map((n) => n[0]));
  const namePattern = names.map((n) => escapeRegExp(n).replace(/_/g, '[-_]')).join('|') || '(?!)';
  const toolTag = new RegExp(`^<(${namePattern})(?=[\\s/>])`, 'i');
  /** `name(`, `[name(` and Qwen's `[Calling tool: name(`. */
  const pythonStart = new RegExp(`^\\[?\\s*(?:(?<=\\[\\s*)['"])?(?:Calling tool:\\s*)?(?:(?:functions?|tools?|default_api)[.:])?(${namePattern})\\s*\\(`, 'i');
  /** A list of strings whose first holds a call's JSON (`["{\"name\": …}", …]`) or a Python call (`["name(…)", …]`). */
  const quotedCallList = new RegExp(`^\\[\\s*["'](?:\\{|(?:(?:functions?|tools?|default_api)[.:])?(?:${namePattern})\\s*\\()`, 'i');
  /** Whether all that was shown is a label opening the reply (`tools call: `): calls may follow it on its line, as the parser reads them. */
  const afterCallLabel = (at: Position) => {
    const shownText = at.recent.length <= 80 ? at.recent.trimStart() : '';
    return !at.lineQuoted && /:[ \t*_]*[ \t]$/.test(shownText) && callLabel(shownText)?.[0].length === shownText.length;
  };
  /** A tool's name as models may write it: with the `default_api.` or `functions.` namespace the parser also reads. */
  const prefixedName = `(?:(?:functions?|tools?|default_api)[.:])?(${namePattern})`;
  /** Gemma's and Gemini's unfenced tool code: `tool_code = name(…)` or `print(name(…))`. */
  const wrappedCall = new RegExp(`^(?:tool_code[ \\t]*=[ \\t]*|print\\([ \\t]*)${prefixedName}[ \\t]*\\(`, 'i');
  /** Mistral without its `[TOOL_CALLS]` token: `name[ARGS]{…}` or `name[CALL_ID]id[ARGS]{…}`. */
  const mistralArgs = new RegExp(`^(${namePattern})(?:\\[CALL_ID\\][\\w-]*)?\\[ARGS\\]`, 'i');
  const bareFunction = new RegExp(`^(${namePattern})\\{`, 'i');
  /** A ReAct action written as a call of an offered tool, `name(…)` or `name[…]`, no input line after it (formats/react.ts). */
  const reactCall = new RegExp(`^Action:[ \\t]*(?:${namePattern})[ \\t]*[([]`, 'i');
  /** A JSON object keyed by a tool's name, its arguments the value: `{"list_directory": {"path": "."}}`. */
  /** A call in bold or as a heading (`**name(`, `## name(`). */
  const decoratedCall = new RegExp(`^(?:(?:\\*\\*|__)(?:\\[[ \\t]*)?|#{1,6}[ \\t]+)(?:${namePattern})\\s*\\(`, 'i');
  /** A list of `(name, {…})` pairs (Mistral's API models in BFCL) or `[name, {…}]` ones (Qwen2.5). */
  const pairCallList = new RegExp(`^\\[\\s*[([]\\s*["'](${namePattern})["']\\s*,`, 'i');
  const toolKeyedJson = new RegExp(`^\\{\\s*["'](${namePattern})["']\\s*:\\s*\\{`, 'i');
  /** Functionary v3.2: the recipient's name on its line (perhaps in bold), then the arguments. */
  const recipientArgs = new RegExp(`^(?:\\*\\*(?:${namePattern})\\*\\*|(?:${namePattern}))[ \\t]*\\n\\s*\\{`, 'i');
  /** Functionary v2, its prompt ending at `<|recipient|>`: the name, then `<|content|>` and the arguments. */
  const recipientContent = new RegExp(`^(${namePattern})[ \\t]*\\n?[ \\t]*<\\|content\\|>`, 'i');
  /** Kimi K2's call line without its opening tokens: `name:0<|tool_call_argument_begin|>` (formats/kimi.ts). */
  const kimiHeadless = new RegExp(`^[ \\t]*(?:functions\\.)?(${namePattern}):\\d{1,4}[ \\t]*<\\|tool_call_argument_begin\\|>`, 'i');
  /** A chat client's logged call, copied: `[Calling tool: name with arguments: {` (formats/bare.ts). */
  const loggedCall = new RegExp(`^\\[\\s*Calling tool:\\s*(?:${namePattern})\\s+with arguments:\\s*\\{`, 'i');
  /** The same log line alone, then MiniMax's parameters on the lines below (formats/tagged.ts). */
  const loggedInvoke = new RegExp(`^\\[Calling tool:[ \\t]*(?:${namePattern})\\][ \\t]*\\r?\\n\\s*<parameter\\s+name\\s*=`, 'i');
  /** A prompt's label pair, `TOOL_CALL: name` then `ARGS: {`, and ChatGLM3's name line then `tool_call(` (formats/label-calls.ts). */
  const labelPair = new RegExp(`^TOOL_CALL:[ \\t]*(?:${namePattern})[ \\t]*\\r?\\n[ \\t]*ARGS:[ \\t]*\\{`, 'i');
  const chatglmHead = new RegExp(`^(?:${namePattern})[ \\t]*\\r?\\n[ \\t]*tool_call\\(`, 'i');
  /** Kimi K2's call with every token stripped: `functions.name:0{` (formats/kimi.ts), glued to the words before it. */
  const kimiBare = new RegExp(`^functions\\.(?:${namePattern}):\\d{1,4}[ \\t]*\\{`, 'i');
  const kimiPrefix = (rest: string) => {
    const id = /^:\d{0,4}[ \t]*/.exec(rest);
    return id !== null && (id[0].length === rest.length || (/\d/.test(id[0]) && '<|tool_call_argument_begin|>'.startsWith(rest.slice(id[0].length))));
  };
  const mistralPrefix = (rest: string) => '[args]'.startsWith(rest) || '[call_id]'.startsWith(rest) || /^\[call_id\][\w-]*(\[(a(r(g(s\]?)?)?)?)?)?$/.test(rest);

  /**
   * A call written as XML elements at the start of `text`: how it closes once its arguments' element opened, `maybe`
   * while it may still become one (held: its name's element or the arguments' still arriving), else undefined.
   */
  const elementCall = (text: string): CloserSpec | 'maybe' | undefined => {
    if (!ELEMENT_CALL_START.test(text)) return undefined;
    const head = ELEMENT_CALL_HEAD.exec(text);
    if (!head) return text.length < 400 && !/\n[ \t]*[^\s<]/.test(text) ? 'maybe' : undefined;
    if (!table.resolve(head[3]!)) return undefined;
    if (head[5]) return wrapper(new RegExp(`</${head[5]}>(?:\\s*</tool_call>)?`, 'i'));
    // After the name's element, blanks and what may still become the arguments' opening tag.
    const rest = text.slice(head[0].length - (head[4]?.length ?? 0)).trimStart().toLowerCase();
    return rest.length < 20 && ARGUMENTS_ELEMENTS.split('|').some((t) => `<${t}>`.startsWith(rest)) ? 'maybe' : undefined;
  };

  /** Could `text`, at a line's start, still grow into a fence that holds calls? */
  const fenceCouldOpen = (text: string, at: Position): boolean => {
    const fence = fenceOpening(text);
    if (fence === 'partial') return true;
    // A fence labelled with another language may hold a call as JSON: held while its body has not shown otherwise.
    if (fence && !CALL_FENCE_LANGS.test(fence.lang) && /^\s*(?:\[\s*)?(?:\{|$)/.test(text.slice(fence.body))) return true;
    if (!fence || !CALL_FENCE_LANGS.test(fence.lang)) return false;
    // A call fence whose body has not begun, or has begun with what may be a tool's name (Gemma's ```tool_code).
    const body = text.slice(fence.body);
    const first = body.search(/\S/);
    if (first === -1) return true;
    if (!at.shownContent && fence.lang === '' && REACT_STEP_START.test(body)) return true;
    const word = /^[\w.-]*$/.exec(body.slice(first));
    if (word && [...names, ...BODY_LABELS, 'print', 'tool_name'].some((n) => n.startsWith(nameKey(word[0])))) return true;
    // A label on the body's first line, then what may still be a call's JSON.
    const label = LABEL_LINE_START.exec(body.slice(first));
    if (label && /^\s*$/.test(body.slice(first + label[0].length))) return true;
    // Or with a call's result kept in a name (`summary = read_file(…)`), as the parser reads it.
    const assigned = /^[A-Za-z_]\w{0,60}(?:[ \t]*(?:=[ \t]*([\w.-]*))?)?$/.exec(body.slice(first));
    if (assigned && (assigned[1] === undefined || names.some((n) => n.startsWith(nameKey(assigned[1]!))))) return true;
    return !at.shownContent && FENCED_WRAPPER_TAGS.some((t) => t.startsWith(body.slice(first, first + t.length).toLowerCase()));
  };

  /** Could `text` still grow into an opener? */
  const couldOpen = (text: string, at: Position): boolean => {
    // A call of an offered tool in inline code opening the reply, while its name arrives (formats/bare.ts).
    if (!at.shownContent && at.lineStart && !at.lineQuoted && /^`[\w.-]*$/.test(text) && names.some((n) => n.startsWith(nameKey(text.slice(1))))) return true;
    // No opener but a fence starts with a fence's character: the many others are not asked (a reply of backticks).
    if (startsFence(text)) return at.lineStart && !at.lineQuoted && fenceCouldOpen(text, at);
    const lower = nameKey(text.slice(0, RECHECK_FLOOR));
    const lineStart = at.lineStart;
    if ((BY_LITERAL_START.get(lower[0] ?? '') ?? []).some((k) => {
      const o = FIXED_OPENERS[k]!;
      return o.literal && (o.anywhere || (!at.lineQuoted && (lineStart || o.glued))) && LOWER_LITERALS[k]!.startsWith(lower);
    })) return true;
    if (!at.hidReasoning && (LONE_REASONING_OPENINGS.some((t) => t.startsWith(lower)) || /^<\/think:[\w-]{0,20}>?$/.test(lower))) return true;
    // Glimmer's header at the reply's start, until its `<|message|>` shows it.
    if (at.lineStart && !at.lineQuoted && /^to=[\w.:-]{0,100}(?:<[|a-z]{0,9}>?)?$/.test(text) && text.length < 120) return true;
    if (at.recipient !== undefined && '<|message|>'.startsWith(text)) return true;
    if (!at.shownContent && at.hidReasoning && '<answer>'.startsWith(text)) return true;
    // Gemma 4's call body opening the reply without its wrapper or `call:`, while its string token may still come.
    if (!at.shownContent && at.lineStart && !at.lineQuoted && text.length < 220 && HEADLESS_GEMMA_START.test(text) && !text.includes('<|"|>')) return true;
    // Qwen-Agent's call head, until its `✿ARGS✿` marker.
    if (!at.lineQuoted && text.length < 160 && QWEN_AGENT_HEAD.test(text)) return true;
    if (lineStart && !at.lineQuoted && text.length < 160 && QWEN_AGENT_BRACKETED_HEAD.test(text)) return true;
    // GPT-OSS's header with its tokens stripped, until its arguments' `{` shows a call.
    if (!at.lineQuoted && text.length < 200 && STRIPPED_HARMONY_PARTIAL.test(text)) return true;
    // GPT-OSS's commentary header, until what follows it shows a preamble (`<|message|>`) or a call.
    if (/^<\|channel\|>\s*commentary\s*\S{0,10}$/.test(text)) return true;
    // Hunyuan 3's suffixed tags (`<tool_call:opensource>`) and CWM's labelled `<tool: function>`: the literal ends before the suffix.
    if (/^<(?:think|tool(?:_calls?)?):[ \t]?[\w-]{0,20}$/.test(lower) && (lower.startsWith('<think') || !at.lineQuoted)) return true;
    if (!at.lineQuoted && ((RECIPIENT_HEAD.test(text) && text.length < 160) || '<|reserved_special_token_249|>'.startsWith(text))) return true;
    // InternLM's action token, then (after blanks) the kind of action.
    const actionToken = /^<\|action_start\|>\s*/.exec(text);
    if (actionToken && !at.lineQuoted && ['<|plugin|>', '<|interpreter|>'].some((t) => t.startsWith(text.slice(actionToken[0].length)))) return true;
    // `<function_call>` until what follows it shows JSON or elements.
    if (/^<function_call>\s*$/i.test(text)) return true;
    // Llama's `<function=name` while its name arrives, until what follows it shows a call or words.
    if (/^<function(?:=[^\s<>]{0,100}|\([\w.-]{0,100}\)?|\/[\w.-]{0,100})\s*$/i.test(text)) return true;
    // DeepSeek V4's `<tool_call ` while its first attribute's name arrives.
    if (!at.lineQuoted && /^<\|?tool_call\s+[\w-]{0,40}\s*$/i.test(text)) return true;
    // `</s>` may be the end of the reply (Mistral's end of sequence): held until more follows.
    if (/^<(?:\/(?:s(?:>\s*)?)?)?$/.test(text)) return true;
    if (!at.lineQuoted && (text[0] === '{' || text[0] === '[') && text.length < 40 && JSON_CALL_START.test(text)) return true;
    // `$` then a call's JSON on a line of its own (LangChain's `$JSON_BLOB` copied), while the JSON may still begin.
    if (lineStart && !at.lineQuoted && text[0] === '$' && text.length < 41 && (text.length === 1 || (text[1] === '{' && JSON_CALL_START.test(text.slice(1))))) return true;
    // A label opening the reply, then what may still become a call of an offered tool, in a list or not.
    if (!lineStart && afterCallLabel(at) && text.length < 60 && names.some((n) => n.startsWith(lower.replace(/^\[\s*/, '').split('(')[0]!))) return !lower.includes('(') || pythonStart.test(text);
    // GLM-4's name glued to the sentence before it, while it may still be an offered tool's with its arguments' line to come.
    if (!lineStart && !at.lineQuoted && SENTENCE_END.test(at.recent) && names.some((n) => n.startsWith(lower) || (lower.startsWith(n) && /^[ \t]*(\n[ \t]*)?$/.test(lower.slice(n.length))))) return true;
    // Kimi K2's call with every token stripped, while it arrives: `functions.`, an offered tool's name, its index.
    const k2 = /^functions\.([\w.-]*)(:\d{0,4}[ \t]*)?$/.exec(lower);
    if (!at.lineQuoted && text.length < 130 && ('functions.'.startsWith(lower) || (k2 && names.some((n) => (k2[2] === undefined ? n.startsWith(k2[1]!) : n === k2[1]))))) return true;
    if (!lineStart || at.lineQuoted) return false;
    // Gorilla's `<<function>>` marker, a prompt's `TOOL_CALL:`/`ARGS:` pair and ChatGLM3's name line before `tool_call(`, while they arrive (formats/label-calls.ts).
    if ('<<function>>'.startsWith(lower)) return true;
    const labelled = /^tool_call:[ \t]*([\w.-]*)([ \t]*\r?\n[ \t]*(?:a(?:r(?:g(?:s(?::[ \t]*)?)?)?)?)?)?$/i.exec(text);
    if (labelled && text.length < 160 && names.some((n) => (labelled[2] === undefined ? n.startsWith(nameKey(labelled[1]!)) : n === nameKey(labelled[1]!)))) return true;
    const glm = /^([\w.-]+)[ \t]*\r?\n[ \t]*(t(?:o(?:o(?:l(?:_(?:c(?:a(?:l(?:l)?)?)?)?)?)?)?)?)$/.exec(text);
    if (!at.shownContent && glm && names.includes(nameKey(glm[1]!))) return true;
    // A call in bold or as a heading opening the reply (`**name(…)**`, `## name(…)`), while its name may still be an offered tool's.
    const decorated = /^(?:(?:\*\*|__)(?:\[[ \t]*)?|#{1,6}[ \t]+)([\w.-]*)$/.exec(lower) ?? (/^(?:\*\*?|_|#{1,6})$/.test(lower) ? [lower, ''] : null);
    if (!at.shownContent && decorated && names.some((n) => n.startsWith(decorated[1]!))) return true;
    // An offered tool's name in bold on its line opening the reply, until what follows shows its arguments or words.
    const bolded = /^\*\*([\w.-]{1,100})(?:\*\*\s*|\*)?$/.exec(lower);
    if (!at.shownContent && bolded && names.includes(bolded[1]!)) return true;
    // A Python call list opening the reply, while its first name arrives: an offered tool's or not.
    if (!at.shownContent && (!at.hidAnything || at.hidReasoning) && text.length < 104 && /^\[\s*[A-Za-z_][\w.-]*$/.test(text)) return true;
    // A list of strings, while its first may still hold a call.
    if (text[0] === '[' && text.length < 40 && /^\[\s*(?:["'](?:\{|[\w.-]*))?$/.test(text)) return true;
    // A list of name and arguments pairs, while its first name arrives.
    const pair = /^\[\s*[([]\s*(?:["']([\w.-]*)(?:["']\s*)?)?$/.exec(text);
    if (pair && text.length < 104 && (pair[1] === undefined || names.some((n) => n.startsWith(nameKey(pair[1]!))))) return true;
    // Gemma 4's bare `call:name{`, while the name may still become an offered tool's.
    const gemmaBare = /^call:([\w.-]{0,100})[ \t]*$/.exec(lower);
    if (gemmaBare && names.some((n) => n.startsWith(gemmaBare[1]!))) return true;
    if (/^<｜|^<\|/.test(text) && text.length < 24) return true;
    if (FUNCTIONARY_HEADER.test(text) && text.length < 200 && !text.includes('<|content|>')) return true;
    if (text[0] === '<' && names.some((n) => `<${n}`.startsWith(lower))) return true;
    if (elementCall(text) === 'maybe') return true;
    // A tag whose name may still say it holds calls (`<call>`, `<action>`), until its `>`.
    const callTag = /^<([a-z][\w-]{0,40})(>?)$/i.exec(text);
    if (callTag && (!callTag[2] || CALL_TAG_NAME.test(callTag[1]!))) return true;
    if (text[0] === '<' && names.some((n) => lower === `<${n}`)) return true;
    if (text[0] === '{' || text[0] === '[') {
      // A chat client's logged call, copied: `[Calling tool: name with arguments: {…}]`, while it may still become one.
      const logged = /^\[calling tool:\s*([\w.-]+)(\s[\s\w:]*)$/.exec(lower);
      if (logged && text.length < 160 && names.includes(logged[1]!)) {
        const words = logged[2]!.replace(/\s+/g, ' ').trimEnd();
        if (' with arguments:'.startsWith(words)) return true;
      }
      // Or the log line alone, then MiniMax's parameters on the lines below (formats/tagged.ts).
      const named = /^\[calling tool:[ \t]*([\w.-]+)\]([\s\S]*)$/.exec(lower);
      if (named && text.length < 160 && names.includes(named[1]!) && '\n<parameter name'.startsWith(named[2]!.replace(/\s+/g, (b) => (b.includes('\n') ? '\n' : ' ')).replace(/^ ?\n ?/, '\n'))) return true;
      // Qwen's `[Calling tool: name(…)]`: held while it may still become one.
      const calling = /^\[calling tool:\s*/.exec(lower);
      if (text[0] === '[' && text.length < 40 && (calling || '[calling tool:'.startsWith(lower))) {
        const rest = calling ? lower.slice(calling[0].length) : '';
        if (!calling || names.some((n) => n.startsWith(rest.split('(')[0] ?? ''))) return !rest.includes('(') || pythonStart.test(text);
      }
      // A list's first call, perhaps after a stray quote (`['name(`, Llama 3.1 8B).
      const head = text[0] === '[' && text.length < 40 ? (text.slice(1).trim().replace(/^['"]/, '').toLowerCase().split('(')[0] ?? '') : undefined;
      if (head !== undefined && names.some((n) => n.startsWith(head))) return !/\(/.test(text) || pythonStart.test(text);
    }
    if (fenceCouldOpen(text, at)) return true;
    // What follows reads a tool's name (or `all`, `functions.`, a wrapper's word) at the start: not where none can start.
    if (lower && !NAME_LEAD.test(lower[0]!) && !nameFirsts.has(lower[0]!)) return false;
    if (!at.shownContent && names.some((n) => n.startsWith(lower))) return true;
    if (!at.shownContent && names.some((n) => lower.startsWith(n) && mistralPrefix(lower.slice(n.length)))) return true;
    if (!at.shownContent && names.some((n) => lower.startsWith(n) && /^[ \t]*(\n[ \t]*)?$/.test(lower.slice(n.length)))) return true;
    if (!at.shownContent && [...names, 'all'].some((n) => lower.startsWith(n) && '<|content|>'.startsWith(lower.slice(n.length).trim()))) return true;
    if (!at.shownContent && !at.hidAnything && 'all\n'.startsWith(text)) return true;
    // GPT-OSS's recipient before its channel (`to=functions.name<|channel|>…`).
    const recipient = /^to=functions\.[\w.:-]*\s*/.exec(lower);
    if (recipient && '<|channel|>'.startsWith(lower.slice(recipient[0].length))) return true;
    const action = /^action:[ \t]*\n/.exec(lower);
    if (action) {
      const fence = action[0].length === text.length ? 'partial' : fenceOpening(text.slice(action[0].length));
      if (fence === 'partial' || (fence && CALL_FENCE_LANGS.test(fence.lang))) return true;
      // Or a call's JSON on the lines after it, while it may still begin.
      const json = text.slice(action[0].length).trimStart();
      if (json.length < 40 && (json === '' || (json[0] === '{' && JSON_CALL_START.test(json)))) return true;
    } else if (/^a(c(t(i(o(n(:[^\n]{0,120})?)?)?)?)?)?$/.test(lower)) return true;
    if (lineStart && names.some((n) => (lower.startsWith(n) && kimiPrefix(lower.slice(n.length))) || (lower.startsWith(`functions.${n}`) && kimiPrefix(lower.slice(n.length + 10))))) return true;
    if (lineStart && names.some((n) => lower === n)) return true;
    // A line may begin with a wrapper or namespace before the name: `tool_code = `, `print(`, `default_api.`.
    if (lineStart && couldBeWrappedName(lower)) return true;
    // A line may start with a tool's name and its arguments, `name(…)` or `name{…}`, after prose too.
    if (lineStart && names.some((n) => n.startsWith(lower) || (lower.startsWith(n) && /^[ \t]*$/.test(lower.slice(n.length))))) return true;
    return false;
  };

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
    // A call's JSON in a fence on one line opening the reply: a call only as the whole reply, which the parser judges at its end.
    if (!at.shownContent && lineStart && !at.lineQuoted && /^```(?:json)?[ \t]*\{/.test(held)) return { kind: 'end', verify: true };
    if (startsFence(held)) return lineStart && !at.lineQuoted ? fenceOpener(held, at) : undefined;
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
    if (named) return { kind: 'tool-tag', name: named[1]!, close: new RegExp(`</${escapeRegExp(named[1]!)}\\s*>`, 'gi'), last: '', tail: '' };
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
    // ReAct's action naming an offered tool, or one word (an unknown tool): the turn ends there, so it runs to the end of
    // the reply, hidden if the parser reads a call in it. Words that name no tool (`Action: Final Answer`) are prose.
    // An action written as a call of an offered tool (`Action: search("…")`): the turn ends there, as at any action.
    if (reactCall.test(held)) return { kind: 'end', verify: true };
    const reactAction = REACT_ACTION.exec(held);
    if (reactAction && !namesNoTool(reactAction[1]!, table.resolve)) return { kind: 'end', verify: true };
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
    if (first !== -1 && (wrapped || /^\s*[[{]/.test(rest) || pythonStart.test(rest) || (assigned && pythonStart.test(rest.slice(assigned[0].length))) || body.startsWith('print(', first) || body.startsWith('TOOL_NAME:', first))) {
      return { kind: 'fence', marker: fence.marker, lineStart: -1, matched: 0, phase: 'fail' };
    }
    return undefined;
  };

  /** `tool_code = `, `print(` and a namespace (`default_api.`) before a tool's name, still arriving. */
  const couldBeWrappedName = (lower: string): boolean => {
    if ('tool_code'.startsWith(lower) || /^tool_code[ \t]*=?[ \t]*$/.test(lower) || 'print('.startsWith(lower)) return true;
    const lead = /^(?:tool_code[ \t]*=[ \t]*|print\([ \t]*)?/.exec(lower)![0];
    const rest = lower.slice(lead.length);
    const namespace = /^(?:functions?|tools?|default_api)[.:]/.exec(rest)?.[0] ?? '';
    if ((lead || namespace) && names.some((n) => n.startsWith(rest.slice(namespace.length)))) return true;
    return !namespace && rest !== '' && ['default_api.', 'functions.'].some((w) => w.startsWith(rest));
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

/** Reads a finished stretch just after what was shown, as the parser reads it in the whole reply. */
export function inPlaceReader(tools: readonly ToolInput[], shown: ShownText) {
  const before = (mid: boolean) => `${shown.context(200)}${shown.lineBlank || mid ? '' : '\n'}`;
  const parseInPlace = (stretch: string, mid: boolean) => parseToolCalls(`${before(mid)}${stretch}`, tools);
  return {
    /** Where the stretch holds what the parser shows as text, read in place (markup, reasoning and template tokens left out). */
    shownPieces: (stretch: string, mid = false): [number, number][] => {
      const lead = before(mid);
      const pieces: [number, number][] = [];
      let at = 0;
      for (const [start, end] of hiddenRegions(`${lead}${stretch}`, tools)) {
        const from = Math.max(0, start - lead.length);
        if (from > at) pieces.push([at, from]);
        at = Math.max(at, end - lead.length);
      }
      if (at < stretch.length) pieces.push([at, stretch.length]);
      return pieces;
    },
    /** Whether the stretch holds calls, failed calls or reasoning (else it is released as text). */
    holdsCalls: (stretch: string, mid = false) => {
      if (REASONING.test(stretch)) return true;
      const parsed = parseInPlace(stretch, mid);
      return parsed.calls.length > 0 || parsed.failures.length > 0;
    },
    /**
     * Whether the calls the stretch holds stay calls with words after them on their line, as a closed
     * special-token pair or a block does in the parser: then they are hidden at once, not held for the line's end.
     */
    standsBeforeWords: (stretch: string, mid = false) => parseInPlace(`${stretch} and`, mid).calls.length > 0,
    /** Whether calls opening the reply stay calls with a word glued right after them (LFM2's list with its call tokens stripped: `[f()]Fetching…`). */
    standsBeforeGluedWord: (stretch: string) => parseInPlace(`${stretch}And`, false).calls.length > 0,
    /** Whether the stretch holds calls of offered tools and nothing that fails. */
    callsOnly: (stretch: string, mid = false) => {
      const parsed = parseInPlace(stretch, mid);
      return parsed.calls.length > 0 && parsed.failures.length === 0;
    },
  };
}

/** Whether held text after a finished call may still become what belongs to it (STRAY_CLOSER): a wrapper's closing tag (`\n</tool_`), `<|>`, brackets written once too often. */
export function strayCloserAhead(held: string): boolean {
  const rest = held.trimStart().toLowerCase();
  return held.length < 64 && (rest === '' || /^[}\]]{1,3}[ \t]*$/.test(rest) || ['</tool_call>', '</tool_calls>', '</function_call>', '</toolcall>', '</s>', '<|>', '<tool_call|>'].some((t) => t.startsWith(rest)));
}
