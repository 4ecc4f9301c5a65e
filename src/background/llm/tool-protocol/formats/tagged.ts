/**
 * Tag-based formats: call wrappers (Hermes/Qwen `<tool_call>`, `<tools>`, `<tool-use>`,
 * `[TOOL_CALL]`, Granite `<|tool_call|>`, LFM2 `<|tool_call_start|>`, Llama 4 `<|python_start|>`,
 * Kimi K2 sections, Command R `<|START_ACTION|>`, Apertus `<|tools_prefix|>`, ModelScopeGPT `<|startofthink|>`), and tags
 * no template names whose name says they hold calls. What a wrapper holds is read by `bodies.ts`: `<function=…>`
 * (`function-tag.ts`), elements (`element-calls.ts`), `<invoke>` (`invoke.ts`), JSON and the rest.
 */
import { isCall, matchesOf, spanOf, type Detector, type ScanContext, type Span } from '../scan';
import { matchBracket } from '../values';
import { OpenValueScan } from '../value-scans';
import { readBody, type BodyReaders } from './bodies';
import { invokesIn } from './invoke';
import { functionCall } from './function-tag';
import { namedElementsCall } from './element-calls';
import { isBlock } from './xml-arguments';

/** Just past the JSON value a body starts with, or -1. */
function jsonEndIn(body: string): number {
  const first = body.search(/\S/);
  if (first === -1 || (body[first] !== '[' && body[first] !== '{')) return -1;
  return matchBracket(body, first);
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

/**
 * A special token no template names whose name says it holds calls (`<|tool_code|>`): not a known token's (those above),
 * nor one that begins, ends or separates something.
 */
export const CALL_TOKEN = /<\|(?!(?:tool|function)_call\|)(?=[a-z_]{0,30}(?:call|code)[a-z_]{0,30}\|>)(?![a-z_]*(?:begin|end|start|stop|sep|prefix|suffix|argument|section|respon|result|output|defin|list)[a-z_]*\|>)[a-z][a-z_]{1,40}\|>/i;

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
  // A fine-tune's own token named as holding calls (`<|tool_code|>`, before Python calls): as Granite's, up to the end of its calls.
  { open: new RegExp(CALL_TOKEN.source, 'g'), glue: 'token' },
];

/** Any wrapper's opening, whatever its case: matched by every text in which one of them is. */
const ANY_WRAPPER_OPEN = new RegExp(WRAPPERS.map((w) => w.open.source).join('|'), 'i');


/** The start of a closing tag ending the reply, never finished. */
const CUT_CLOSING_TAG = /<\/[\w:-]{0,40}\s*$/;

/** GLM's (and its kin's) argument tokens: no sentence writes these. */
const SPECIAL_ARGUMENT_TOKEN = /<(?:[a-z]{1,20}_)?(?:arg|param)_key>/i;

/** Whether a body stops inside a value (`text`: inside a value written as markup's text, not in JSON): the scan the streaming filter runs as the body arrives. */
function unfinished(body: string, text = false): boolean {
  const scan = new OpenValueScan(0);
  scan.feedTo(body, 0, body.length);
  return text ? scan.insideText : scan.insideValue;
}

/** Whether a marker at `at` stands after words on its line, inside a value of markup's text the body from `from` left open. */
function quotedIn(text: string, from: number, at: number): boolean {
  // Back to the line's start or the body's, whichever is nearer: no further.
  let i = at - 1;
  while (i >= from && text[i] !== '\n' && /\s/.test(text[i]!)) i--;
  return i >= from && text[i] !== '\n' && unfinished(text.slice(from, at), true);
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
    // An opening marker after words on its line, inside a parameter's value (a file's content quoting the wrapper), begins no
    // call: the next one after it may (a few at most).
    let next = n + 1;
    for (let tries = 0; tries < 4 && next < opens.length && quotedIn(ctx.text, from, opens[next]!.index); tries++) next++;
    const nextOpen = opens[next]?.index ?? ctx.text.length;
    // A closing marker inside a value (a JSON string, a GLM value) does not end the call: take the next (a few at most).
    for (let tries = 0; tries < 4 && c + 1 < closes.length && closes[c + 1]!.index < nextOpen && closes[c] && unfinished(ctx.text.slice(from, closes[c]!.index)); tries++) c++;
    const close = closes[c];
    // The last closing marker, ending the reply after words on its line inside a parameter's value: the reply ended inside
    // that value, which quoted the marker.
    const quoted = close !== undefined && close.index < nextOpen && c === closes.length - 1 && !ctx.text.slice(close.index + close[0].length).trim() && quotedIn(ctx.text, from, close.index);
    const closed = close !== undefined && close.index < nextOpen && !quoted;
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
