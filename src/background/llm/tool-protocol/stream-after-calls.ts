/**
 * What follows finished calls while a reply streams. Calls wait until their line ends: hidden when it ends (or the
 * reply does), shown as the text they were when prose follows on their line, as `parseToolCalls` reads a call only on
 * a line of its own; what stands between calls on one line and after the last of them joins them (`WaitingCalls`).
 * After a call is hidden, a wrapper's closing tag written again and the end-of-sequence token go with it
 * (`afterHiddenCall`).
 */
import { isBlank, LEFTOVER_CLOSER, STRAY_CLOSER } from './scan';
import { mayBeLeftoverCloser, strayCloserAhead } from './stream-closers';


/** What `joinAfter` found after the waiting calls. */
export type AfterCalls =
  /** Nothing can be told yet: wait for more of the reply. */
  | 'wait'
  /** Only blanks and separators arrived: the held text is used up. */
  | 'used-up'
  /** What belongs to the calls joined them: look again at what follows. */
  | 'joined'
  /** Other text follows: the filter decides whether it ends the line or shows the calls as text. */
  | 'other';

export class WaitingCalls {
  /** The calls and what joined them, as written. */
  text = '';
  /** The last character of `text`: asking the appended string itself would flatten it on every call. */
  private last = '';
  /** The calls opened the reply: calls whatever follows them on their line. */
  firm = false;
  /** Whether the calls were asked if a word glued after them leaves them calls: asked once per run of calls, so calls back to back are not read again and again. */
  gluedAsked = false;

  get any(): boolean {
    return this.text !== '';
  }

  add(stretch: string, firm = false) {
    this.text += stretch;
    this.last = stretch.at(-1) ?? this.last;
    this.firm ||= firm;
  }

  /** Whether the calls end with a blank: a word after them is not glued to them. */
  endsBlank(): boolean {
    return /\s/.test(this.last);
  }

  /** Forgets the calls, returning their text. */
  take(): string {
    const text = this.text;
    this.text = '';
    this.last = '';
    this.firm = false;
    this.gluedAsked = false;
    return text;
  }

  /**
   * Joins to the calls what goes with them from the start of `held`, and returns the rest. Blanks join them, and so do
   * Llama 3.x's `;` between JSON calls (NexusRaven's between Python calls, Gorilla OpenFunctions' `,`), Qwen2.5's shell
   * line continuation after Python calls, a wrapper's closing tag after a bare call whose opening the server ate (as in
   * the parser), brackets written once too often when their line ends there, and the end-of-sequence token. `blanks`
   * counts the separators joined before other text.
   */
  joinAfter(held: string, final: boolean): { rest: string; found: AfterCalls; blanks: number } {
    const header = this.endsBlank() ? 0 : strippedHeaderIn(held, final);
    if (header === 'wait') return { rest: held, found: 'wait', blanks: 0 };
    if (header) {
      this.add(held.slice(0, header));
      return { rest: held.slice(header), found: 'joined', blanks: 0 };
    }
    let i = 0;
    while (i < held.length && (isBlank(held[i]) || held[i] === ';' || held[i] === ',')) i++;
    const continuation = /^\\[ \t]*(?=\r?\n)/.exec(held.slice(i));
    if (continuation) i += continuation[0].length;
    else if (!final && /^\\[ \t]*\r?$/.test(held.slice(i))) return { rest: held, found: 'wait', blanks: 0 };
    this.add(held.slice(0, i));
    const rest = held.slice(i);
    if (!rest) return { rest, found: 'used-up', blanks: i };
    const stray = STRAY_CLOSER.exec(rest) ?? /^<\/s>/.exec(rest);
    // Brackets written once too often belong to the calls only if their line ends there: wait for what follows them.
    if (stray && !final && stray[0].length === rest.length && /[}\]][ \t]*$/.test(stray[0])) return { rest, found: 'wait', blanks: i };
    if (stray) {
      this.add(stray[0]);
      return { rest: rest.slice(stray[0].length), found: 'joined', blanks: i };
    }
    if (!final && strayCloserAhead(rest)) return { rest, found: 'wait', blanks: i };
    return { rest, found: 'other', blanks: i };
  }
}

/**
 * The length of Llama 3.1's next header with its tokens stripped, glued to a call and ending its line (`assistant`), at the
 * start of `held` (standing.ts `STRIPPED_HEADER`); `'wait'` while it may still become one; 0 where it is not there.
 */
function strippedHeaderIn(held: string, final: boolean): number | 'wait' {
  const header = /^assistant[ \t]*(\r?\n|$)/.exec(held);
  if (header && (header[1] || final)) return 'assistant'.length;
  return !final && /^(?:a(?:s(?:s(?:i(?:s(?:t(?:a(?:n(?:t[ \t]*\r?)?)?)?)?)?)?)?)?)?$/.test(held) ? 'wait' : 0;
}

/**
 * What goes with a call just hidden, from the start of `held`: Llama 3.1's stripped header glued to it (`glued`: nothing
 * joined it since), a wrapper's closing tag written again after it, ending
 * its line (`found: 'closer'`; more may follow), or the end-of-sequence token (`'eos'`), as in the parser.
 */
export function afterHiddenCall(held: string, final: boolean, glued = false): { rest: string; found: 'wait' | 'closer' | 'eos' | 'other' } {
  const header = glued ? strippedHeaderIn(held, final) : 0;
  if (header === 'wait') return { rest: held, found: 'wait' };
  if (header) return { rest: held.slice(header), found: 'closer' };
  LEFTOVER_CLOSER.lastIndex = 0;
  const leftover = LEFTOVER_CLOSER.exec(held);
  const after = leftover ? held.slice(leftover[0].length) : '';
  if (leftover && (/^[ \t]*\r?\n/.test(after) || (final && !after.trim()))) return { rest: after, found: 'closer' };
  const eos = /^[ \t]*<\/s>/.exec(held) ?? (final ? /^\s*<\/s>\s*$/.exec(held) : null);
  if (eos) return { rest: held.slice(eos[0].length), found: 'eos' };
  if (!final && (/^\s*(?:<(?:\/(?:s(?:>\s*)?)?)?)?$/.test(held) || mayBeLeftoverCloser(held))) return { rest: held, found: 'wait' };
  return { rest: held, found: 'other' };
}
