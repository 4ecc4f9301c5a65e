/**
 * What the streaming filter has shown so far, as far as deciding about the next stretch needs it:
 * the last few hundred characters (the context a finished stretch is parsed in), whether the
 * current line is still blank or a block quote, and whether the text now stands inside code (a
 * fence or inline code), where markup is an example the user sees. Updated once per character shown.
 */
import { isBlank } from './scan';

const BLANK_LINES = /\n(?:[ \t]*\n)+/g;

export class ShownText {
  /** The last few hundred characters shown. */
  recent = '';
  /** Anything but blanks shown yet. */
  content = false;
  /** The line shown so far holds only blanks. */
  lineBlank = true;
  /** The line shown so far is a block quote (`>` first): markup on it is quoted text, never hidden. */
  lineQuoted = false;
  /** Reasoning was just hidden on this line: what follows may start a call, as at a line's start. */
  afterReasoning = false;
  /** Inside a code fence the user sees. */
  inFence = false;
  /** Characters shown in all, and how many had been when the last fence closed. */
  private total = 0;
  private fenceEnd = -1;
  /** The first three non-blank characters of the line. */
  private lineHead = '';
  /** Backticks on this line outside runs of three or more. */
  private ticks = 0;
  /** The backtick run the line ends with. */
  private run = 0;
  /** Inline code opened on an earlier line of this paragraph is still open (it may run over lines, not past a blank one). */
  private carried = 0;

  private lineTicks(): number {
    return this.ticks + (this.run < 3 ? this.run : 0);
  }

  /** Inside a fence, or inside inline code opened on this line: markup there is an example, never hidden. */
  insideCode(): boolean {
    const line = this.lineTicks();
    return this.inFence || ((this.carried + line) % 2 === 1 && line > this.carried);
  }

  /**
   * Inline code opened on an earlier line is still open: markup here is an example if a backtick closes the code before
   * the paragraph ends, which only what follows tells.
   */
  codeOpenFromEarlierLine(): boolean {
    return !this.inFence && this.carried === 1 && this.lineTicks() === 0;
  }

  /** Records `text` as shown; `callsWaiting`: finished calls wait for their line's end (a `>` then is no quote). */
  add(text: string, callsWaiting: boolean): string {
    if (!text) return '';
    this.recent += text;
    if (this.recent.length > 1024) this.recent = this.recent.slice(-400);
    for (const ch of text) {
      this.total++;
      if (ch === '\n') {
        // A blank line ends the paragraph and any inline code in it; so does a fence's line.
        this.carried = this.lineBlank || this.inFence ? 0 : (this.carried + this.lineTicks()) % 2;
        if (this.lineHead === '```' || this.lineHead === '~~~') {
          this.inFence = !this.inFence;
          this.carried = 0;
          if (!this.inFence) this.fenceEnd = this.total;
        }
        this.lineHead = '';
        this.lineBlank = true;
        this.lineQuoted = false;
        this.afterReasoning = false;
        this.ticks = 0;
        this.run = 0;
        continue;
      }
      if (ch === '`') this.run++;
      else {
        if (this.run < 3) this.ticks += this.run;
        this.run = 0;
      }
      // Blanks leave a line blank, and a call may still follow reasoning across them.
      if (isBlank(ch)) {
        if (this.lineHead && this.lineHead.length < 3) this.lineHead = '-';
        continue;
      }
      if (this.lineHead.length < 3) this.lineHead = this.lineHead === '' || ch === this.lineHead[0] ? this.lineHead + ch : '-';
      if (this.lineBlank && !this.afterReasoning && !callsWaiting) this.lineQuoted = ch === '>';
      this.lineBlank = false;
      this.afterReasoning = false;
      if (ch.trim()) this.content = true;
    }
    return text;
  }

  /**
   * The recent text a stretch is read after: the last `max` characters, from the end of the last fence closed in them
   * on (read without its opening, a closing fence would open one).
   */
  context(max: number): string {
    const since = this.fenceEnd === -1 ? max : Math.min(max, this.total - this.fenceEnd);
    // Blank lines in a run say no more than one does: where markup was hidden, only its line breaks were shown.
    return since <= 0 ? '' : this.recent.slice(-since).replace(BLANK_LINES, '\n\n');
  }

  /** Everything shown turned out to be reasoning (a bare `</think>`): start again, just after reasoning. */
  retract(): void {
    this.recent = '';
    this.content = false;
    this.lineBlank = true;
    this.afterReasoning = true;
    this.inFence = false;
    this.fenceEnd = -1;
    this.lineHead = '';
    this.ticks = 0;
    this.run = 0;
    this.carried = 0;
  }
}
