/**
 * Whether held text may still grow into markup as it arrives (`<tool_c`, `{"na`, an offered tool's name, a fence whose
 * body has not begun): the streaming filter holds it back until it shows markup or prose.
 */
import { BODY_LABELS } from './formats/fenced';
import { CALL_TAG_NAME } from './formats/tagged';
import { CALL_FENCE_LANGS, FIXED_OPENERS, FUNCTIONARY_HEADER, RECHECK_FLOOR, RECIPIENT_HEAD, SENTENCE_END } from './stream-openers';
import { LONE_REASONING_TOKENS } from './template-tokens';
import { fenceOpening } from './stream-scans';
import { FENCED_WRAPPER_TAGS, startsFence, type NamePatterns } from './stream-names';
import type { Position } from './stream-recognise';
import { nameKey } from './tools';
import { madeUpTool } from './formats/react';

/** GPT-OSS's stripped header (formats/special-tokens.ts) still arriving: the recipient's name, the constraint and tokens left. */
const STRIPPED_HARMONY_PARTIAL = /^(?:assistant)?(?:commentary|analysis)[ \t]+to=functions\.[\w.:-]{0,100}[ \t<|>a-z]{0,40}$/;

/** Gemma 4's call body without its wrapper or `call:` (formats/gemma.ts) while it may still become one: a name, then perhaps `{` and the start of the body. */
const HEADLESS_GEMMA_START = /^[A-Za-z_][\w.-]{0,99}(?:\{[^\n]{0,104})?$/;

/** Each fixed opener's literal in lower case, by its index: looked at for every character that may open markup. */
const LOWER_LITERALS = FIXED_OPENERS.map((o) => o.literal?.toLowerCase() ?? '\u0000');

/** The fixed openers whose literal starts with a character (lower-cased), by that character: the others cannot grow from text starting otherwise. */
const BY_LITERAL_START = new Map<string, number[]>();
LOWER_LITERALS.forEach((literal, k) => BY_LITERAL_START.set(literal[0]!, [...(BY_LITERAL_START.get(literal[0]!) ?? []), k]));

/** A ReAct step's first line, while it arrives, as a fence opening the reply may hold it. */
const REACT_STEP_START = /^\s*(?:T(?:h(?:o(?:u(?:g(?:h(?:t[ \t]*)?)?)?)?)?)?|A(?:c(?:t(?:i(?:o(?:n[ \t]*)?)?)?)?)?)$/;

/** A word's first character: where a tool's name, `all`, `functions.` or a wrapper's word (`tool_code =`, `print(`) may start. */
const NAME_LEAD = /\w/;

/** Qwen-Agent's call head still arriving: `✿FUNCTION✿: name`, then its `✿ARGS✿` marker. */
const QWEN_AGENT_HEAD = /^✿FUNCTION✿[ \t]*:?[ \t]*[^\s✿]{0,100}[ \t]*\r?\n?[ \t]*(?:✿(?:A(?:R(?:G(?:S)?)?)?)?)?$/;
const QWEN_AGENT_BRACKETED_HEAD = /^\[FUNCTION\][ \t]*:?[ \t]*[^\s[\]]{0,100}[ \t]*\r?\n?[ \t]*(?:\[(?:A(?:R(?:G(?:S)?)?)?)?)?$/;

/** A label line opening a call fence's body, its line ended. */
const LABEL_LINE_START = new RegExp(`^(?:${BODY_LABELS.join('|')})[ \\t]*\\n`, 'i');
/** A JSON value still arriving that may become a call (`{"na`, `[{"`). */
const JSON_CALL_START = /^[[{]\s*(\[?\s*\{?\s*(["'“][a-z_]*["'”]?\s*:?\s*)?)?$/i;

/** An Anthropic tool_use block's opening while it arrives, blanks aside: `{'id': 'toolu_`. */
const leakedToolUseStart = (text: string) => ["{'id':'toolu_", '{"id":"toolu_'].some((p) => p.startsWith(text.replace(/\s+/g, '')));

/** The lone reasoning closers a held text may grow into (`</think:suffix>` is matched apart), lower-cased as the held text is. */
const LONE_REASONING_OPENINGS = ['</think>', '</thinking>', '</mm:think>', '</seed:think>', ...LONE_REASONING_TOKENS].map((t) => t.toLowerCase());

/** The test for the offered tools: could `text`, held where `at` says, still grow into an opener? */
export function partialTest(patterns: NamePatterns): (text: string, at: Position) => boolean {
  const { names, nameFirsts, pythonStart, afterCallLabel, elementCall, kimiPrefix, mistralPrefix, couldBeWrappedName, fieldsHead } = patterns;

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
    // A fence that says it holds a call (```tool_code): any name, while it may still become a Python call.
    if (word && /^(?:tool|function_?call)/i.test(fence.lang)) return true;
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
    // A tool's response the model may be inventing after its call (invented-responses.ts), while its tag arrives.
    if (at.afterCall && at.lineStart && !at.lineQuoted && '<tool_response>'.startsWith(lower)) return true;
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
    // An Anthropic tool_use block leaked into the text (formats/bare.ts), while its id arrives.
    if (!at.lineQuoted && text[0] === '{' && text.length < 40 && leakedToolUseStart(text)) return true;
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
    // A tool's name alone on the line opening the reply, while its first argument's key arrives (formats/name-lines.ts).
    if (!at.shownContent && lineStart && fieldsHead(text) === 'maybe') return true;
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
    // An action line ended, while the input line that would make its words a made-up tool's call may still come below it.
    else {
      const step = text.length < 240 ? /^action:[ \t]*([^\n]*?)[ \t]*\r?\n(?:[ \t]*\r?\n){0,4}[ \t]*(?:a(?:c(?:t(?:i(?:o(?:n(?: (?:i(?:n(?:p(?:u(?:t)?)?)?)?)?)?)?)?)?)?)?)?$/.exec(lower) : null;
      if (step && madeUpTool(step[1]!)) return true;
    }
    if (lineStart && names.some((n) => (lower.startsWith(n) && kimiPrefix(lower.slice(n.length))) || (lower.startsWith(`functions.${n}`) && kimiPrefix(lower.slice(n.length + 10))))) return true;
    if (lineStart && names.some((n) => lower === n)) return true;
    // A line may begin with a wrapper or namespace before the name: `tool_code = `, `print(`, `default_api.`.
    if (lineStart && couldBeWrappedName(lower)) return true;
    // A line may start with a tool's name and its arguments, `name(…)` or `name{…}` (Llama 3.1's built-in `name.call(…)`), after prose too.
    if (lineStart && names.some((n) => n.startsWith(lower) || (lower.startsWith(n) && /^(?:\.(?:c(?:a(?:l(?:l)?)?)?)?)?[ \t]*$/.test(lower.slice(n.length))))) return true;
    return false;
  };

  return couldOpen;
}
