/**
 * Hides tool-call markup from the text shown while a reply streams. Ordinary prose passes
 * straight through; only a stretch that could be the start of markup (a `<`, `[` or `{`, or a
 * code fence, at the start of a line) is held back, and released as soon as it cannot be. A call
 * counts only on a line of its own, as in `parseToolCalls`: a finished call is held until its line
 * ends, and shown as text if more prose follows on that line. A template's own markup may follow
 * the model's words on their line (`Sure.<tool_call>…`), and end-of-turn tokens are hidden wherever
 * they stand. What the filter hides is what `parseToolCalls` reads as calls, failed calls or
 * reasoning; what opens markup is recognised in `stream-recognise.ts` (fixed openers in
 * `stream-openers.ts`), how it closes in `stream-closers.ts`, what follows finished calls in `stream-after-calls.ts`,
 * and what was shown is kept in `stream-shown.ts`.
 *
 * The work is linear in the reply: each open stretch remembers how far it has been searched, and a
 * stretch that may still become markup is looked at again only once it has grown by half.
 */
import { isBlank } from './scan';
import { presentsExample } from './formats/fenced';
import type { ToolInput } from './tools';
import { feedCloser, finalCloserEnd, shownUnclosed } from './stream-closers';
import { firstOf, nextCandidate, NOT_MARKUP, OPEN, REASONING, REASONING_END, RECHECK_FLOOR, type Closer, type CloserSpec } from './stream-openers';
import { END_OF_REPLY_EOS } from './template-tokens';
import { createRecogniser, type Position } from './stream-recognise';
import { inPlaceReader } from './stream-in-place';
import { ShownText } from './stream-shown';
import { afterHiddenCall, WaitingCalls } from './stream-after-calls';
import { turnEndHolder } from './turn-end';

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


export function createToolMarkupFilter(tools: readonly ToolInput[]): ToolMarkupFilter {
  const recognise = createRecogniser(tools);
  const shown = new ShownText();

  let held = '';
  let closer: Closer | undefined;
  /** Held text that may still open markup is looked at again from this length on. */
  let recheckAt = 0;
  let hidAnything = false;
  /** Whether reasoning was hidden: after it, a bare `</think>` is not the end of reasoning the template opened. */
  let hidReasoning = false;
  /** The recipient just hidden (`to=functions.name`, `to=self`): the message or channel that follows is for it. */
  let recipient: string | undefined;
  let retracted = false;
  let retractionTaken = false;
  /** Finished calls (and the blanks after them), hidden once their line ends, shown if prose follows. */
  const waiting = new WaitingCalls();

  const atLineStart = () => shown.lineBlank || shown.afterReasoning || !shown.content || waiting.any;
  /** Where held text stands, for the recogniser. */
  const position = (): Position => ({ lineStart: atLineStart(), lineQuoted: shown.lineQuoted, shownContent: shown.content, hidAnything, hidReasoning, pending: waiting.any, afterCall, recipient, recent: shown.recent });

  /** A call was just hidden: an end-of-sequence token (`</s>`) right after it goes with it. */
  let endOfSequenceDue = false;
  /** Nothing was read since a call was hidden: Llama 3.1's stripped header glued to it goes with it. */
  let headerDue = false;
  /** Nothing but blanks was shown since a call was hidden: a tool response the model invents there is hidden too. */
  let afterCall = false;
  /** A template token was dropped right after a word: a word after it gets a blank between, as in the parser's text. */
  let spaceDue = false;

  /** Shows `text`: what was shown decides how the next stretch is read. */
  const show = (text: string) => {
    if (!text) return '';
    let lead = '';
    if (spaceDue) {
      lead = /^\s/.test(text) ? '' : ' ';
      spaceDue = false;
    }
    // Words shown after a recipient's header: its message has begun, the header no longer applies.
    if (recipient !== undefined && text.trim()) recipient = undefined;
    if (text.trim()) afterCall = false;
    return shown.add(lead + text, waiting.any);
  };
  const hide = () => {
    hidAnything = true;
  };
  /** Shows the calls waiting for their line's end: prose followed them, so they were quoted. */
  const release = () => {
    if (waiting.firm) {
      confirm();
      return '';
    }
    return show(waiting.take());
  };
  /** The calls waiting for their line's end stood on their own: hide them. */
  const confirm = () => {
    if (waiting.any) {
      hide();
      endOfSequenceDue = true;
      headerDue = !waiting.endsBlank();
      afterCall = true;
    }
    waiting.take();
  };

  const { holdsCalls, callsOnly, failsOnlyEndingReply, standsBeforeWords, standsBeforeGluedWord, shownPieces } = inPlaceReader(tools, shown);

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
          if (closer.kind === 'trailing' || closer.kind === 'uncoded') {
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
          if (closer.kind === 'balanced' && closer.endOnly && callsOnly(stretch, closer.mid)) {
            // `name(…)` after prose is a call only if the reply ends with it: wait and see.
            closer = open({ kind: 'trailing', length: end });
            continue;
          }
          if (closer.kind === 'fence' && failsOnlyEndingReply(stretch, closer.mid)) {
            // A fence that fails as a call only as the whole reply (naming no offered tool): wait and see whether the reply ends with it.
            closer = open({ kind: 'trailing', length: end });
            continue;
          }
          const exampleCandidate = !closer.drop && !(closer.kind === 'tag' && REASONING.test(stretch)) && closer.kind !== 'trailing' && closer.kind !== 'uncoded';
          if (exampleCandidate && shown.codeOpenFromEarlierLine() && holdsCalls(stretch, closer.mid)) {
            // Inline code opened on an earlier line: the calls are an example if a backtick closes it before the paragraph ends.
            closer = open({ kind: 'uncoded', length: end, mid: closer.mid, sure: closer.sure, firm: closer.firm });
            continue;
          }
          if (exampleCandidate && shown.content && !waiting.any && presentsExample(shown.recent.slice(-200)) && holdsCalls(stretch, closer.mid)) {
            // After prose that presents an example, markup is a call only if the message ends with it: wait and see.
            closer = open({ kind: 'trailing', length: end });
            continue;
          }
          held = held.slice(end);
          if (closer.drop) {
            closer = undefined;
            hide();
            spaceDue ||= /\S$/.test(shown.recent);
            recipient = /to=([\w.:-]+)\s*$/.exec(stretch)?.[1];
            continue;
          }
          const reasoning = closer.kind === 'tag' && REASONING.test(stretch);
          const isCall = !reasoning && ((closer.kind === 'tag' && !closer.verify) || (closer.kind === 'end' && !closer.verify) || closer.kind === 'json-run' || holdsCalls(stretch, closer.mid));
          const sure = closer.sure === true || (isCall && !(closer.kind === 'balanced' && closer.plain) && standsBeforeWords(stretch, closer.mid === true));
          const firm = closer.firm === true;
          closer = undefined;
          if (reasoning) {
            confirm();
            hide();
            hidReasoning = true;
            shown.afterReasoning = true;
            // Reasoning between two words leaves a space between them, as in the parser's text.
            spaceDue ||= /\S$/.test(shown.recent);
          } else if (isCall && sure) {
            confirm();
            hide();
            endOfSequenceDue = true;
            headerDue = true;
            afterCall = true;
            // Markup glued between two words leaves a space between them, as in the parser's text.
            spaceDue ||= /\S$/.test(shown.recent);
          } else if (isCall) {
            waiting.add(stretch, firm);
          } else {
            out += release();
            out += show(stretch);
          }
          continue;
        }
        if (!final) return out;
        if (shownUnclosed(closer, held, holdsCalls)) {
          out += release();
          out += show(held);
        } else {
          confirm();
          hide();
          // Markup never closed may end before the reply does (`<function=f>{…}`, then prose on the lines below): what the
          // parser shows of it is shown, when that is whole lines after the markup.
          const pieces = shownPieces(held, closer.mid).filter(([from, to]) => held.slice(from, to).trim());
          if (pieces.length && pieces[0]![0] > 0 && pieces.every(([from, to]) => /^[ \t]*\r?\n/.test(held.slice(from, to)))) {
            for (const [from, to] of pieces) out += show(held.slice(from, to));
          }
        }
        held = '';
        closer = undefined;
        return out;
      }
      // What goes with a call just hidden (a wrapper's closing tag written again, `</s>`) is hidden with it, as in the parser.
      if (endOfSequenceDue) {
        const after = afterHiddenCall(held, final, headerDue);
        held = after.rest;
        if (after.found === 'wait') return out;
        headerDue = false;
        if (after.found === 'closer') continue;
        endOfSequenceDue = false;
        if (after.found === 'eos') continue;
      }
      // The end-of-sequence token ending the reply after the model's words goes, as in the parser.
      if (final && !closer && !waiting.any && END_OF_REPLY_EOS.test(shown.recent.slice(-300) + held) && /^<\/s>\s*$/.test(held)) {
        held = '';
        return out;
      }
      // Held text that may still open markup is looked at again once it has grown enough.
      if (!final && !waiting.any && held.length < recheckAt) return out;
      if (waiting.any) {
        // A finished call waits for the end of its line: what goes with it joins it, a newline or the end of the reply
        // confirms it, and anything else but another call shows it as the text it was.
        const after = waiting.joinAfter(held, final);
        held = after.rest;
        if (after.found === 'wait') return out;
        if (after.found === 'used-up') {
          if (final) confirm();
          return out;
        }
        if (after.found === 'joined') continue;
        if (held[0] === '\n') confirm();
        // A word (or other text, `(answer.string)`) glued right after calls opening the reply, no blank between: calls that
        // stay calls so are hidden, as in the parser.
        else if (after.blanks === 0 && !waiting.gluedAsked && !shown.content && /[^\s[{<]/.test(held[0]!) && !waiting.endsBlank()) {
          waiting.gluedAsked = true;
          if (standsBeforeGluedWord(waiting.text)) confirm();
        }
      }
      // Nothing shown yet: the reply may open with a bare Python-style call, `scroll(…)`.
      // The first character on this line that is not a blank (a newline ends the look).
      let first = 0;
      while (first < held.length && isBlank(held[first])) first++;
      if (first === held.length || held[first] === '\n') first = -1;
      // A line may start with a word that opens markup: TOOL_NAME:, functools[; so may what follows a label opening the reply (`tools call: name(…)`).
      // Nothing shown yet, the reply may open with a call in bold or as a heading (`**name(…)**`, `## name(…)`).
      const startsWithName = (!shown.content || shown.lineBlank || recognise.afterLabel(position())) && !waiting.any && first !== -1 && (/[a-z_]/i.test(held[first]!) || (!shown.content && /[*#]/.test(held[first]!)));
      // A label opening the reply (`tools call: `) ends where calls may start.
      const labelEnd = startsWithName || waiting.any || (hidAnything && !hidReasoning) ? -1 : recognise.labelEndIn(held, position());
      const next = startsWithName ? first : waiting.any ? 0 : firstOf(nextCandidate(held, shown.recent), labelEnd);
      const newline = startsWithName || waiting.any ? -1 : held.indexOf('\n');
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
      if (waiting.any && !/[<[{`~>\w]/.test(held[0]!)) {
        out += release();
        continue;
      }
      if (shown.inFence || (shown.insideCode() && held[0] !== '`')) {
        out += release();
        out += show(held[0]!);
        held = held.slice(1);
        continue;
      }
      // A bare </think> with no reasoning hidden before: the template opened the reasoning, and all
      // that was shown is reasoning (calls hidden in it stay hidden). Clear it.
      const closeThink = REASONING_END.exec(held);
      if (closeThink && !hidReasoning && !retracted) {
        retracted = true;
        hidAnything = true;
        hidReasoning = true;
        shown.retract();
        waiting.take();
        held = held.slice(closeThink[0].length);
        out = '';
        continue;
      }
      // Functionary v3.2 names the recipient first: `all` is the user, not text for them.
      if (!shown.content && !hidAnything && held.startsWith('all\n')) {
        hidAnything = true;
        held = held.slice(4);
        continue;
      }
      const blocked = recognise.cannotOpenAt(held, 0);
      const found = blocked ? undefined : recognise.opener(held, position());
      if (found || (!blocked && held[0] !== '<')) recipient = undefined;
      if (found) {
        closer = open(found);
        recheckAt = 0;
        continue;
      }
      if (!final && !blocked && recognise.couldOpen(held, position())) {
        recheckAt = held.length < RECHECK_FLOOR ? 0 : Math.ceil(held.length * 1.5);
        return out;
      }
      recheckAt = 0;
      // Not markup: let this character through, with any that follow and cannot open markup either.
      out += release();
      let j = 1;
      while (!shown.inFence && recognise.cannotOpenAt(held, j)) j++;
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

  const take = (delta: string): string => {
    if (closer && closer.decided === OPEN) {
      // The open stretch reads only what arrived; the held text is joined once it is decided.
      arrived.push(delta);
      if (feedCloser(closer, delta) === OPEN) return '';
    } else arrived.push(delta);
    settle();
    return drain(false);
  };
  // The end-of-turn tokens the reply closes with are kept back, as the parser reads the reply without them.
  const turnEnd = turnEndHolder();

  return {
    push(delta: string) {
      const now = turnEnd.push(delta);
      return now ? take(now) : '';
    },
    flush() {
      settle();
      const rest = turnEnd.end(() => END_OF_REPLY_EOS.test(`${shown.recent.slice(-300)}${waiting.text}${held}</s>`));
      const out = rest ? take(rest) : '';
      settle();
      return out + drain(true);
    },
    takeRetraction() {
      const r = retracted && !retractionTaken;
      retractionTaken ||= r;
      return r;
    },
  };
}
