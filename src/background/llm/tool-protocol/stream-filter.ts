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

const JSON_CALL = /^(\{\s*"(name|function|tool|tool_name|action)"\s*:|\[\s*\{\s*"(name|function)"\s*:)/;
const CALL_FENCE_LANGS = /^(|json|jsonc|tool|tools|tool_code|tool_call|tool_calls|tool-call|python|py|function|function_call)$/i;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function createToolMarkupFilter(toolNames: readonly string[]): { push(delta: string): string; flush(): string } {
  const names = toolNames.map((n) => n.toLowerCase());
  const namePattern = names.map(escapeRegExp).join('|') || '(?!)';
  const toolTag = new RegExp(`^<(${namePattern})(?=[\\s/>])`, 'i');
  const pythonStart = new RegExp(`^\\[?\\s*(${namePattern})\\s*\\(`, 'i');

  let held = '';
  let closer: Closer | undefined;
  let visible = '';
  let previous = ''; // the last character processed, shown or hidden

  const atLineStart = () => previous === '' || previous === '\n' || !visible.trim();

  /** Could `text` still grow into an opener? */
  const couldOpen = (text: string): boolean => {
    const lower = text.toLowerCase();
    if (FIXED_OPENERS.some((o) => o.literal && o.literal.toLowerCase().startsWith(lower))) return true;
    if (/^<｜|^<\|/.test(text) && text.length < 24) return true;
    if (text[0] === '<' && names.some((n) => `<${n}`.startsWith(lower))) return true;
    if (text[0] === '<' && names.some((n) => lower === `<${n}`)) return true;
    if (atLineStart() && (text[0] === '{' || text[0] === '[')) {
      if (text.length < 40 && /^[[{]\s*(\[?\s*\{?\s*("[a-z_]*"?\s*:?\s*)?)?$/i.test(text)) return true;
      if (text[0] === '[' && text.length < 40 && names.some((n) => n.startsWith(text.slice(1).trim().toLowerCase().split('(')[0] ?? ''))) return !/\(/.test(text) || pythonStart.test(text);
    }
    if (atLineStart() && /^(`{1,3}|~{1,3})$/.test(text)) return true;
    if (atLineStart() && /^(`{3,}|~{3,})[^\n]*$/.test(text)) return true;
    if (atLineStart() && /^(`{3,}|~{3,})[^\n]*\n\s*$/.test(text)) return true;
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
    return text;
  };
  const hide = (text: string) => {
    if (text) previous = text.at(-1)!;
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
      const next = held.search(/[<[{`~]/);
      if (next === -1) {
        out += show(held);
        held = '';
        return out;
      }
      out += show(held.slice(0, next));
      held = held.slice(next);
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
  };
}
