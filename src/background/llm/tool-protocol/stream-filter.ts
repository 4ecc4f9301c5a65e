/**
 * Hides tool-call markup from the text shown while a reply streams. Ordinary prose passes
 * straight through; only a stretch that could be the start of markup (a `<`, `[` or, at the
 * start of a line, `{` or a code fence) is held back, and released as soon as it cannot be.
 * What the filter hides is exactly what `parseToolCalls` reads as calls or reasoning.
 */
import { parseToolCalls } from './parse';
import { matchBracket } from './values';

type Closer =
  | { kind: 'tag'; close: RegExp; hideIfUnclosed: boolean }
  | { kind: 'end' }
  | { kind: 'balanced' }
  | { kind: 'fence'; marker: string }
  | { kind: 'tool-tag'; name: string }
  /** A call-shaped JSON after prose: a call only if nothing but whitespace follows it. */
  | { kind: 'trailing'; length: number };

/** closeIndex: the markup is still open / turned out not to be markup. */
const OPEN = -1;
const NOT_MARKUP = -2;

interface Opener {
  /** Matches at the start of the held text: a complete opener. */
  match: RegExp;
  closer: (m: RegExpMatchArray) => Closer;
  /** Literal prefix used to decide whether a shorter held text could still become this opener. */
  literal?: string;
}

const BAR = '[｜|]';
const SEP = '[▁_ ]';
const tag = (close: RegExp, hideIfUnclosed = true): Closer => ({ kind: 'tag', close, hideIfUnclosed });

const FIXED_OPENERS: Opener[] = [
  { literal: '<think>', match: /^<(think|thinking|reasoning)>/i, closer: (m) => tag(new RegExp(`</${m[1]}>`, 'i')) },
  { literal: '<thinking>', match: /^<thinking>/i, closer: () => tag(/<\/thinking>/i) },
  { literal: '<reasoning>', match: /^<reasoning>/i, closer: () => tag(/<\/reasoning>/i) },
  { literal: '<tool_call>', match: /^<tool_call>/i, closer: () => tag(/<\/tool_call>/i) },
  { literal: '<|tool_call>', match: /^<\|tool_call>/, closer: () => tag(/<tool_call\|>/) },
  { literal: '<function=', match: /^<function=/i, closer: () => tag(/<\/function>(\s*<\/tool_call>)?/i) },
  { literal: '<function_calls>', match: /^<function_calls>/i, closer: () => tag(/<\/function_calls>/i) },
  { literal: '<minimax:tool_call>', match: /^<minimax:tool_call>/i, closer: () => tag(/<\/minimax:tool_call>/i) },
  { literal: '<invoke ', match: /^<invoke\s/i, closer: () => tag(/<\/invoke>/i) },
  { literal: '<｜tool▁calls▁begin｜>', match: new RegExp(`^<${BAR}tool${SEP}calls${SEP}begin${BAR}>`, 'i'), closer: () => tag(new RegExp(`<${BAR}tool${SEP}calls${SEP}end${BAR}>`, 'i')) },
  { literal: '<|python_tag|>', match: /^<\|python_tag\|>/, closer: () => ({ kind: 'end' }) },
  { literal: '[TOOL_CALLS]', match: /^\[TOOL_CALLS\]/, closer: () => ({ kind: 'end' }) },
];

const JSON_CALL = /^(\{\s*"(name|function|tool|tool_name|action|type)"\s*:|\[\s*\{\s*"(name|function|type)"\s*:)/;
const CALL_FENCE_LANGS = /^(|json|jsonc|tool|tools|tool_code|tool_call|tool_calls|tool-call|python|py|function|function_call)$/i;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface ToolMarkupFilter {
  /** Text to show now. */
  push(delta: string): string;
  /** The rest, at the end of the reply. */
  flush(): string;
  /**
   * True once a bare `</think>` showed that everything shown so far was reasoning (the chat
   * template opened the `<think>`): the shown text should be cleared. Reading it resets it.
   */
  takeRetraction(): boolean;
}

/** Tool names are matched case-insensitively and with `-` for `_`, as the parser does. */
const nameKey = (s: string) => s.toLowerCase().replace(/-/g, '_');

export function createToolMarkupFilter(toolNames: readonly string[]): ToolMarkupFilter {
  const names = toolNames.map(nameKey);
  const namePattern = names.map((n) => escapeRegExp(n).replace(/_/g, '[-_]')).join('|') || '(?!)';
  const toolTag = new RegExp(`^<(${namePattern})(?=[\\s/>])`, 'i');
  const pythonStart = new RegExp(`^\\[?\\s*(${namePattern})\\s*\\(`, 'i');

  let held = '';
  let closer: Closer | undefined;
  let visible = '';
  let previous = ''; // the last character processed, shown or hidden
  let hidAnything = false;
  let retracted = false;
  let retractionTaken = false;
  // Code the user sees: markup inside a code fence or inline code is an example, never hidden.
  let line = ''; // the shown text of the current line
  let inFence = false;

  const insideCode = () => {
    if (inFence) return true;
    const ticks = line.replace(/`{3,}/g, '').match(/`/g)?.length ?? 0;
    return ticks % 2 === 1;
  };

  const atLineStart = () => previous === '' || previous === '\n' || !visible.trim();

  /** Could `text` still grow into an opener? */
  const couldOpen = (text: string): boolean => {
    const lower = nameKey(text);
    if (FIXED_OPENERS.some((o) => o.literal && o.literal.toLowerCase().startsWith(lower))) return true;
    if (/^<｜|^<\|/.test(text) && text.length < 24) return true;
    if (!hidAnything && ['</think>', '</thinking>'].some((t) => t.startsWith(lower))) return true;
    if (text[0] === '<' && names.some((n) => `<${n}`.startsWith(lower))) return true;
    if (text[0] === '<' && names.some((n) => lower === `<${n}`)) return true;
    if (atLineStart() && (text[0] === '{' || text[0] === '[')) {
      if (text.length < 40 && /^[[{]\s*(\[?\s*\{?\s*("[a-z_]*"?\s*:?\s*)?)?$/i.test(text)) return true;
      if (text[0] === '[' && text.length < 40 && names.some((n) => n.startsWith(text.slice(1).trim().toLowerCase().split('(')[0] ?? ''))) return !/\(/.test(text) || pythonStart.test(text);
    }
    if (atLineStart() && /^(`{1,3}|~{1,3})$/.test(text)) return true;
    if (atLineStart() && /^(`{3,}|~{3,})[^\n]*$/.test(text)) return true;
    if (atLineStart() && /^(`{3,}|~{3,})[^\n]*\n\s*$/.test(text)) return true;
    // A call fence whose body has begun with what may be a tool's name (Gemma's ```tool_code).
    const fenceBody = atLineStart() ? text.match(/^(?:`{3,}|~{3,})[ \t]*([\w-]*)[^\n]*\n\s*([\w-]*)$/) : null;
    if (fenceBody && CALL_FENCE_LANGS.test(fenceBody[1]!) && [...names, 'print'].some((n) => n.startsWith(nameKey(fenceBody[2]!)))) return true;
    if (!visible.trim() && names.some((n) => n.startsWith(lower))) return true;
    return false;
  };

  /** A complete opener at the start of `held`, with how it closes. */
  const opener = (): Closer | undefined => {
    for (const o of FIXED_OPENERS) {
      const m = held.match(o.match);
      if (m) return o.closer(m);
    }
    const named = held.match(toolTag);
    if (named) return { kind: 'tool-tag', name: named[1]! };
    if (atLineStart() && JSON_CALL.test(held)) return { kind: 'balanced' };
    if (atLineStart() && held[0] === '[' && pythonStart.test(held)) return { kind: 'balanced' };
    if (!visible.trim() && pythonStart.test(held)) return { kind: 'balanced' };
    const fence = held.match(/^(`{3,}|~{3,})[ \t]*([\w-]*)[^\n]*\n\s*(\S)/);
    if (atLineStart() && fence && CALL_FENCE_LANGS.test(fence[2]!) && /[[{]/.test(fence[3]!)) return { kind: 'fence', marker: fence[1]! };
    if (atLineStart() && fence && CALL_FENCE_LANGS.test(fence[2]!)) {
      const body = held.slice(held.indexOf('\n') + 1).trimStart();
      if (pythonStart.test(body) || /^print\(/.test(body)) return { kind: 'fence', marker: fence[1]! };
    }
    return undefined;
  };

  const show = (text: string) => {
    if (!text) return '';
    visible += text;
    previous = text.at(-1)!;
    for (const ch of text) {
      if (ch !== '\n') {
        line += ch;
        continue;
      }
      if (/^[ \t]*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
      line = '';
    }
    return text;
  };
  const hide = (text: string) => {
    if (!text) return;
    previous = text.at(-1)!;
    hidAnything = true;
  };

  /** Whether a finished stretch of markup holds calls (else it is released as text). */
  const holdsCalls = (stretch: string) => parseToolCalls(`${visible.slice(-200)}${stretch}`, toolNames).calls.length > 0 || /^<(think|thinking|reasoning)>/i.test(stretch);

  /** End of the markup that starts `held`, or -1 while it is still open. */
  const closeIndex = (c: Closer): number => {
    switch (c.kind) {
      case 'tag': {
        const m = c.close.exec(held.slice(1));
        return m ? 1 + m.index + m[0].length : -1;
      }
      case 'end':
        return -1;
      case 'balanced':
        return matchBracket(held, held.search(/[[{(]/));
      case 'fence': {
        const first = held.indexOf('\n');
        const m = new RegExp(`\\n[ \\t]*${escapeRegExp(c.marker)}[ \\t]*(?=\\n|$)`).exec(held.slice(first));
        return m ? first + m.index + m[0].length : -1;
      }
      case 'tool-tag': {
        const open = held.match(/^<[^<>]*?(\/?)>/);
        if (!open) return OPEN;
        if (open[1] === '/') return open[0].length;
        // A call's tag holds child tags or JSON; "<click> tag to press…" is prose about tags.
        const body = held.slice(open[0].length).trimStart();
        if (body && body[0] !== '<' && body[0] !== '{') return NOT_MARKUP;
        const m = new RegExp(`</${escapeRegExp(c.name)}\\s*>`, 'i').exec(held);
        return m ? m.index + m[0].length : OPEN;
      }
      case 'trailing':
        return held.slice(c.length).trim() ? NOT_MARKUP : OPEN;
    }
  };

  const drain = (final: boolean): string => {
    let out = '';
    for (;;) {
      if (closer) {
        const end = closeIndex(closer);
        if (end === NOT_MARKUP) {
          out += show(held[0]!);
          held = held.slice(1);
          closer = undefined;
          continue;
        }
        if (end !== OPEN) {
          const stretch = held.slice(0, end);
          if (closer.kind === 'balanced' && visible.trim() && holdsCalls(stretch)) {
            // After prose, JSON is a call only if the message ends with it: wait and see.
            closer = { kind: 'trailing', length: end };
            continue;
          }
          held = held.slice(end);
          const isCall = closer.kind === 'tag' || closer.kind === 'end' || holdsCalls(stretch);
          if (isCall) hide(stretch);
          else out += show(stretch);
          closer = undefined;
          continue;
        }
        if (!final) return out;
        const keep =
          closer.kind === 'tool-tag' ||
          ((closer.kind === 'balanced' || closer.kind === 'fence' || closer.kind === 'trailing') && !holdsCalls(held)) ||
          (closer.kind === 'tag' && !closer.hideIfUnclosed);
        if (keep) out += show(held);
        else hide(held);
        held = '';
        closer = undefined;
        return out;
      }
      // Nothing shown yet: the reply may open with a bare Python-style call, `scroll(…)`.
      const first = held.search(/\S/);
      const startsWithName = !visible.trim() && first !== -1 && /[a-z_]/i.test(held[first]!);
      const next = startsWithName ? first : held.search(/[<[{`~]/);
      if (next === -1) {
        out += show(held);
        held = '';
        return out;
      }
      out += show(held.slice(0, next));
      held = held.slice(next);
      if (inFence || (insideCode() && held[0] !== '`')) {
        out += show(held[0]!);
        held = held.slice(1);
        continue;
      }
      // A bare </think> with nothing hidden before: the template opened the reasoning, and all
      // that was shown is reasoning. Clear it.
      const closeThink = held.match(/^<\/(think|thinking)>/i);
      if (closeThink && !hidAnything && !retracted) {
        retracted = true;
        hidAnything = true;
        visible = '';
        line = '';
        inFence = false;
        previous = '';
        held = held.slice(closeThink[0].length);
        out = '';
        continue;
      }
      const found = opener();
      if (found) {
        closer = found;
        continue;
      }
      if (!final && couldOpen(held)) return out;
      // Not markup: let this character through and look again after it.
      out += show(held[0]!);
      held = held.slice(1);
    }
  };

  return {
    push(delta: string) {
      held += delta;
      return drain(false);
    },
    flush() {
      return drain(true);
    },
    takeRetraction() {
      const r = retracted && !retractionTaken;
      retractionTaken ||= r;
      return r;
    },
  };
}
