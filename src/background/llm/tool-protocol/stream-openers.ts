/**
 * What the streaming filter recognises as the start of markup, and how each kind of stretch ends:
 * the openers (reasoning, call wrappers, special tokens, end-of-turn tokens) and their closers.
 */
import type { BracketScan, TripleQuoteScan } from './stream-scans';
import { BRACKETED_HEAD, MARKED_HEAD } from './formats/qwen-agent';
import { STRIPPED_HARMONY_HEAD } from './formats/special-tokens';
import { CALL_TOKEN } from './formats/tagged';
import { JsonRunScan, OpenValueScan } from './value-scans';
import { END_TOKENS, escapeRegExp, LONE_REASONING_END } from './template-tokens';

/**
 * How an open stretch of markup ends. Each reads the stretch once, as it arrives (`seen` so far).
 * `sure`: hidden once closed (DeepSeek's tokens, a special token starting its line); `firm`: a call
 * opening the reply, hidden whatever follows on its line; `drop`: an end-of-turn token; `mid`:
 * opened after the model's words on its line (glued markup), so the parser reads it in place.
 */
export type Closer = { seen: number; decided: number; sure?: boolean; drop?: boolean; mid?: boolean; firm?: boolean } & (
  /** `verify`: a wrapper that may also be mentioned in prose; hidden only if the parser reads a call or a failed one. */
  /** `bodyAt`: where a wrapper's body starts; a body opening with punctuation (`<tool_call>>>`) is prose about the tag. */
  | ({ kind: 'tag'; close: RegExp; hideIfUnclosed: boolean; tail: string; verify?: boolean; bodyAt?: number; bodyChecked?: boolean } & ValueAware)
  /** `verify`: hidden at the end only if the parser reads a call or a failed one in it. */
  | { kind: 'end'; verify?: boolean }
  /** `brace`: the value starts at the first `{` (after `name[ARGS]`), not at the first bracket. */
  | {
      kind: 'balanced';
      scan?: BracketScan;
      brace?: boolean;
      /** Mistral's token: the value starts after it, at a `[` or `{` (`[TOOL_CALLS] [{…}]`), else at the first `{` (`[TOOL_CALLS]name[ARGS]{…}`). */
      after?: number;
      /** `name(…)` after prose: a call only where it ends the reply (then it waits, as `trailing`); a failed one is hidden as any. */
      endOnly?: boolean;
      /** A bare JSON or Python call, no markup around it: words after it on its line always make it a quotation, so that is not asked of the parser. */
      plain?: boolean;
    }
  /** `strings`: a Python fence's triple-quoted strings, in which a marker line closes nothing (formats/fenced.ts). */
  | { kind: 'fence'; marker: string; lineStart: number; matched: number; phase: 'lead' | 'marker' | 'trail' | 'fail'; skip?: number; strings?: TripleQuoteScan }
  /** `words`: the tool takes one input, which its body may give as words (formats/xml-tags.ts). */
  | { kind: 'tool-tag'; name: string; close: RegExp; last: string; openEnd?: number; stuck?: boolean; bodyChecked?: boolean; tail: string; words?: boolean }
  /** A call-shaped JSON after prose: a call only if nothing but whitespace follows it. */
  | { kind: 'trailing'; length: number }
  /** Calls after inline code opened on an earlier line: an example if a backtick follows before a blank line, else calls. `blank`: the line so far is blank. */
  | { kind: 'uncoded'; length: number; blank?: boolean }
  /** Llama's `<|python_tag|>`: JSON calls then prose end at their last brace; anything else runs to the end (`whole`), as `end`. */
  | { kind: 'json-run'; run: JsonRunScan; whole?: boolean }
);

/**
 * A wrapper whose body may hold a value with the closing marker in it (a JSON string, a GLM
 * value): a marker inside an open value is passed over, as in the parser, a few times at most.
 * `fallback`: the end at the first marker passed over (set once one is); `from`: the end of the last, where the next
 * search starts, and where the call ends if no later marker comes or the wrapper opens again (`reopen`) before one.
 */
interface ValueAware {
  values?: OpenValueScan;
  reopen?: RegExp;
  fallback?: number;
  passed?: number;
  from?: number;
}
export type CloserSpec = Closer extends infer C ? (C extends Closer ? Omit<C, 'seen' | 'decided' | 'sure' | 'drop' | 'mid' | 'firm'> & { sure?: boolean; drop?: boolean; mid?: boolean; firm?: boolean } : never) : never;

/**
 * Where GPT-OSS's and Glimmer's role header ends: after `assistant` and the `<|message|>` token right after it (as the
 * parser drops them together), or the recipient written after it (`to=functions.name`), decided once what follows shows which.
 */
const MESSAGE_TOKEN = '<|message|>';
const ASSISTANT_HEADER_END = new RegExp(
  [
    `assistant(?:${escapeRegExp(MESSAGE_TOKEN)}|(?=[^\\s<])|${[...MESSAGE_TOKEN].slice(1).map((ch, k) => `(?=${escapeRegExp(MESSAGE_TOKEN.slice(0, k + 1))}[^${escapeRegExp(ch)}])`).join('|')})`,
    'assistant(?=\\s+[^t\\s]|\\s+t[^o]|\\s+to[^=])',
    'assistant\\s+to=[\\w.:-]+(?=[^\\w.:-])',
  ].join('|'),
);

/** DeepSeek's DSML token as its tags open, its bars full-width or ASCII, single or doubled, or lost (V4's drift: `<DSML｜`, `<DSML`). */
const DSML_TOKENS = ['<｜DSML｜', '<|DSML|', '<｜｜DSML｜｜', '<||DSML||', '<DSML｜', '<DSML|', '<DSML'];

/** closeIndex: the markup is still open / turned out not to be markup. */
export const OPEN = -1;
export const NOT_MARKUP = -2;

export interface Opener {
  /** Matches at the start of the held text: a complete opener. */
  match: RegExp;
  closer: (m: RegExpMatchArray) => CloserSpec;
  /** Literal prefix used to decide whether a shorter held text could still become this opener. */
  literal?: string;
  /** Reasoning may open anywhere; a call only at the start of a line. */
  anywhere?: boolean;
  /** A template's call markup, which may follow the model's words on their line (then waits for the line's end, as any call). */
  glued?: boolean;
  /** DeepSeek's own tokens: a call wherever they stand, hidden once closed. */
  sure?: boolean;
  /** A special token: starting its line, a call whatever follows it on the line. */
  token?: boolean;
  /** An end-of-turn token: hidden, and nothing else changes. */
  drop?: boolean;
  /** GPT-OSS's preamble header: only where no recipient was just hidden (after one, the message is its call). */
  preamble?: boolean;
}

const BAR = '[｜|]';
const SEP = '[▁_ ]';
export const tag = (close: RegExp, hideIfUnclosed = true): CloserSpec => ({ kind: 'tag', close: new RegExp(close.source, `${close.flags}g`), hideIfUnclosed, tail: '' });
export const wrapper = (close: RegExp, bodyAt?: number): CloserSpec => ({ ...tag(close), verify: true, ...(bodyAt === undefined ? {} : { bodyAt }) }) as CloserSpec;
/** A closer (tag or wrapper) whose body may hold the closing marker inside a value; `m` is the opener, matched by `open` where it opens again. */
const holdingValues = (spec: CloserSpec, m: RegExpMatchArray, open: RegExp): CloserSpec =>
  ({ ...spec, values: new OpenValueScan(m[0].length), reopen: new RegExp(open.source.replace(/^\^/, ''), `${open.flags}g`) }) as CloserSpec;

/** Functionary v2's message headers: `<|from|>assistant\n<|recipient|>name\n<|content|>`. */
const FUNCTIONARY_TO_ALL = /^<\|from\|>[ \t]*[\w.-]{0,40}[ \t]*\n?[ \t]*<\|recipient\|>[ \t]*all[ \t]*\n?[ \t]*<\|content\|>/i;
const FUNCTIONARY_TO_TOOL = /^<\|from\|>[ \t]*[\w.-]{0,40}[ \t]*\n?[ \t]*<\|recipient\|>[ \t]*[\w.:-]{1,100}[ \t]*\n?[ \t]*<\|content\|>/;
/** A recipient and its arguments (`>>>name\n{`) or its code (`>>>python\n…`). */
const RECIPIENT_JSON = /^(?:>>>|<\|reserved_special_token_249\|>)[ \t]*[\w.-]{1,100}[ \t]*\n(?=[ \t]*\{)/;
const RECIPIENT_CODE = /^(?:>>>|<\|reserved_special_token_249\|>)[ \t]*[\w.-]{1,100}[ \t]*\n(?=[ \t]*[^\s{])/;
/** A recipient marker still arriving: held until what follows its name shows which. */
export const RECIPIENT_HEAD = /^(?:>>>|<\|reserved_special_token_249\|>)[ \t]*[\w.-]{0,100}[ \t]*\n?[ \t]*$/;
/** A header still arriving: held until its `<|content|>` shows where it sends the message. */
export const FUNCTIONARY_HEADER = /^<\|(?:from|recipient)\|>/;

/** GPT-OSS's header with its tokens stripped, as the filter may first see it (formats/special-tokens.ts). */
const STRIPPED_HARMONY_LITERALS = ['commentary to=functions.', 'analysis to=functions.', 'assistantcommentary to=functions.', 'assistantanalysis to=functions.'];

export const FIXED_OPENERS: Opener[] = [
  { literal: '<think>', anywhere: true, match: /^<(think|thinking|reasoning)>/i, closer: (m) => tag(new RegExp(`</${m[1]}>`, 'i')) },
  { literal: '<seed:think>', anywhere: true, match: /^<seed:think>/i, closer: () => tag(/<\/seed:think>/i) },
  { literal: '<mm:think>', anywhere: true, match: /^<mm:think>/i, closer: () => tag(/<\/mm:think>/i) },
  // Hunyuan 3 puts a suffix on its tags: `<think:opensource>`.
  { literal: '<think:', anywhere: true, match: /^<think:[\w-]{1,20}>/i, closer: () => tag(/<\/think:[\w-]{1,20}>/i) },
  { literal: '<thinking>', anywhere: true, match: /^<thinking>/i, closer: () => tag(/<\/thinking>/i) },
  { literal: '<reasoning>', anywhere: true, match: /^<reasoning>/i, closer: () => tag(/<\/reasoning>/i) },
  { literal: '<tool_call_reasoning>', anywhere: true, match: /^<tool_call_reasoning>/i, closer: () => tag(/<\/tool_call_reasoning>/i) },
  { literal: '<|channel>', anywhere: true, match: /^<\|channel>/, closer: () => tag(/<channel\|>/) },
  { literal: '<|START_THINKING|>', anywhere: true, match: /^<\|START_THINKING\|>/, closer: () => tag(/<\|END_THINKING\|>/) },
  { literal: '[THINK]', anywhere: true, match: /^\[THINK\]/, closer: () => tag(/\[\/THINK\]/) },
  { literal: '<|open|>think<|sep|>', anywhere: true, match: /^<\|open\|>think<\|sep\|>/, closer: () => tag(/<\|close\|>think<\|sep\|>/) },
  // Granite-20B's JSON after it, never closed; or elements up to its closing tag (BFCL's XML prompt format).
  { literal: '<function_call>', glued: true, match: /^<function_call>\s*(?=[^\s<])/i, closer: () => ({ kind: 'balanced' }) },
  { literal: '<function_call>', glued: true, match: /^<function_call>\s*(?=<)/i, closer: () => wrapper(/<\/function_call>/i) },
  ...['<functioncall ', '<function_call '].map((literal): Opener => ({ literal, glued: true, match: /^<function_?call[ \t]+(?=\{)/i, closer: () => wrapper(/\}[ \t]*>/) })),
  { literal: '<longcat_tool_call>', glued: true, match: /^<(?!no_|not_)[a-z][a-z0-9]{1,20}_tool_call>/i, closer: (m) => holdingValues(wrapper(/<\/[a-z][a-z0-9]{1,20}_tool_call>/i), m, /^<[a-z][a-z0-9]{1,20}_tool_call>/i) },
  // GPT-OSS (harmony): the analysis channel is reasoning, commentary to a tool a call, the final channel's marker a token.
  { literal: '<|channel|>analysis<|message|>', anywhere: true, match: /^<\|channel\|>analysis<\|message\|>/, closer: () => tag(/<\|end\|>|(?=<\|start\|>|<\|channel\|>)/) },
  // A recipient in the analysis channel's header makes it a call, as in the commentary channel.
  { literal: '<|channel|>analysis to=', glued: true, token: true, match: /^<\|channel\|>analysis\s+to=/, closer: () => tag(/<\|call\|>/) },
  { literal: '<|channel|>final<|message|>', anywhere: true, drop: true, match: /^<\|channel\|>final<\|message\|>/, closer: () => tag(/<\|message\|>/) },
  // A commentary message with no recipient is a preamble for the user: its header goes, its words stay.
  { literal: '<|channel|>commentary<|message|>', anywhere: true, drop: true, preamble: true, match: /^<\|channel\|>\s*commentary\s*<\|message\|>/, closer: () => tag(/<\|message\|>/) },
  { literal: '<|channel|>commentary', glued: true, token: true, match: /^<\|channel\|>\s*commentary(?:(?=\s*[^\s<])|\s*(?!<\|message\|>)(?=\S{11}))/, closer: () => tag(/<\|call\|>/) },
  // The role header, with the recipient GPT-OSS may write after it (`to=functions.name`): waits until what follows shows which.
  { literal: '<|start|>assistant', anywhere: true, drop: true, match: /^<\|start\|>assistant/, closer: () => tag(ASSISTANT_HEADER_END) },
  { literal: '<|im_start|>', anywhere: true, drop: true, match: /^<\|im_start\|>/, closer: () => tag(tokenWithOptionalTail('im_start|>', 'assistant')) },
  // Llama 3's header left before the reply, with its role or alone: the token, and the role when it follows (decided once the text parts from it).
  { literal: '<|start_header_id|>', anywhere: true, drop: true, match: /^<\|start_header_id\|>/, closer: () => tag(tokenWithOptionalTail('start_header_id|>', 'assistant<|end_header_id|>')) },
  ...END_TOKENS.map((t): Opener => ({ literal: t, anywhere: true, drop: true, match: new RegExp(`^${escapeRegExp(t)}`), closer: () => tag(new RegExp(escapeRegExp(t.slice(1)))) })),
  // Left open, it ends where the reasoning it was opened in ends (Qwen3), as in the parser.
  { literal: '<tool_call>', glued: true, token: true, match: /^<tool_call>/i, closer: (m) => holdingValues(wrapper(/<\/tool_call>|(?=<\/think>)/i, m[0].length), m, /^<tool_call>/i) },
  { literal: '<seed:tool_call>', glued: true, match: /^<seed:tool_call>/i, closer: (m) => holdingValues(tag(/<\/seed:tool_call>/i), m, /^<seed:tool_call>/i) },
  { literal: '<|tool_call>', glued: true, token: true, match: /^<\|tool_call>/, closer: (m) => holdingValues(tag(/<tool_call\|>/), m, /^<\|tool_call>/) },
  { literal: '<start_function_call>', glued: true, match: /^<start_function_call>/, closer: () => tag(/<\/?end_function_call>/) },
  // FunctionGemma's response opener: before `call:` a mistyped call opener; else the tool's response the model invents:
  // the model ran past its stop, so the response and all it writes after it, up to its next call, are hidden as reasoning.
  { literal: '<start_function_response>call:', glued: true, match: /^<start_function_response>(?=call:)/, closer: () => tag(/<\/?end_function_call>/) },
  { literal: '<start_function_response>', anywhere: true, match: /^<start_function_response>(?=[\s\S])(?!c(?:a(?:l(?:l:?)?)?)?$|call:)/, closer: () => tag(/(?=<start_function_call>|<start_function_response>)/) },
  // Up to its closing tag, or the wrapper's when the model wrote that instead, as in the parser.
  // Opened once its name has ended in what follows a name (`>`, `{`, `,`, `[`): `<function=foo is documented here` names
  // no function, and prose about the tag stays (stream-recognise.ts holds the name while it arrives).
  { literal: '<function=', glued: true, match: /^<function=[^\s<>]{0,100}(?=[>{,([]|\s*[[{])/i, closer: () => tag(/<\/function>(\s*<\/tool_call>)?|<\/tool_call>/i) },
  // Its broken kin with the name in brackets or after a slash (`<function(name){…}`, `<function/name {…}`): hidden if the parser reads a call.
  { literal: '<function(', glued: true, match: /^<function(?:\([\w.-]{1,100}\)|\/[\w.-]{1,100})(?=\s*[[{])/i, closer: () => wrapper(/<\/function>/i) },
  // MiniCPM5's `<function name="…">` and DeepSeek V4's `<tool_call id="…" name="…">`: the tool named in an attribute.
  { literal: '<function name=', glued: true, match: /^<function\s+name\s*=/i, closer: (m) => holdingValues(wrapper(/<\/function>/i), m, /^<function\s+name\s*=/i) },
  // DeepSeek V4's `<tool_call id="…" name="…">`: an attribute must follow, else it is words after a tag's name.
  { literal: '<tool_call ', glued: true, token: true, match: /^<tool_call\s+(?=[\w-]{1,40}\s*=)/i, closer: () => wrapper(/<\/tool_call\s*\|?>|<\|\/tool_call\|>/i) },
  // The same tag in a fine-tune's special-token pipes: `<|tool_call name="bash">…</tool_call|>`.
  { literal: '<|tool_call ', glued: true, token: true, match: /^<\|tool_call\s+(?=[\w-]{1,40}\s*=)/i, closer: () => wrapper(/<\/tool_call\s*\|?>|<\|\/tool_call\|>/i) },
  { literal: '<function_calls>', glued: true, match: /^<function_calls>/i, closer: (m) => holdingValues(wrapper(/<\/(?:[｜|]{0,2}DSML[｜|]{0,2} ?)?function_calls>/i), m, /^<function_calls>/i) },
  { literal: '<minimax:tool_call>', glued: true, match: /^<minimax:tool_call>/i, closer: (m) => holdingValues(tag(/<\/minimax:tool_call>/i), m, /^<minimax:tool_call>/i) },
  { literal: '<invoke ', match: /^<invoke\s/i, closer: () => tag(/<\/invoke>/i) },
  { literal: '<call_record ', match: /^<call_record\s/i, closer: () => wrapper(/<\/call_record>/i) },
  { literal: '<｜tool▁calls▁begin｜>', glued: true, sure: true, match: new RegExp(`^<${BAR}tool${SEP}calls${SEP}begin${BAR}>`, 'i'), closer: () => tag(new RegExp(`<${BAR}tool${SEP}calls${SEP}end${BAR}>`, 'i')) },
  // A DeepSeek call whose section tokens the server stripped: up to its own end token.
  { literal: '<｜tool▁call▁begin｜>', glued: true, sure: true, match: new RegExp(`^<${BAR}tool${SEP}call${SEP}begin${BAR}>`, 'i'), closer: () => tag(new RegExp(`<${BAR}tool${SEP}call${SEP}end${BAR}>`, 'i')) },
  { literal: '<|python_tag|>', glued: true, token: true, match: /^<\|python_tag\|>/, closer: (m) => ({ kind: 'json-run', run: new JsonRunScan(m[0].length) }) },
  { literal: '<tools>', glued: true, match: /^<tools>/i, closer: (m) => holdingValues(wrapper(/<\/tools>/i), m, /^<tools>/i) },
  { literal: '<calls>', glued: true, match: /^<calls>/i, closer: (m) => holdingValues(wrapper(/<\/calls>/i), m, /^<calls>/i) },
  { literal: '<tool-use>', glued: true, match: /^<tool[-_]use>/i, closer: (m) => holdingValues(wrapper(/<\/tool[-_]use>/i), m, /^<tool[-_]use>/i) },
  { literal: '<tool_use>', glued: true, match: /^<tool_use>/i, closer: (m) => holdingValues(wrapper(/<\/tool_use>/i), m, /^<tool_use>/i) },
  { literal: '<tool_calls>', glued: true, match: /^<tool_calls>/i, closer: (m) => holdingValues(wrapper(/<\/tool_calls>/i), m, /^<tool_calls>/i) },
  // Hunyuan 3: `<tool_calls:opensource>` around `<tool_call:opensource>name<tool_sep:opensource>…`, each call ended by its closer or `<end_of_tool_call:…>`.
  { literal: '<tool_calls:', glued: true, token: true, match: /^<tool_calls:[\w-]{1,20}>/i, closer: (m) => holdingValues(wrapper(/<\/tool_calls:[\w-]{1,20}>/i), m, /^<tool_calls:[\w-]{1,20}>/i) },
  { literal: '<tool_call:', glued: true, token: true, match: /^<tool_call:[\w-]{1,20}>/i, closer: (m) => holdingValues(wrapper(/<\/tool_call:[\w-]{1,20}>|<end_of_tool_call:[\w-]{1,20}>/i), m, /^<tool_call:[\w-]{1,20}>/i) },
  { literal: '[TOOL_REQUEST]', glued: true, match: /^\[TOOL_REQUEST\]/, closer: (m) => holdingValues(wrapper(/\[(?:TOOL_REQUEST_END|END_TOOL_REQUEST)\]/), m, /^\[TOOL_REQUEST\]/) },
  { literal: '<toolcall>', glued: true, match: /^<toolcall>/i, closer: (m) => holdingValues(wrapper(/<\/toolcall>/i), m, /^<toolcall>/i) },
  { literal: '[TOOL_CALL]', glued: true, match: /^\[TOOL_CALL\]/, closer: (m) => holdingValues(wrapper(/\[\/TOOL_CALL\]/), m, /^\[TOOL_CALL\]/) },
  { literal: '<|tool_call|>', glued: true, token: true, match: /^<\|tool_call\|>/, closer: () => ({ kind: 'balanced' }) },
  // Kimi K3's XTML: special tokens, a call wherever it stands (formats/kimi.ts).
  { literal: '<|open|>tools<|sep|>', glued: true, token: true, sure: true, match: /^<\|open\|>tools<\|sep\|>/, closer: () => wrapper(/<\|close\|>tools<\|sep\|>/) },
  { literal: '<|open|>call', glued: true, token: true, sure: true, match: /^<\|open\|>call\b/, closer: () => wrapper(/<\|close\|>call<\|sep\|>(?:\s*<\|close\|>tools<\|sep\|>)?/) },
  // Solar Open 2 and PLaMo 3: calls in their own special tokens, wherever they stand (formats/token-calls.ts).
  { literal: '<|tool_call:start|>', glued: true, token: true, sure: true, match: /^<\|tool_call:start\|>/, closer: () => wrapper(/<\|tool_call:end\|>/) },
  { literal: '<|plamo:begin_tool_requests:plamo|>', glued: true, token: true, sure: true, match: /^<\|plamo:begin_tool_requests:plamo\|>/, closer: () => wrapper(/<\|plamo:end_tool_requests:plamo\|>/) },
  { literal: '<|tool_call_start|>', glued: true, token: true, match: /^<\|tool_call_start\|>/, closer: (m) => holdingValues(wrapper(/<\|tool_call_end\|>/), m, /^<\|tool_call_start\|>/) },
  { literal: '<|python_start|>', glued: true, token: true, sure: true, match: /^<\|python_start\|>/, closer: (m) => holdingValues(wrapper(/<\|python_end\|>/), m, /^<\|python_start\|>/) },
  { literal: '<|START_ACTION|>', glued: true, token: true, match: /^<\|START_ACTION\|>/, closer: (m) => holdingValues(wrapper(/<\|END_ACTION\|>/), m, /^<\|START_ACTION\|>/) },
  { literal: '<|function_call|>', glued: true, token: true, match: /^<\|function_call\|>/, closer: () => ({ kind: 'balanced' }) },
  // A fine-tune's own call token (formats/tagged.ts): up to the reply's end, hidden as far as the parser reads calls in it.
  { glued: true, token: true, match: new RegExp(`^${CALL_TOKEN.source}`, 'i'), closer: () => ({ kind: 'end', verify: true }) },
  { literal: '<|message_sep|>\n\nfunction call<|role_sep|>', glued: true, token: true, match: /^<\|message_sep\|>\s*function call<\|role_sep\|>/, closer: () => ({ kind: 'balanced' }) },
  // Glimmer: a message to `self` is reasoning; the header of a message to anyone else goes (a tool's message holds its call markup).
  { literal: 'to=self<|message|>', match: /^to=self<\|message\|>/, closer: () => tag(/<\|eo[mt]\|>|(?=<\|start\|>)/) },
  { literal: 'to=', drop: true, match: /^to=(?!self<)[\w.:-]{1,100}<\|message\|>/, closer: () => tag(/>/) },
  { literal: '<atem:function_calls>', glued: true, token: true, match: /^<atem:function_calls>/i, closer: (m) => holdingValues(wrapper(/<\/atem:function_calls>/i), m, /^<atem:function_calls>/i) },
  // GPT-OSS with its special tokens stripped: `commentary to=functions.name json{…}`, glued to the role or the words before it.
  ...STRIPPED_HARMONY_LITERALS.map(
    (literal): Opener => ({ literal, glued: true, match: new RegExp(`^${STRIPPED_HARMONY_HEAD.source}`), closer: () => ({ kind: 'balanced', brace: true }) }),
  ),
  // GPT-OSS's recipient, the role header before it stripped by the server: part of the call that follows.
  { literal: 'to=functions.', drop: true, match: /^to=functions\.[\w.:-]+(?=\s*<\|channel\|>)/, closer: () => tag(/(?=[^\w.:=-])/) },
  // Qwen-Agent's template: `✿FUNCTION✿: name` and `✿ARGS✿: {…}`, wherever it stands (formats/qwen-agent.ts).
  { literal: '✿FUNCTION✿', glued: true, token: true, sure: true, match: new RegExp(`^${MARKED_HEAD.source}`), closer: () => ({ kind: 'balanced', brace: true }) },
  { literal: '[FUNCTION]', match: new RegExp(`^${BRACKETED_HEAD.source}`), closer: () => ({ kind: 'balanced', brace: true }) },
  { literal: '<|startofthink|>', glued: true, token: true, match: /^<\|startofthink\|>/, closer: (m) => holdingValues(wrapper(/<\|endofthink\|>/), m, /^<\|startofthink\|>/) },
  { literal: '<|tools_prefix|>', glued: true, token: true, match: /^<\|tools_prefix\|>/, closer: (m) => holdingValues(wrapper(/<\|tools_suffix\|>/), m, /^<\|tools_prefix\|>/) },
  // InternLM2/2.5: a plugin call or code for the interpreter between the action tokens.
  { literal: '<|action_start|><|plugin|>', glued: true, token: true, match: /^<\|action_start\|>\s*<\|plugin\|>/, closer: (m) => holdingValues(wrapper(/<\|action_end\|>/), m, /^<\|action_start\|>/) },
  { literal: '[UNUSED_TOKEN_144][UNUSED_TOKEN_141]', glued: true, token: true, match: /^\[UNUSED_TOKEN_144\]\s*\[UNUSED_TOKEN_141\]/, closer: (m) => holdingValues(wrapper(/\[UNUSED_TOKEN_143\]/), m, /^\[UNUSED_TOKEN_144\]/) },
  { literal: '<|FunctionCallBegin|>', glued: true, token: true, match: /^<\|FunctionCallBegin\|>/, closer: (m) => holdingValues(wrapper(/<\|FunctionCallEnd\|>/), m, /^<\|FunctionCallBegin\|>/) },
  { literal: '<|action_start|><|interpreter|>', glued: true, token: true, match: /^<\|action_start\|>\s*<\|interpreter\|>/, closer: () => wrapper(/<\|action_end\|>/) },
  // Functionary v2: a message to `all` is prose (its header hidden); one to a tool is a call, up to `<|stop|>` or the next message.
  { literal: '<|from|>', glued: true, token: true, drop: true, match: FUNCTIONARY_TO_ALL, closer: () => tag(/<\|content\|>/) },
  { literal: '<|from|>', glued: true, token: true, match: FUNCTIONARY_TO_TOOL, closer: () => wrapper(/<\|stop\|>|(?=<\|from\|>)/) },
  // Functionary v3.2 (`>>>`) and v2 on Llama 3 (its reserved token): a recipient, then JSON arguments, or code up to the next recipient.
  { literal: '>>>all', glued: true, drop: true, match: /^>>>[ \t]*all[ \t]*\n/, closer: () => tag(/\n/) },
  { literal: '>>>', glued: true, sure: true, match: RECIPIENT_JSON, closer: () => ({ kind: 'balanced', brace: true }) },
  { literal: '>>>', glued: true, sure: true, match: RECIPIENT_CODE, closer: () => wrapper(/(?=>>>|<\|reserved_special_token_249\|>)/) },
  // Its `all\n` opening the reply is hidden (as Functionary v3.2's); the content token after it goes too.
  { literal: '<|content|>', drop: true, match: /^<\|content\|>/, closer: () => tag(/>/) },
  { literal: '<|tool_call_begin|>', glued: true, token: true, match: /^<\|tool_call_begin\|>/, closer: (m) => holdingValues(wrapper(/<\|tool_call_end\|>/), m, /^<\|tool_call_begin\|>/) },
  { literal: '<|tool_calls_section_begin|>', glued: true, token: true, match: /^<\|tool_calls_section_begin\|>/, closer: (m) => holdingValues(tag(/<\|tool_calls_section_end\|>/), m, /^<\|tool_calls_section_begin\|>/) },
  // DSML: V3.2's `function_calls`, V4's `tool_calls`, V4.1's ` calls` (a blank after the token); its bars single or doubled.
  ...DSML_TOKENS.flatMap((token) => ['function_calls>', 'tool_calls>', ' calls>'].map((kind) => token + kind)).map(
    (literal): Opener => ({ literal, glued: true, token: true, match: /^<[｜|]{0,2}DSML[｜|]{0,2} ?(?:function_|tool_)?calls>/, closer: () => tag(/<\/[｜|]{0,2}DSML[｜|]{0,2} ?(?:function_|tool_)?calls>/) }),
  ),
  // A DSML invoke whose block tokens the server dropped.
  ...DSML_TOKENS.map((token) => `${token}invoke`).map((literal): Opener => ({ literal, glued: true, token: true, match: /^<[｜|]{0,2}DSML[｜|]{0,2} ?invoke\s/, closer: () => wrapper(/<\/[｜|]{0,2}DSML[｜|]{0,2} ?invoke>/) })),
  // Meta's CWM: `<tool: label>` around the tool's name and input, up to `</tool>` (stream-recognise.ts holds the label while it arrives).
  { literal: '<tool:', glued: true, match: /^<tool:[ \t]*[^>\s]{1,40}[ \t]*>/i, closer: () => wrapper(/<\/tool>/i) },
  { literal: '[TOOL_CALLS]', glued: true, token: true, match: /^\[TOOL_CALLS\]/, closer: () => ({ kind: 'balanced', after: '[TOOL_CALLS]'.length }) },
  // Ornith's call as a log line of fields, `[Tool Call] name=… id=… args={…}`, starting its line.
  { literal: '[Tool Call] name=', match: /^\[Tool Call\][ \t]+name=/i, closer: () => ({ kind: 'balanced', brace: true }) },
  // Gemma 4's call with its wrapper tokens stripped by the server, starting its line.
  { literal: 'call:', match: /^call:[\w.-]{1,100}[ \t]*\{/, closer: () => ({ kind: 'balanced', brace: true }) },
  // Phi-4-mini's list, which may follow its words on the line, as in the parser.
  { literal: 'functools[', glued: true, match: /^functools\s*\[/, closer: () => ({ kind: 'balanced' }) },
  { literal: 'functools{', glued: true, match: /^functools\s*\{/, closer: () => ({ kind: 'balanced', brace: true }) },
  { literal: 'TOOL_NAME:', match: /^TOOL_NAME:/, closer: () => ({ kind: 'end', verify: true }) },
  // DSPy's ReAct fields (formats/dspy.ts): the thought's header goes; the call's fields run to the end of the reply, read by the parser.
  { literal: '[[ ## next_thought ## ]]', drop: true, match: /^\[\[ ## next_thought ## \]\]/, closer: () => tag(/\[ ## next_thought ## \]\]/) },
  { literal: '[[ ## next_tool_name ## ]]', match: /^\[\[ ## next_tool_name ## \]\]/, closer: () => ({ kind: 'end', verify: true }) },
  // A bracketed call mimicking a client's history placeholder, `[tool_call: name(…)]`: its line, read by the parser.
  { literal: '[tool_call:', match: /^\[(?:tool_call|tool call|function_call)[ \t]*:/i, closer: () => wrapper(/(?=\n)/) },
  { literal: '[function_call:', match: /^\[function_call[ \t]*:/i, closer: () => wrapper(/(?=\n)/) },
];

export const REASONING_END = new RegExp(`^(?:${LONE_REASONING_END.source})`, 'i');

export const REASONING = /^<(think|thinking|reasoning|seed:think|mm:think|tool_call_reasoning)>|^<start_function_response>(?!call:)|^<think:[\w-]{1,20}>|^(?:to=self)?<\|message\|>|^\[THINK\]|^<\|open\|>think<\|sep\|>|^<\|START_THINKING\|>|^<\|channel>|^<\|channel\|>analysis<\|message\|>/i;
/**
 * The first key of a JSON object that may hold a call: a call's own keys, an envelope's, a chat message's (`role`, its
 * `tool_calls` after), an agent step's (`thoughts` before its `command`).
 */
export const JSON_CALL = /^(\{\s*["'“](name|function|function_name|functionName|toolName|func|tool|tool_name|api_name|input|args|params|tool_call|function_call|functionCall|action|type|arguments|parameters|tool_calls|calls|function_calls|request|role|thoughts|thought|command)["'”]\s*:|\[\s*\{\s*["'](name|function|function_name|func|type|functionCall|arguments|parameters|id)["']\s*:)/;
export const CALL_FENCE_LANGS = /^(|json|jsonc|tool|tools|tool_code|tool_call|tool_calls|tool-call|python|py|function|function_call|xml)$/i;
/** Held text shorter than this is looked at on every push; longer, once it has grown by half. */
export const RECHECK_FLOOR = 64;

/**
 * A token's end followed by an optional tail, for a streaming search: the tail when it comes whole, else
 * the token alone as soon as the text parts from the tail. At the end of what arrived nothing matches yet.
 */
export function tokenWithOptionalTail(token: string, tail: string): RegExp {
  const parting = [...tail].map((ch, k) => `(?=${escapeRegExp(tail.slice(0, k))}[^${escapeRegExp(ch)}])`);
  return new RegExp(`${escapeRegExp(token)}(?:${escapeRegExp(tail)}|${parting.join('|')})`);
}

/** First letters of openers that are words and may follow the model's words on their line (`functools[`). */
const GLUED_WORD_LETTERS = [...new Set(FIXED_OPENERS.filter((o) => o.glued && o.literal && /^[a-z]/i.test(o.literal) && !STRIPPED_HARMONY_LITERALS.includes(o.literal)).map((o) => o.literal![0]!))].join('');
/** Shown text ending a sentence: a tool's name glued after it may be GLM-4's call (formats/bare.ts, `gluedNameLine`). */
export const SENTENCE_END = /[.!?。]$/;
export const GLUED_WORD_START = new RegExp(`^[${GLUED_WORD_LETTERS}]`);
export const GLUED_WORD_AFTER_BLANK = new RegExp(`(?<=[ \\t])[${GLUED_WORD_LETTERS}]`);
/**
 * Where GPT-OSS's stripped header may start in `held`, not inside another word (glued after punctuation, as
 * `…weather.assistantcommentary to=`): found whole, or a word at the end of what is held that may still become it
 * (-1: neither). Looked for by its words, so that not every word starting with `a` or `c` is looked at.
 */
export function strippedHarmonyAt(held: string): number {
  // Found whole, its recipient written (`to=`).
  if (held.includes('to=')) {
    for (const word of ['commentary', 'analysis']) {
      for (let at = held.indexOf(word); at !== -1; at = held.indexOf(word, at + 1)) {
        const start = held.startsWith('assistant', at - 9) ? at - 9 : at;
        if (!isWordCode(held.charCodeAt(start - 1))) return start;
      }
    }
  }
  // A word still arriving at the end: the last few characters, from a word's start.
  for (let k = Math.max(0, held.length - 40); k < held.length; k++) {
    const code = held.charCodeAt(k);
    if ((code !== 97 && code !== 99) || isWordCode(held.charCodeAt(k - 1))) continue;
    const rest = held.slice(k);
    if (STRIPPED_HARMONY_LITERALS.some((l) => l.startsWith(rest) || rest.startsWith(l))) return k;
  }
  return -1;
}

/** A letter, digit or `_` (NaN, outside the text, is none). */
function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * Where markup could start in `held`: a bracket, tag, fence or quote character, Qwen-Agent's `✿`, GPT-OSS's stripped header, or, after a blank,
 * the first letter of an opener that is a word and may follow the model's words on their line
 * (Phi-4's `functools[`).
 */
export function nextCandidate(held: string, recent: string): number {
  const punctuation = held.search(/[<[{`~>✿$]/);
  if (punctuation === 0) return 0;
  const wordStart = GLUED_WORD_START.test(held[0]!) && (recent === '' || /\s$/.test(recent));
  const word = wordStart ? 0 : firstOf(held.search(GLUED_WORD_AFTER_BLANK), strippedHarmonyAt(held));
  // A word glued to the end of a sentence may be GLM-4's call, its `<|assistant|>` token stripped.
  const afterSentence = SENTENCE_END.test(recent) && /^[A-Za-z_]/.test(held) ? 0 : held.search(GLUED_AFTER_SENTENCE);
  return firstOf(firstOf(punctuation, word), afterSentence);
}

const GLUED_AFTER_SENTENCE = /(?<=[.!?。])[A-Za-z_]/;

/** The earlier of two positions found by `search` (-1: none). */
export const firstOf = (a: number, b: number): number => (a === -1 ? b : b === -1 ? a : Math.min(a, b));
