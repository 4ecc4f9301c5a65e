/**
 * Hides tool-call markup from the text shown while a reply streams. Ordinary prose passes
 * straight through; only a stretch that could be the start of markup (a `<`, `[` or `{`, or a
 * code fence, at the start of a line) is held back, and released as soon as it cannot be. A call
 * counts only on a line of its own, as in `parseToolCalls`: a finished call is held until its line
 * ends, and shown as text if more prose follows on that line. A template's own markup may follow
 * the model's words on their line (`Sure.<tool_call>…`), and end-of-turn tokens are hidden wherever
 * they stand. What the filter hides is what `parseToolCalls` reads as calls, failed calls or
 * reasoning; the openers it knows are in `stream-openers.ts`.
 *
 * The work is linear in the reply: each open stretch remembers how far it has been searched, and a
 * stretch that may still become markup is looked at again only once it has grown by half.
 */
import { STRAY_CLOSER } from './formats/bare';
import { EXAMPLE_LEAD } from './formats/fenced';
import { parseToolCalls } from './parse';
import { nameKey, toolNameOf, type ToolInput } from './tools';

import { CALL_FENCE_LANGS, escapeRegExp, FIXED_OPENERS, FUNCTIONARY_HEADER, JSON_CALL, NOT_MARKUP, OPEN, REASONING, RECHECK_FLOOR, tag, wrapper, type Closer, type CloserSpec } from './stream-openers';
import { feedCloser, finalCloserEnd } from './stream-closers';
import { fenceOpening } from './stream-scans';

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

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\r';

/** Whether held text after a finished call may still become a stray closing tag (`\n</tool_`). */
function strayCloserAhead(held: string): boolean {
  const rest = held.trimStart();
  return held.length < 64 && (rest === '' || ['</tool_call>', '</tool_calls>', '</function_call>', '</toolcall>'].some((t) => t.startsWith(rest.toLowerCase())));
}

export function createToolMarkupFilter(tools: readonly ToolInput[]): ToolMarkupFilter {
  const names = tools.map((t) => nameKey(toolNameOf(t)));
  const namePattern = names.map((n) => escapeRegExp(n).replace(/_/g, '[-_]')).join('|') || '(?!)';
  const toolTag = new RegExp(`^<(${namePattern})(?=[\\s/>])`, 'i');
  /** `name(`, `[name(` and Qwen's `[Calling tool: name(`. */
  const pythonStart = new RegExp(`^\\[?\\s*(?:Calling tool:\\s*)?(${namePattern})\\s*\\(`, 'i');
  /** Mistral without its `[TOOL_CALLS]` token: `name[ARGS]{…}` or `name[CALL_ID]id[ARGS]{…}`. */
  const mistralArgs = new RegExp(`^(${namePattern})(?:\\[CALL_ID\\][\\w-]*)?\\[ARGS\\]`, 'i');
  const bareFunction = new RegExp(`^(${namePattern})\\{`, 'i');
  /** Functionary v3.2: the recipient's name on its line, then the arguments. */
  const recipientArgs = new RegExp(`^(${namePattern})[ \\t]*\\n[ \\t]*\\{`, 'i');
  /** Functionary v2, its prompt ending at `<|recipient|>`: the name, then `<|content|>` and the arguments. */
  const recipientContent = new RegExp(`^(${namePattern})[ \\t]*\\n?[ \\t]*<\\|content\\|>`, 'i');
  const mistralPrefix = (rest: string) => '[args]'.startsWith(rest) || '[call_id]'.startsWith(rest) || /^\[call_id\][\w-]*(\[(a(r(g(s\]?)?)?)?)?)?$/.test(rest);

  let held = '';
  let closer: Closer | undefined;
  /** Held text that may still open markup is looked at again from this length on. */
  let recheckAt = 0;
  let hidAnything = false;
  /** A recipient (`to=functions.name`) was just hidden: the channel that follows carries its call. */
  let afterRecipient = false;
  let retracted = false;
  let retractionTaken = false;
  /** The last few hundred characters shown: the context a finished stretch is parsed in. */
  let recent = '';
  let shownContent = false;
  /** The line shown so far holds only blanks. */
  let lineBlank = true;
  /** The line shown so far is a block quote (`>` first): markup on it is quoted text, never hidden. */
  let lineQuoted = false;
  /** Reasoning was just hidden on this line: what follows may start a call, as at a line's start. */
  let afterReasoning = false;
  /** Finished calls (and the blanks after them), hidden once their line ends, shown if prose follows. */
  let pending = '';
  /** The waiting calls opened the reply: calls whatever follows them on their line. */
  let pendingFirm = false;
  // Code the user sees: markup inside a code fence or inline code is an example, never hidden.
  let inFence = false;
  let lineHead = ''; // the first three non-blank characters of the line
  let ticks = 0; // backticks on this line outside runs of three or more
  let run = 0; // the backtick run the line ends with

  const insideCode = () => inFence || (ticks + (run < 3 ? run : 0)) % 2 === 1;
  const atLineStart = () => lineBlank || afterReasoning || !shownContent || pending !== '';

  /** Could `text` still grow into an opener? */
  const couldOpen = (text: string): boolean => {
    const lower = nameKey(text.slice(0, RECHECK_FLOOR));
    const lineStart = atLineStart();
    if (FIXED_OPENERS.some((o) => o.literal && (o.anywhere || (!lineQuoted && (lineStart || o.glued))) && o.literal.toLowerCase().startsWith(lower))) return true;
    if (!hidAnything && ['</think>', '</thinking>', '[begin final response]'].some((t) => t.startsWith(lower))) return true;
    if (!lineStart || lineQuoted) return false;
    if (/^<｜|^<\|/.test(text) && text.length < 24) return true;
    if (FUNCTIONARY_HEADER.test(text) && text.length < 200 && !text.includes('<|content|>')) return true;
    if (text[0] === '<' && names.some((n) => `<${n}`.startsWith(lower))) return true;
    if (text[0] === '<' && names.some((n) => lower === `<${n}`)) return true;
    if (text[0] === '{' || text[0] === '[') {
      if (text.length < 40 && /^[[{]\s*(\[?\s*\{?\s*("[a-z_]*"?\s*:?\s*)?)?$/i.test(text)) return true;
      // Qwen's `[Calling tool: name(…)]`: held while it may still become one.
      const calling = /^\[calling tool:\s*/.exec(lower);
      if (text[0] === '[' && text.length < 40 && (calling || '[calling tool:'.startsWith(lower))) {
        const rest = calling ? lower.slice(calling[0].length) : '';
        if (!calling || names.some((n) => n.startsWith(rest.split('(')[0] ?? ''))) return !rest.includes('(') || pythonStart.test(text);
      }
      if (text[0] === '[' && text.length < 40 && names.some((n) => n.startsWith(text.slice(1).trim().toLowerCase().split('(')[0] ?? ''))) return !/\(/.test(text) || pythonStart.test(text);
    }
    const fence = fenceOpening(text);
    if (fence === 'partial') return true;
    if (fence && CALL_FENCE_LANGS.test(fence.lang)) {
      // A call fence whose body has not begun, or has begun with what may be a tool's name (Gemma's ```tool_code).
      const body = text.slice(fence.body);
      const first = body.search(/\S/);
      if (first === -1) return true;
      const word = /^[\w-]*$/.exec(body.slice(first));
      if (word && [...names, 'print', 'tool_name'].some((n) => n.startsWith(nameKey(word[0])))) return true;
    }
    if (!shownContent && names.some((n) => n.startsWith(lower))) return true;
    if (!shownContent && names.some((n) => lower.startsWith(n) && mistralPrefix(lower.slice(n.length)))) return true;
    if (!shownContent && names.some((n) => lower.startsWith(n) && /^[ \t]*(\n[ \t]*)?$/.test(lower.slice(n.length)))) return true;
    if (!shownContent && [...names, 'all'].some((n) => lower.startsWith(n) && '<|content|>'.startsWith(lower.slice(n.length).trim()))) return true;
    if (!shownContent && !hidAnything && 'all\n'.startsWith(text)) return true;
    // GPT-OSS's recipient before its channel (`to=functions.name<|channel|>…`).
    const recipient = /^to=functions\.[\w.:-]*\s*/.exec(lower);
    if (recipient && '<|channel|>'.startsWith(lower.slice(recipient[0].length))) return true;
    const action = /^action:[ \t]*\n/.exec(lower);
    if (action) {
      const fence = action[0].length === text.length ? 'partial' : fenceOpening(text.slice(action[0].length));
      if (fence === 'partial' || (fence && CALL_FENCE_LANGS.test(fence.lang))) return true;
    } else if (/^a(c(t(i(o(n(:[ \t]*)?)?)?)?)?)?$/.test(lower)) return true;
    if (lineStart && names.some((n) => lower === n)) return true;
    return false;
  };

  /** Whether the characters at `i` rule out every opener (most prose, and runs of `<`, `[` or `{`). */
  const cannotOpenAt = (text: string, i: number): boolean => {
    if (i + 1 >= text.length) return false;
    const next = text[i + 1]!;
    const ch = text[i];
    if (ch === '<') return !/[\w|｜/]/.test(next);
    if (ch === '[') return !/[\s{\w/]/.test(next);
    if (ch === '{') return !/[\s"]/.test(next);
    return false;
  };
  const cannotOpen = (text: string) => cannotOpenAt(text, 0);

  /** A complete opener at the start of `held`, with how it closes. */
  const opener = (): CloserSpec | undefined => {
    const lineStart = atLineStart();
    // GPT-OSS's analysis channel after a recipient shown as text (`to=functions.name`, quoted) carries a call, not reasoning: as the parser reads it.
    if (held.startsWith('<|channel|>analysis') && (afterRecipient || /to=functions\.[\w.:-]{1,100}\s{0,8}$/.test(recent))) return lineQuoted ? undefined : tag(/<\|call\|>|<\|end\|>/);
    for (const o of FIXED_OPENERS) {
      if (!o.anywhere && (lineQuoted || (!lineStart && !o.glued))) continue;
      const m = held.match(o.match);
      if (m) return { ...o.closer(m), ...(o.sure || (o.token && lineStart) ? { sure: true } : {}), ...(o.drop ? { drop: true } : {}), ...(lineStart ? {} : { mid: true }) } as CloserSpec;
    }
    if (!lineStart || lineQuoted) return undefined;
    const named = held.match(toolTag);
    if (named) return { kind: 'tool-tag', name: named[1]!, close: new RegExp(`</${escapeRegExp(named[1]!)}\\s*>`, 'gi'), last: '', tail: '' };
    // An OpenAI-style `{"tool_calls": […]}` opening the reply counts whatever follows it on its line, as in the parser.
    if (JSON_CALL.test(held)) return { kind: 'balanced', ...(shownContent || pending || !/^\{\s*"tool_calls"/.test(held) ? {} : { firm: true }) };
    if (held[0] === '[' && pythonStart.test(held)) return { kind: 'balanced' };
    if (!shownContent && pythonStart.test(held)) return { kind: 'balanced' };
    if (mistralArgs.test(held)) return { kind: 'balanced', brace: true };
    if (!shownContent && recipientArgs.test(held)) return { kind: 'balanced', brace: true };
    if (!shownContent && recipientContent.test(held)) return wrapper(/<\|stop\|>|(?=<\|from\|>)/);
    // Command R+: `Action:` on the line before the call's fence; the stretch is read as one fence.
    const action = /^Action:[ \t]*\n/.exec(held);
    const actionFence = action ? fenceOpening(held.slice(action[0].length)) : undefined;
    if (actionFence && actionFence !== 'partial' && CALL_FENCE_LANGS.test(actionFence.lang)) return { kind: 'fence', marker: actionFence.marker, lineStart: -1, matched: 0, phase: 'fail' };
    // `name{…}</function>`: a call whose opening tag was lost; only its closing tag shows it is one.
    if (bareFunction.test(held)) return wrapper(/\}\s*<\/function>/i);
    const fence = fenceOpening(held);
    if (fence && fence !== 'partial' && CALL_FENCE_LANGS.test(fence.lang)) {
      const body = held.slice(fence.body);
      const first = body.search(/\S/);
      if (first !== -1 && (/[[{]/.test(body[first]!) || pythonStart.test(body.slice(first)) || body.startsWith('print(', first) || body.startsWith('TOOL_NAME:', first))) {
        return { kind: 'fence', marker: fence.marker, lineStart: -1, matched: 0, phase: 'fail' };
      }
    }
    return undefined;
  };

  const show = (text: string) => {
    if (!text) return '';
    recent += text;
    if (recent.length > 1024) recent = recent.slice(-400);
    for (const ch of text) {
      if (ch === '\n') {
        if (lineHead === '```' || lineHead === '~~~') inFence = !inFence;
        lineHead = '';
        lineBlank = true;
        lineQuoted = false;
        afterReasoning = false;
        ticks = 0;
        run = 0;
        continue;
      }
      if (ch === '`') run++;
      else {
        if (run < 3) ticks += run;
        run = 0;
      }
      // Blanks leave a line blank, and a call may still follow reasoning across them.
      if (isBlank(ch)) {
        if (lineHead && lineHead.length < 3) lineHead = '-';
        continue;
      }
      if (lineHead.length < 3) lineHead = lineHead === '' || ch === lineHead[0] ? lineHead + ch : '-';
      if (lineBlank && !afterReasoning && pending === '') lineQuoted = ch === '>';
      lineBlank = false;
      afterReasoning = false;
      if (ch.trim()) shownContent = true;
    }
    return text;
  };
  const hide = () => {
    hidAnything = true;
  };
  /** Shows the calls waiting for their line's end: prose followed them, so they were quoted. */
  const release = () => {
    if (pendingFirm) {
      confirm();
      return '';
    }
    const text = pending;
    pending = '';
    return show(text);
  };
  /** The calls waiting for their line's end stood on their own: hide them. */
  const confirm = () => {
    if (pending) hide();
    pending = '';
    pendingFirm = false;
  };

  /** Whether a finished stretch of markup holds calls (else it is released as text). */
  const holdsCalls = (stretch: string, mid = false) => {
    if (REASONING.test(stretch)) return true;
    const parsed = parseInPlace(stretch, mid);
    return parsed.calls.length > 0 || parsed.failures.length > 0;
  };
  /** Parses a finished stretch after the end of what was shown, as the parser reads it in the whole reply. */
  const parseInPlace = (stretch: string, mid: boolean) => parseToolCalls(`${recent.slice(-200)}${lineBlank || mid ? '' : '\n'}${stretch}`, tools);

  /** Whether a finished stretch holds calls of offered tools and nothing that fails. */
  const callsOnly = (stretch: string, mid = false) => {
    const parsed = parseInPlace(stretch, mid);
    return parsed.calls.length > 0 && parsed.failures.length === 0;
  };

  const open = (spec: CloserSpec): Closer => {
    const c = { ...spec, seen: 0, decided: OPEN } as Closer;
    feedCloser(c, held);
    return c;
  };

  const drain = (final: boolean): string => {
    let out = '';
    for (;;) {
      if (closer) {
        const end = final ? finalCloserEnd(closer, held) : closer.decided;
        if (end === NOT_MARKUP) {
          out += release();
          if (closer.kind === 'trailing') {
            // A call-shaped value followed by more prose: shown whole, as the parser leaves it.
            out += show(held.slice(0, closer.length));
            held = held.slice(closer.length);
          } else {
            out += show(held[0]!);
            held = held.slice(1);
          }
          closer = undefined;
          continue;
        }
        if (end >= 0 && closer.kind === 'json-run' && !callsOnly(held.slice(0, end), closer.mid)) {
          // JSON after the python tag that is not all calls of offered tools: the body runs to the end, as code.
          closer.whole = true;
          closer.decided = OPEN;
          continue;
        }
        if (end !== OPEN) {
          const stretch = held.slice(0, end);
          const exampleCandidate = !closer.drop && !(closer.kind === 'tag' && REASONING.test(stretch)) && closer.kind !== 'trailing';
          if (exampleCandidate && shownContent && pending === '' && EXAMPLE_LEAD.test(recent.slice(-200)) && holdsCalls(stretch, closer.mid)) {
            // After prose that presents an example, markup is a call only if the message ends with it: wait and see.
            closer = open({ kind: 'trailing', length: end });
            continue;
          }
          held = held.slice(end);
          if (closer.drop) {
            closer = undefined;
            hide();
            afterRecipient = /to=functions\.[\w.:-]+\s*$/.test(stretch);
            continue;
          }
          const reasoning = closer.kind === 'tag' && REASONING.test(stretch);
          const isCall = !reasoning && ((closer.kind === 'tag' && !closer.verify) || (closer.kind === 'end' && !closer.verify) || closer.kind === 'json-run' || holdsCalls(stretch, closer.mid));
          const sure = closer.sure === true;
          const firm = closer.firm === true;
          closer = undefined;
          if (reasoning) {
            confirm();
            hide();
            afterReasoning = true;
          } else if (isCall && sure) {
            confirm();
            hide();
            // Markup glued between two words leaves a space between them, as in the parser's text.
            if (!lineBlank) out += show(' ');
          } else if (isCall) {
            pending += stretch;
            pendingFirm ||= firm;
          } else {
            out += release();
            out += show(stretch);
          }
          continue;
        }
        if (!final) return out;
        const keep =
          (closer.kind === 'tool-tag' && !holdsCalls(held)) ||
          (((closer.kind === 'end' && closer.verify === true) || closer.kind === 'json-run') && !holdsCalls(held, closer.mid)) ||
          ((closer.kind === 'balanced' || closer.kind === 'fence' || closer.kind === 'trailing') && !holdsCalls(held)) ||
          (closer.kind === 'tag' && (!closer.hideIfUnclosed || (closer.verify === true && !holdsCalls(held, closer.mid))));
        if (keep) {
          out += release();
          out += show(held);
        } else {
          confirm();
          hide();
        }
        held = '';
        closer = undefined;
        return out;
      }
      // Held text that may still open markup is looked at again once it has grown enough.
      if (!final && !pending && held.length < recheckAt) return out;
      if (pending) {
        // A finished call waits for the end of its line: blanks join it, a newline or the end of
        // the reply confirms it, and anything else but another call shows it as the text it was.
        // Llama 3.x separates JSON calls with `;`.
        let i = 0;
        while (i < held.length && (isBlank(held[i]) || held[i] === ';')) i++;
        pending += held.slice(0, i);
        held = held.slice(i);
        if (!held) {
          if (final) confirm();
          return out;
        }
        // A wrapper's closing tag after a bare call whose opening the server ate joins the call, as in the parser.
        const stray = STRAY_CLOSER.exec(held);
        if (stray) {
          pending += stray[0];
          held = held.slice(stray[0].length);
          continue;
        }
        if (!final && strayCloserAhead(held)) return out;
        if (held[0] === '\n') confirm();
      }
      // Nothing shown yet: the reply may open with a bare Python-style call, `scroll(…)`.
      // The first character on this line that is not a blank (a newline ends the look).
      let first = 0;
      while (first < held.length && isBlank(held[first])) first++;
      if (first === held.length || held[first] === '\n') first = -1;
      // A line may start with a word that opens markup: TOOL_NAME:, functools[.
      const startsWithName = (!shownContent || lineBlank) && !pending && first !== -1 && /[a-z_]/i.test(held[first]!);
      const next = startsWithName ? first : pending ? 0 : held.search(/[<[{`~]/);
      const newline = startsWithName || pending ? -1 : held.indexOf('\n');
      if (newline !== -1 && (next === -1 || newline < next)) {
        // Each line is looked at from its start.
        out += release();
        out += show(held.slice(0, newline + 1));
        held = held.slice(newline + 1);
        recheckAt = 0;
        continue;
      }
      if (next === -1) {
        out += show(held);
        held = '';
        return out;
      }
      if (next > 0) {
        out += show(held.slice(0, next));
        held = held.slice(next);
        recheckAt = 0;
      }
      if (pending && !/[<[{`~\w]/.test(held[0]!)) {
        out += release();
        continue;
      }
      if (inFence || (insideCode() && held[0] !== '`')) {
        out += release();
        out += show(held[0]!);
        held = held.slice(1);
        continue;
      }
      // A bare </think> with nothing hidden before: the template opened the reasoning, and all
      // that was shown is reasoning. Clear it.
      const closeThink = held.match(/^<\/(think|thinking)>|^\[BEGIN FINAL RESPONSE\]/i);
      if (closeThink && !hidAnything && !retracted) {
        retracted = true;
        hidAnything = true;
        recent = '';
        shownContent = false;
        lineBlank = true;
        afterReasoning = true;
        pending = '';
        pendingFirm = false;
        inFence = false;
        lineHead = '';
        ticks = 0;
        run = 0;
        held = held.slice(closeThink[0].length);
        out = '';
        continue;
      }
      // Functionary v3.2 names the recipient first: `all` is the user, not text for them.
      if (!shownContent && !hidAnything && held.startsWith('all\n')) {
        hidAnything = true;
        held = held.slice(4);
        continue;
      }
      const blocked = cannotOpen(held);
      const found = blocked ? undefined : opener();
      if (found || (!blocked && held[0] !== '<')) afterRecipient = false;
      if (found) {
        closer = open(found);
        recheckAt = 0;
        continue;
      }
      if (!final && !blocked && couldOpen(held)) {
        recheckAt = held.length < RECHECK_FLOOR ? 0 : Math.ceil(held.length * 1.5);
        return out;
      }
      recheckAt = 0;
      // Not markup: let this character through, with any that follow and cannot open markup either.
      out += release();
      let j = 1;
      while (!inFence && cannotOpenAt(held, j)) j++;
      out += show(held.slice(0, j));
      held = held.slice(j);
    }
  };

  /** Text pushed while a stretch is open, kept apart so the stretch is not re-read as it grows. */
  let arrived: string[] = [];
  const settle = () => {
    if (arrived.length) held += arrived.join('');
    arrived = [];
  };

  return {
    push(delta: string) {
      if (closer && closer.decided === OPEN) {
        // The open stretch reads only what arrived; the held text is joined once it is decided.
        arrived.push(delta);
        if (feedCloser(closer, delta) === OPEN) return '';
      } else arrived.push(delta);
      settle();
      return drain(false);
    },
    flush() {
      settle();
      return drain(true);
    },
    takeRetraction() {
      const r = retracted && !retractionTaken;
      retractionTaken ||= r;
      return r;
    },
  };
}
