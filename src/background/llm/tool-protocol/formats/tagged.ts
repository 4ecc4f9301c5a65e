/**
 * Tag-based formats: call wrappers (Hermes/Qwen `<tool_call>`, `<tools>`, `<tool-use>`,
 * `[TOOL_CALL]`, Granite `<|tool_call|>`, LFM2 `<|tool_call_start|>`, Llama 4 `<|python_start|>`,
 * Kimi K2 sections, Command R `<|START_ACTION|>`, Apertus `<|tools_prefix|>`, ModelScopeGPT `<|startofthink|>`), Qwen3-Coder and Llama `<function=…>`, and Claude/MiniMax `<invoke>`.
 */
import { isCall, matchesOf, named, Regions, spanOf, STRAY_CLOSER, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { singleInput } from '../call-objects';
import { decodeEntities, isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';
import { readChildren, XmlNode } from '../xml-tree';
import { OpenValueScan } from '../value-scans';
import { readBody, type BodyReaders } from './bodies';
import { invokesIn } from './invoke';
import { declaredElements, elementArguments, isBlock, jsonBody, parametersOf } from './xml-arguments';
import { requiresArguments } from '../tools';

/** Just past the JSON value a body starts with, or -1. */
function jsonEndIn(body: string): number {
  const first = body.search(/\S/);
  if (first === -1 || (body[first] !== '[' && body[first] !== '{')) return -1;
  return matchBracket(body, first);
}

/**
 * A JSON object with one stray quote or `>` after it (`{"city": "NY"}"`, `{"symbol": "VFS"}>`, as Llama 3.x writes before
 * `</function>` on Groq and Together): the object.
 */
function withoutStrayQuote(inner: string): string {
  const trimmed = inner.trim();
  if (!trimmed.startsWith('{') || !(trimmed.endsWith('"') || trimmed.endsWith('>'))) return inner;
  return matchBracket(trimmed, 0) === trimmed.length - 1 ? trimmed.slice(0, -1) : inner;
}

/** `<function=name>` with parameters or a JSON body, up to `</function>`; its `>` may be missing at the line's end (a Zyphra model's). */
function functionCall(ctx: ScanContext, body: string, atEnd: boolean): Attempt | undefined {
  const head = /<function=([^>\s<]{1,100})(?:>|[ \t]*(?=\r?\n))/i.exec(body);
  if (!head) return undefined;
  const closeAt = body.search(/<\/function>/i);
  const inner = body.slice(head.index + head[0].length, closeAt === -1 ? undefined : closeAt);
  const open = atEnd && closeAt === -1;
  // The reply ended inside a tag (`<parameter=`): the arguments were still being written.
  if (open && /<[^<>]*$/.test(inner)) return { problem: 'cut_off', name: head[1] };
  if (/<parameter[\s=]/i.test(inner)) {
    const args = parametersOf(inner, open);
    return args ? named(ctx.resolve, head[1]!, args) : { problem: 'cut_off', name: head[1] };
  }
  if (!inner.trim()) {
    // Left open with no arguments yet: cut off, unless the tool takes none.
    const name = open ? ctx.resolve(head[1]!) : undefined;
    return name && requiresArguments(ctx.tools.schemaOf(name)) ? { problem: 'cut_off', name: head[1] } : named(ctx.resolve, head[1]!, {});
  }
  const declared = ctx.tools.schemaOf(ctx.resolve(head[1]!) ?? '')?.properties;
  const nameless = declared ? namelessParameters(inner, declared) : undefined;
  // Its last value may have been cut when the reply ends inside the call.
  if (nameless) return open ? { problem: 'cut_off', name: head[1] } : named(ctx.resolve, head[1]!, nameless);
  // One element per argument, named as the tool declares them (`<path>.</path>`), as MiniMax writes them.
  const elements = inner.trim().startsWith('<') ? elementArguments(ctx, inner, head[1]!) : undefined;
  if (elements && declared && Object.keys(elements).every((k) => k in declared)) return named(ctx.resolve, head[1]!, elements);
  if (open && jsonEnding(inner.trim()) === 'cut') return { problem: 'cut_off', name: head[1] };
  const json = parseLooseJson(withoutStrayQuote(inner));
  if (!isRecord(json)) return ctx.resolve(head[1]!) ? { problem: 'unparsable', name: head[1] } : undefined;
  return named(ctx.resolve, head[1]!, json);
}

/**
 * `<parameter>city</parameter>⏎Seoul⏎<parameter>unit</parameter>⏎celsius` (Qwen2.5 writing Qwen3-Coder's format): each
 * tag holds a declared parameter's name, its value the text after it. Undefined for any other body.
 */
function namelessParameters(inner: string, declared: Record<string, unknown>): Record<string, unknown> | undefined {
  const parts = inner.split(/<parameter>[ \t]*([\w.-]{1,100})[ \t]*<\/parameter>/i);
  if (parts.length < 3 || parts[0]!.trim()) return undefined;
  const args: Record<string, unknown> = {};
  for (let k = 1; k < parts.length; k += 2) {
    if (!(parts[k]! in declared)) return undefined;
    args[parts[k]!] = new XmlNode(parts[k + 1]!, 'blanks');
  }
  return args;
}

/** The elements a call written as XML holds its arguments in, after its name's element. */
export const ARGUMENTS_ELEMENTS = 'arguments|parameters|parameter|args|params|input|tool_input';
/** The elements a call written as XML without a wrapper names its tool in (`elementCalls`). */
export const NAME_ELEMENTS = 'tool|tool_name|name|function_name|tool_call_type';
/** Elements that may come before the name's: the MCP server's, a call id's. */
export const LEAD_ELEMENTS = 'server|server_name|tool_call_id|call_id|id';

/**
 * A JSON call written as XML, after its `<name>tool</name>`: `rest` is an `<arguments>` (or `<parameters>`,
 * `<args>`) element holding one element per argument, or JSON; nothing is a call without arguments. Anything
 * else is unreadable.
 */
/** An argument element holding words, no markup (`<tool_input>foo</tool_input>`, LangChain's XML agent): the tool's one parameter. */
function wordsInput(ctx: ScanContext, name: string, inner: string): Record<string, unknown> | undefined {
  const tool = ctx.resolve(name);
  return tool && !inner.includes('<') ? singleInput(decodeEntities(inner), ctx.tools.schemaOf(tool)) : undefined;
}

function namedElementsCall(ctx: ScanContext, name: string, rest: string, atEnd: boolean): Attempt {
  if (!rest.trim()) return named(ctx.resolve, name, {});
  const args = new RegExp(`^<(${ARGUMENTS_ELEMENTS})>([\\s\\S]*?)(?:(<\\/\\1>)\\s*$|$)`, 'i').exec(rest);
  // No arguments element: the elements beside the name are the arguments (Langroid's `<tool><request>…</request><path>…`), each one the tool declares.
  if (!args) {
    const siblings = declaredElements(ctx, rest, name);
    return siblings ? named(ctx.resolve, name, siblings) : { problem: 'unparsable', name };
  }
  const inner = args[2]!;
  // `</arguments>` never written, the wrapper closed after a complete JSON object: that object.
  const unclosed = !args[3] && !atEnd ? jsonBody(inner) : undefined;
  if (unclosed) return named(ctx.resolve, name, unclosed);
  // LangChain's XML agent stops generation at `</tool_input>`: its reply ends inside the element, every word of the input written.
  const stopped = !args[3] && atEnd && args[1]!.toLowerCase() === 'tool_input' ? (jsonBody(inner) ?? wordsInput(ctx, name, inner.trim())) : undefined;
  if (stopped) return named(ctx.resolve, name, stopped);
  if (!args[3]) return { problem: atEnd ? 'cut_off' : 'unparsable', name };
  const values = !inner.trim() ? {} : (jsonBody(inner) ?? elementArguments(ctx, inner, name) ?? wordsInput(ctx, name, inner));
  return values ? named(ctx.resolve, name, values) : { problem: 'unparsable', name };
}

const readers = (ctx: ScanContext): BodyReaders => ({
  functionCall: (body, atEnd) => functionCall(ctx, body, atEnd),
  invokes: (body, atEnd) => invokesIn(ctx, body, atEnd),
  namedElements: (name, rest, atEnd) => namedElementsCall(ctx, name, rest, atEnd),
});

interface Wrapper {
  open: RegExp;
  /** The closing marker; none for wrappers that run to the end of their JSON or the reply. */
  close?: RegExp;
  glue: 'tail' | 'token';
  /**
   * A special-token pair (`<|…|>` tokens, a namespaced tag): closed, it is a call wherever it stands (outside code,
   * quotes and examples). Servers' parsers read it between two words of prose; nobody writes these tokens as text.
   */
  pairAnywhere?: boolean;
  /** Left open, it ends where the reasoning it was opened in ends (`</think>`): Qwen3 opens a call before closing its reasoning. */
  endsWithReasoning?: boolean;
  /** A tag no template names (`unnamedWrapped`): a wrapper only around calls, on lines of its own. */
  unnamed?: boolean;
  /** Left open, JSON ends the call, as for wrappers that have no closing marker (Granite-20B's `<function_call>`). */
  jsonEnds?: boolean;
}

/** Call wrappers, each a marker pair (case-insensitive for tags). */
const WRAPPERS: readonly Wrapper[] = [
  // `<tool_call>` is a special token of the Hermes/Qwen tokenizers: closed and starting its line, words may follow it (servers give them as content).
  { open: /<tool_call>/gi, close: /<\/tool_call\s*>/gi, glue: 'token', endsWithReasoning: true },
  { open: /<[\w-]+:tool_call>/gi, close: /<\/[\w-]+:tool_call>/gi, glue: 'tail', pairAnywhere: true },
  // LongCat: `<longcat_tool_call>`; Granite-20B-FunctionCalling: `<function_call>` before each JSON call, never closed.
  // (`<no_tool_call>`, a model saying it calls nothing, is no wrapper.)
  { open: /<(?!no_|not_)[a-z][a-z0-9]{1,20}_tool_call>/gi, close: /<\/[a-z][a-z0-9]{1,20}_tool_call>/gi, glue: 'tail' },
  // Closed (`<function_call><name>…</name><arguments>…</arguments></function_call>`, BFCL's XML prompt format), it runs to its closing tag.
  { open: /<function_call>/gi, close: /<\/function_call>/gi, glue: 'tail', jsonEnds: true },
  // Home Assistant's local-conversation prompt: the JSON inside the tag itself, `<functioncall {…}>`.
  { open: /<function_?call[ \t]+(?=\{)/gi, close: /(?<=\})[ \t]*>/g, glue: 'tail' },
  // Its closing tag may carry DeepSeek V3.2's DSML token where the opening lost it (V3.2 on Ollama), as its invokes' and parameters' may.
  { open: /<function_calls>/gi, close: /<\/(?:[｜|]{0,2}DSML[｜|]{0,2} ?)?function_calls>/gi, glue: 'tail' },
  { open: /<tools>/gi, close: /<\/tools>/gi, glue: 'tail' },
  // xLAM-style fine-tunes (Hugging Face's cookbook): `<calls>` holding one call object per line.
  { open: /<calls>/gi, close: /<\/calls>/gi, glue: 'tail' },
  { open: /<tool[-_]use>/gi, close: /<\/tool[-_]use>/gi, glue: 'tail' },
  { open: /<tool_calls>/gi, close: /<\/tool_calls>/gi, glue: 'tail' },
  { open: /\[TOOL_CALL\]/g, close: /\[\/TOOL_CALL\]/g, glue: 'tail' },
  // LM Studio's own format: its prompt closes the request with `[END_TOOL_REQUEST]`, which models also write as `[TOOL_REQUEST_END]`.
  { open: /\[TOOL_REQUEST\]/g, close: /\[(?:TOOL_REQUEST_END|END_TOOL_REQUEST)\]/g, glue: 'tail' },
  { open: /<toolcall>/gi, close: /<\/toolcall>/gi, glue: 'tail' },
  // Phi-4-mini: `functools[…]`, and a lone call without the list's brackets, `functools{…}`.
  { open: /\bfunctools(?=\s*[[{])/g, glue: 'tail' },
  { open: /<\|tool_call\|>/g, glue: 'token' },
  { open: /<\|tool_call_start\|>/g, close: /<\|tool_call_end\|>/g, glue: 'token', pairAnywhere: true },
  { open: /<\|python_start\|>/g, close: /<\|python_end\|>/g, glue: 'token', pairAnywhere: true },
  { open: /<\|tool_calls_section_begin\|>/g, close: /<\|tool_calls_section_end\|>/g, glue: 'token', pairAnywhere: true },
  // Kimi K2's call without its section tokens: the body starts at the call's own token.
  { open: /(?=<\|tool_call_begin\|>)/g, close: /<\|tool_call_end\|>/g, glue: 'token', pairAnywhere: true },
  { open: /<\|START_ACTION\|>/g, close: /<\|END_ACTION\|>/g, glue: 'token', pairAnywhere: true },
  // GigaChat 3.1, and GigaChat 3's function-call role header: JSON follows and ends the call.
  { open: /<\|function_call\|>/g, glue: 'token' },
  { open: /<\|message_sep\|>\s*function call<\|role_sep\|>/g, glue: 'token' },
  { open: /<\|tools_prefix\|>/g, close: /<\|tools_suffix\|>/g, glue: 'token', pairAnywhere: true },
  // ModelScopeGPT: the call's JSON (`api_name`, `parameters`) between its think tokens, which hold its action, not reasoning.
  { open: /<\|startofthink\|>/g, close: /<\|endofthink\|>/g, glue: 'token', pairAnywhere: true },
  // InternLM2/2.5: a plugin call's JSON (`name`, `parameters`) between the action tokens (its interpreter: role-tokens.ts).
  { open: /<\|action_start\|>\s*<\|plugin\|>/g, close: /<\|action_end\|>/g, glue: 'token', pairAnywhere: true },
  // The same, where a GGUF's tokenizer prints those tokens by their placeholder names (InternLM2 on Ollama and llama.cpp).
  { open: /\[UNUSED_TOKEN_144\]\s*\[UNUSED_TOKEN_141\]/g, close: /\[UNUSED_TOKEN_143\]/g, glue: 'token', pairAnywhere: true },
  // Doubao's (Seed 1.5) function-call tokens around a JSON list, as prompts teaching its format make other models write them.
  { open: /<\|FunctionCallBegin\|>/g, close: /<\|FunctionCallEnd\|>/g, glue: 'token', pairAnywhere: true },
];

/** Any wrapper's opening, whatever its case: matched by every text in which one of them is. */
const ANY_WRAPPER_OPEN = new RegExp(WRAPPERS.map((w) => w.open.source).join('|'), 'i');


/** The start of a closing tag ending the reply, never finished. */
const CUT_CLOSING_TAG = /<\/[\w:-]{0,40}\s*$/;

/** GLM's (and its kin's) argument tokens: no sentence writes these. */
const SPECIAL_ARGUMENT_TOKEN = /<(?:[a-z]{1,20}_)?(?:arg|param)_key>/i;

/** Whether a body stops inside a value: the same scan the streaming filter runs as the body arrives. */
function unfinished(body: string): boolean {
  const scan = new OpenValueScan(0);
  scan.feedTo(body, 0, body.length);
  return scan.insideValue;
}

/**
 * The first `</think>` between `from` and `to` that does not stand inside a value of the body before it; -1 if none.
 * `closes` are the text's `</think>`s in order, with `next` the first not yet passed: the wrappers are read in order, so
 * each close is passed once.
 */
function reasoningEndIn(text: string, closes: { at: number[]; next: number }, from: number, to: number): number {
  while (closes.next < closes.at.length && closes.at[closes.next]! < from) closes.next++;
  for (let k = closes.next, tries = 0; k < closes.at.length && closes.at[k]! < to && tries < 4; k++, tries++) {
    if (!unfinished(text.slice(from, closes.at[k]))) return closes.at[k]!;
  }
  return -1;
}

/**
 * A wrapper's body ends at its closing marker, or where the next wrapper opens, or at the end of
 * the reply. Open and close markers are found once each; every stretch is read once.
 */
export const wrapped: Detector = (ctx) => {
  const spans: Span[] = [];
  // Most replies open no wrapper: one scan for any of them spares a scan for each.
  if (!ANY_WRAPPER_OPEN.test(ctx.text)) return spans;
  const thinkCloses = lazyThinkCloses(ctx.text);
  for (const w of WRAPPERS) {
    const opens = [...matchesOf(w.open, ctx.text)].filter((m) => !ctx.isProtected(m.index));
    if (opens.length) spans.push(...wrapperSpans(ctx, w, opens, thinkCloses));
  }
  return spans;
};

/** The text's `</think>`s, found when first asked for, with the first not yet passed. */
function lazyThinkCloses(text: string): () => { at: number[]; next: number } {
  let closes: { at: number[]; next: number } | undefined;
  return () => (closes ??= { at: [...matchesOf(/<\/think>/g, text)].map((c) => c.index), next: 0 });
}

/** The spans of one wrapper's openings (`opens`, in order), each read up to its closing marker, the next opening, or the end. */
function wrapperSpans(ctx: ScanContext, w: Wrapper, opens: readonly RegExpExecArray[], thinkCloses: () => { at: number[]; next: number }): Span[] {
  const spans: Span[] = [];
  const closes = w.close ? [...matchesOf(w.close, ctx.text)] : [];
  let c = 0;
  /** Whether the wrapper before was closed by its closing marker. */
  let lastClosed = false;
  for (const [n, m] of opens.entries()) {
    const from = m.index + m[0].length;
    while (c < closes.length && closes[c]!.index < from) c++;
    const nextOpen = opens[n + 1]?.index ?? ctx.text.length;
    // A closing marker inside a value (a JSON string, a GLM value) does not end the call: take the next (a few at most).
    for (let tries = 0; tries < 4 && c + 1 < closes.length && closes[c + 1]!.index < nextOpen && closes[c] && unfinished(ctx.text.slice(from, closes[c]!.index)); tries++) c++;
    const close = closes[c];
    const closed = close !== undefined && close.index < nextOpen;
    const reasoningEnd = closed || !w.endsWithReasoning ? -1 : reasoningEndIn(ctx.text, thinkCloses(), from, nextOpen);
    const limit = closed ? close.index : reasoningEnd !== -1 ? reasoningEnd : nextOpen;
    const atEnd = !closed && limit === ctx.text.length;
    // A closing tag the reply ended inside (`…)</tool_`) is no part of the body.
    const body = atEnd ? ctx.text.slice(from, limit).replace(CUT_CLOSING_TAG, '') : ctx.text.slice(from, limit);
    // An opening written again right after a call left open, with nothing after it but the reply's end, is that call's
    // closer written as an opener (Hermes 2 Pro's `<tool_call>{…}\n<tool_call>`): it goes with the call, no call begun.
    // After a closed call it is the next call, cut off (Qwen3-0.6B at its token limit).
    const previousClosed = lastClosed;
    lastClosed = closed;
    if (atEnd && !body.trim() && spans.length && !previousClosed && !ctx.text.slice(spans.at(-1)!.end, m.index).trim()) {
      spans.push({ start: m.index, end: limit, calls: [] });
      continue;
    }
    const attempts = readBody(ctx, body, atEnd, readers(ctx), closed);
    // "<tool_call>" followed by prose is talk about the tag.
    if (!attempts) continue;
    const end = closed ? close.index + close[0].length : limit;
    if (w.unnamed) {
      // A tag no template names is a wrapper only around calls of offered tools (or one the reply ended inside), on lines of its own;
      // around a name alone it is an element naming the tool (`<tool>bash</tool>`, then its arguments in another).
      if (/^[\w.:-]*$/.test(body.trim())) continue;
      if (attempts.every((a) => isCall(a) || (atEnd && a.problem === 'cut_off' && a.name !== undefined && ctx.resolve(a.name)))) spans.push(spanOf(m.index, end, attempts));
      continue;
    }
    // Without a closing marker, JSON ends the call (Granite, Phi-4: prose may follow on the next line).
    const jsonEnd = !closed && (w.close === undefined || w.jsonEnds) ? jsonEndIn(body) : -1;
    // GLM's argument tokens make `<tool_call>` a special-token pair too.
    const anywhere = closed && (w.pairAnywhere || isBlock(body) || SPECIAL_ARGUMENT_TOKEN.test(body));
    // Closed and starting its line, any wrapper may have words after it, as a special token may (Qwen2.5-Coder's `<tools>…</tools> Done.`).
    const span = spanOf(m.index, jsonEnd !== -1 ? from + jsonEnd : end, attempts, anywhere ? 'anywhere' : closed ? 'token' : w.glue);
    // A call left open and opened again holding the same call is one call written twice (Laguna's stutter): it runs once.
    spans.push(!closed && limit === nextOpen && nextOpen < ctx.text.length ? { ...span, once: true } : span);
  }
  return spans;
}

/**
 * A tag's name that says it holds calls (`<call>`, `<action>`, `<api_call>`, `<execute>`, `<fn_call>`), as fine-tuned
 * models' own formats name their wrappers; not one that holds results, definitions or examples.
 */
export const CALL_TAG_NAME = /^(?=[\w-]*(?:call|tool|func|fn|action|invoke|exec|command|cmd))(?![\w-]*(?:respon|result|output|observ|return|defin|spec|schema|list|avail|desc|exampl|sample|doc|hint|instruct|prompt|usage|help|info))[a-z][a-z0-9]*(?:[_-][a-z0-9]+){0,3}$/i;

/** At most this many tag names no template names are read as wrappers in one reply: each costs a pass over the text. */
const MAX_UNNAMED_WRAPPERS = 8;

/**
 * Call wrappers no template names: a tag whose name says it holds calls (CALL_TAG_NAME), holding only calls of
 * offered tools, on lines of its own (`<call>[get_weather(city="Paris")]</call>`, `<action>⏎{…}⏎</action>`).
 */
export const unnamedWrapped: Detector = (ctx) => {
  const byName = new Map<string, RegExpExecArray[]>();
  const passed = new Set<string>();
  for (const m of matchesOf(/<([a-z][\w-]{0,40})>/gi, ctx.text)) {
    const name = m[1]!.toLowerCase();
    if (passed.has(name) || ctx.isProtected(m.index)) continue;
    const opens = byName.get(name);
    if (opens) opens.push(m);
    // A tag named as an offered tool is that tool's call (formats/xml-tags.ts); a template's wrapper is read as one.
    else if (!CALL_TAG_NAME.test(name) || ctx.resolve(name) || byName.size >= MAX_UNNAMED_WRAPPERS || WRAPPERS.some((w) => new RegExp(`^${w.open.source}$`, 'i').test(m[0]))) passed.add(name);
    else byName.set(name, [m]);
  }
  const thinkCloses = lazyThinkCloses(ctx.text);
  const spans: Span[] = [];
  for (const [name, opens] of byName) {
    spans.push(...wrapperSpans(ctx, { open: /(?!)/, close: new RegExp(`</${name}\\s*>`, 'gi'), glue: 'tail', unnamed: true }, opens, thinkCloses));
  }
  return spans.sort((a, b) => a.start - b.start);
};

/**
 * A call written as XML elements with no wrapper around them: the tool's name in one (`<tool>bash</tool>`, also after
 * the MCP server's `<server>` or a call id's element), its arguments in the next (`<parameter>{"command": …}</parameter>`,
 * `<arguments>`), as Kimi K2.6 and Qwen3-Coder write when a client's prompt shows the elements; a wrapper's closing tag
 * after them belongs to the call. The name must be an offered tool's.
 */
export const elementCalls: Detector = (ctx) => {
  const spans: Span[] = [];
  const closes = new Map<string, number>();
  let lower: string | undefined;
  /** The next `</tag>` at or after `from`: each tag's text is searched once, as the candidates come in order. */
  const closeOf = (tag: string, from: number): number => {
    const known = closes.get(tag);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = (lower ??= ctx.text.toLowerCase()).indexOf(`</${tag}>`, from);
    closes.set(tag, at);
    return at;
  };
  let covered = 0;
  for (const m of matchesOf(new RegExp(`<(${NAME_ELEMENTS})>[ \\t]*([\\w.:-]{1,100})[ \\t]*<\\/\\1>`, 'gi'), ctx.text)) {
    if (m.index < covered || ctx.isProtected(m.index) || !ctx.resolve(m[2]!)) continue;
    const opening = new RegExp(`\\s*<(${ARGUMENTS_ELEMENTS})>`, 'iy');
    opening.lastIndex = m.index + m[0].length;
    const args = opening.exec(ctx.text);
    if (!args) continue;
    const tag = args[1]!.toLowerCase();
    const argsStart = args.index + args[0].length - args[1]!.length - 2;
    const close = closeOf(tag, opening.lastIndex);
    const end = close === -1 ? ctx.text.length : close + tag.length + 3;
    const attempt = namedElementsCall(ctx, m[2]!, ctx.text.slice(argsStart, end), close === -1);
    const stray = close === -1 ? null : STRAY_CLOSER.exec(ctx.text.slice(end, end + 64));
    // The server's or the call id's element on the lines just before the name belongs to the call.
    const lead = new RegExp(`(?:<(${LEAD_ELEMENTS})>[^<\\n]{0,200}<\\/\\1>\\s*)+$`, 'i').exec(ctx.text.slice(Math.max(covered, m.index - 600), m.index));
    const start = lead ? m.index - lead[0].length : m.index;
    covered = end + (stray ? stray[0].length : 0);
    spans.push(spanOf(start, covered, [attempt]));
  }
  return spans;
};

/**
 * Each `<function=name>` with its body: up to its closing tag, or the wrapper's when the model wrote that instead
 * (`… True </tool_call>`, Qwen3-Coder on Ollama), or the end of the reply. Left open, a body whose JSON is whole
 * and has prose on the lines below it (`… I will wait for the result.`) ends with the JSON: the prose is the
 * model's words, and a later `<function=` is read again.
 */
function* functionTags(text: string): Generator<[number, number]> {
  const tag = /<function=[^>\s]{1,100}>[\s\S]*?(?:<\/function>|(?=<\/tool_call>)|$)/gi;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(text))) {
    const end = m.index + m[0].length;
    if (end < text.length || /<\/function>$/i.test(m[0])) {
      yield [m.index, end];
      continue;
    }
    // No closing tag follows: every later body runs to the end too, unless its JSON ends first.
    const opening = /<function=[^>\s]{1,100}>/gi;
    opening.lastIndex = m.index;
    let o: RegExpExecArray | null;
    while ((o = opening.exec(text))) {
      const cut = jsonThenProse(text, o.index + o[0].length);
      yield [o.index, cut === -1 ? text.length : cut];
      if (cut === -1) return;
      opening.lastIndex = cut;
    }
    return;
  }
}

/** Just past a whole JSON value at `from` (and a stray quote after it) when prose follows on a line below; else -1. */
function jsonThenProse(text: string, from: number): number {
  let first = from;
  while (first < text.length && /\s/.test(text[first]!)) first++;
  if (text[first] !== '{' && text[first] !== '[') return -1;
  let end = matchBracket(text, first);
  if (end === -1) return -1;
  if (text[end] === '"') end++;
  const prose = /[ \t]*\r?\n\s*[^\s<]/y;
  prose.lastIndex = end;
  return prose.test(text) ? end : -1;
}

/** `<function=name>…</function>` outside a wrapper (Llama 3.1, bare Qwen3-Coder), cut or not; also its broken forms. */
export const functionTag: Detector = (ctx) => {
  const spans: Span[] = [...brokenFunctionTags(ctx)];
  for (const [start, stop] of functionTags(ctx.text)) {
    if (ctx.isProtected(start)) continue;
    const body = ctx.text.slice(start, stop);
    const atEnd = stop === ctx.text.length && !/<\/function>$/i.test(body);
    const call = functionCall(ctx, body, atEnd);
    // It may be glued to the words before it (`Computing result<function=calc>…</function>`), like
    // `<tool_call>`; glued and still open at the end, it was cut off (the streaming filter hides it too).
    let before = start;
    while (ctx.text[before - 1] === ' ' || ctx.text[before - 1] === '\t') before--;
    const glued = before > 0 && ctx.text[before - 1] !== '\n';
    // The wrapper's closing tag left after it, its opening stripped by the server (`…</function>\n</tool_call>`), belongs to the call.
    const stray = atEnd ? null : STRAY_CLOSER.exec(ctx.text.slice(stop, stop + 64));
    const end = stop + (stray ? stray[0].length : 0);
    if (call && glued && atEnd) spans.push(spanOf(start, end, [{ problem: 'cut_off', name: call.name }], 'tail'));
    else if (call) spans.push(spanOf(start, end, [call], atEnd ? undefined : 'tail'));
  }
  return spans;
};

/**
 * Broken `<function=…>` forms seen in the wild: `<function=name={…}</function>` (the `>` written as
 * `=`), and `name{…}</function>` at a line's start (the opening lost, as servers report it).
 */
function brokenFunctionTags(ctx: ScanContext): Span[] {
  const spans: Span[] = [];
  // The name may run into the JSON after `=`, `(`, `,` or a blank instead of `>` (Llama 3.x on Groq: `<function=read_file {…}></function>`),
  // the JSON perhaps in a list whose `]` never came (`<function=web_search [{…} </function>`, Llama 3.3 on Groq).
  // Or the name in brackets or after a slash (`<function(name){…}</function>`, `<function/name {…} </function>`, Llama 3.3 on Groq).
  for (const m of matchesOf(/<function(?:=([\w.-]{1,100})(?:[=(,]|[ \t])?|\(([\w.-]{1,100})\)[ \t]*|\/([\w.-]{1,100})[ \t]*)(?=\[?[ \t]*\{)|^([A-Za-z_][\w.-]{0,99})(?=\{)/gm, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    let open = m.index + m[0].length;
    const listed = ctx.text[open] === '[';
    if (listed) open = skipBlanks(ctx.text, open + 1);
    const close = matchBracket(ctx.text, open);
    // JSON left open runs to the end of the reply: every later candidate is inside it.
    if (close === -1) break;
    let end = close;
    if (listed) {
      end = skipBlanks(ctx.text, end);
      if (ctx.text[end] === ']') end++;
    }
    // `<function=name({…})</function>`, and a stray quote before the closer (Llama 3.x on Groq and Together).
    if (m[0].endsWith('(') && ctx.text[end] === ')') end++;
    const tagged = m[4] === undefined;
    if (tagged && ctx.text[end] === '"') end++;
    // The `>` the opening tag lacked, written after the JSON.
    if (tagged && ctx.text[end] === '>') end++;
    while (ctx.text[end] === ' ' || ctx.text[end] === '\t') end++;
    // The bare form counts only with the closing tag that shows it was a call.
    if (!/^<\/function>/i.test(ctx.text.slice(end, end + 11))) {
      if (!tagged) continue;
    } else end += '</function>'.length;
    const json = parseLooseJson(ctx.text.slice(open, close));
    if (!isRecord(json)) continue;
    spans.push(spanOf(m.index, end, [named(ctx.resolve, (m[1] ?? m[2] ?? m[3] ?? m[4])!, json)]));
  }
  return spans;
}

function skipBlanks(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}
