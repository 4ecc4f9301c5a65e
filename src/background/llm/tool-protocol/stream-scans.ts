/** Incremental scans for the streaming filter: brackets fed piece by piece, and a fence's opening line. */
import { MAX_CALL_FENCE_LINE } from './formats/fenced';
import { LETTER } from './json-repairs';

/** `matchBracket` as a scan that is fed the text piece by piece: the same rules, in one pass overall. */
export class BracketScan {
  private readonly stack: string[];
  private quote = '';
  private escaped = false;
  /** The character read before, inside a string: a `'` after a letter may be an apostrophe. */
  private previous = '';
  /** A `'` after a letter ended the last piece: it ends the string unless a letter comes next (`endsString`). */
  private apostrophe = false;

  constructor(open: string, private readonly start: number) {
    this.stack = [open === '{' ? '}' : open === '[' ? ']' : ')'];
  }

  /** `text` is the stretch from `offset` on; the index just past the closing bracket, or -1 while open. */
  feed(text: string, offset: number): number {
    for (let j = Math.max(0, this.start + 1 - offset); j < text.length; j++) {
      const ch = text[j]!;
      if (this.apostrophe) {
        this.apostrophe = false;
        if (!LETTER.test(ch)) this.quote = '';
      }
      if (this.quote) {
        const previous = this.previous;
        this.previous = ch;
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === this.quote) {
          if (ch !== "'" || !LETTER.test(previous)) this.quote = '';
          else if (j + 1 === text.length) this.apostrophe = true;
          else if (!LETTER.test(text[j + 1]!)) this.quote = '';
        }
        continue;
      }
      if (ch === '"' || ch === "'") {
        this.quote = ch;
        this.previous = '';
      } else if (ch === '{') this.stack.push('}');
      else if (ch === '[') this.stack.push(']');
      else if (ch === '(') this.stack.push(')');
      else if (ch === this.stack.at(-1)) {
        this.stack.pop();
        if (!this.stack.length) return offset + j + 1;
      }
    }
    return -1;
  }
}


/** The opening line of a fence at the start of `text`: its marker, language and where the body starts. */
export function fenceOpening(text: string): { marker: string; lang: string; lineLength: number; body: number } | 'partial' | undefined {
  const ch = text[0];
  if (ch !== '`' && ch !== '~') return undefined;
  let j = 0;
  while (text[j] === ch) j++;
  if (j < 3) return j === text.length ? 'partial' : undefined;
  const newline = text.indexOf('\n', j);
  if (newline === -1) return text.length <= MAX_CALL_FENCE_LINE ? 'partial' : undefined;
  if (newline > MAX_CALL_FENCE_LINE) return undefined;
  let k = j;
  while (text[k] === ' ' || text[k] === '\t') k++;
  const lang = /^[\w-]*/.exec(text.slice(k, newline))![0];
  return { marker: text.slice(0, j), lang, lineLength: newline, body: newline + 1 };
}

/** Python's triple-quoted strings in a fence's body, fed a character at a time: whether one is open. */
export class TripleQuoteScan {
  /** The quote character of the triple-quoted string open, or ''. */
  private quote = '';
  /** The run of one quote character just read, and its length. */
  private runChar = '';
  private run = 0;

  get open(): boolean {
    return this.quote !== '';
  }

  feed(ch: string): void {
    if (ch !== "'" && ch !== '"') {
      this.run = 0;
      return;
    }
    if (ch === this.runChar) this.run++;
    else {
      this.runChar = ch;
      this.run = 1;
    }
    if (this.run < 3 || (this.quote && this.quote !== ch)) return;
    this.quote = this.quote ? '' : ch;
    this.run = 0;
  }
}
