/**
 * Incremental scans of a call's body, fed piece by piece in one pass overall, that the parser and
 * the streaming filter share so they end a call at the same place:
 * - `OpenValueScan`: whether the body so far stops inside a value (its JSON, or the JSON after
 *   Kimi's argument token, left open; a GLM `<arg_value>`, a Qwen3-Coder `<parameter=…>` or a
 *   Gemma 4 `<|"|>` string unclosed). A closing marker there is part of the value, not the end of the call.
 * - `JsonRunScan`: where the JSON calls after Llama's `<|python_tag|>` end when prose follows them.
 */
import { BracketScan } from './stream-scans';

const KIMI_ARGUMENTS = '<|tool_call_argument_begin|>';
const GLM_VALUE_OPEN = '<arg_value>';
const GLM_VALUE_CLOSE = '</arg_value>';
const PARAMETER_OPEN = '<parameter=';
const PARAMETER_CLOSE = '</parameter>';
/** Gemma 4's string delimiter, the same token opening and closing. */
const GEMMA_QUOTE = '<|"|>';
const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';
const LONGEST_TOKEN = KIMI_ARGUMENTS.length;

/** The rule the parser's `unfinished(body)` (formats/tagged.ts) applies, read as the body arrives. */
export class OpenValueScan {
  /** `lead`: before the JSON's first character; `json`: inside its first value; `done`: that value closed, or the body is not JSON. */
  private phase: 'lead' | 'json' | 'done' = 'lead';
  private brackets: BracketScan | undefined;
  private glmValueOpen = false;
  /** Inside a Qwen3-Coder parameter's opening tag (`<parameter=name`), or its value. */
  private parameterTag = false;
  private parameterOpen = false;
  private gemmaStringOpen = false;
  /** Inside a CDATA section (MiniCPM5's values), which may hold any closing tag. */
  private cdataOpen = false;
  /** The last few characters, to see the tokens above arrive in any chunking. */
  private recent = '';
  private scanned: number;

  /** `bodyAt`: where the body starts in the stretch that is fed. */
  constructor(bodyAt: number) {
    this.scanned = bodyAt;
  }

  /** Reads the stretch up to index `until`; `text` is its part from `offset` on. */
  feedTo(text: string, offset: number, until: number): void {
    for (let at = Math.max(this.scanned, offset); at < until && at - offset < text.length; at++) this.step(text[at - offset]!, at);
    this.scanned = Math.max(this.scanned, Math.min(until, offset + text.length));
  }

  /** Whether the body read so far stops inside a value. */
  get insideValue(): boolean {
    return this.phase === 'json' || this.glmValueOpen || this.parameterOpen || this.gemmaStringOpen || this.cdataOpen;
  }

  /** Whether the body read so far stops inside a value written as markup's text (a parameter's, GLM's, a CDATA section), not in JSON. */
  get insideText(): boolean {
    return this.glmValueOpen || this.parameterOpen || this.gemmaStringOpen || this.cdataOpen;
  }

  private step(ch: string, at: number): void {
    this.recent = (this.recent + ch).slice(-LONGEST_TOKEN);
    if (this.cdataOpen) {
      if (ch === '>' && this.recent.endsWith(CDATA_CLOSE)) this.cdataOpen = false;
      return;
    }
    if (ch === '[' && this.recent.endsWith(CDATA_OPEN)) {
      this.cdataOpen = true;
      return;
    }
    if (ch === '>') {
      if (this.recent.endsWith(KIMI_ARGUMENTS)) {
        // The arguments' JSON starts after Kimi's token: the value to watch is that one.
        this.phase = 'lead';
        this.brackets = undefined;
        return;
      }
      if (this.recent.endsWith(GEMMA_QUOTE)) {
        this.gemmaStringOpen = !this.gemmaStringOpen;
        return;
      }
      if (this.recent.endsWith(GLM_VALUE_CLOSE)) this.glmValueOpen = false;
      else if (this.recent.endsWith(GLM_VALUE_OPEN)) this.glmValueOpen = true;
      else if (this.recent.endsWith(PARAMETER_CLOSE)) this.parameterOpen = false;
      else if (this.parameterTag) this.parameterOpen = true;
      this.parameterTag = false;
    } else if (ch === '=' && this.recent.endsWith(PARAMETER_OPEN)) this.parameterTag = true;
    if (this.phase === 'lead') {
      if (/\s/.test(ch)) return;
      if (ch === '{' || ch === '[') {
        this.phase = 'json';
        this.brackets = new BracketScan(ch, at);
      } else this.phase = 'done';
    } else if (this.phase === 'json' && this.brackets!.feed(ch, at) !== -1) this.phase = 'done';
  }
}

const PYTHON_TAG = '<|python_tag|>';
/** `JsonRunScan.feed`: still open (no prose yet) / not a run of JSON objects. */
export const RUN_OPEN = -1;
export const NOT_A_RUN = -2;

/**
 * Llama 3.x after `<|python_tag|>`: JSON objects, separated by `;` or the tag again, then prose
 * (`{"name": …} Done.`). `feed` gives the end of the last object once prose starts, RUN_OPEN while
 * none has, NOT_A_RUN when the body is not such a run (code, or objects not separated).
 */
export class JsonRunScan {
  private phase: 'lead' | 'json' | 'after' | 'tag' | 'none' | 'prose' = 'lead';
  private brackets: BracketScan | undefined;
  private lastEnd = -1;
  private tagMatched = 0;
  /** The tag being matched came right after a call (else after a separator). */
  private tagAfterCall = false;
  private scanned: number;
  private result = RUN_OPEN;

  /** `bodyAt`: where the body starts (just after the tag) in the stretch that is fed. */
  constructor(bodyAt: number) {
    this.scanned = bodyAt;
  }

  /** `text` is the stretch from `offset` on. */
  feed(text: string, offset: number): number {
    for (let at = Math.max(this.scanned, offset); at - offset < text.length && this.result === RUN_OPEN; at++) this.step(text[at - offset]!, at);
    this.scanned = Math.max(this.scanned, offset + text.length);
    return this.result;
  }

  private step(ch: string, at: number): void {
    const blank = /\s/.test(ch);
    switch (this.phase) {
      case 'lead':
        if (blank) return;
        if (ch === '<' && this.lastEnd !== -1) {
          this.phase = 'tag';
          this.tagMatched = 1;
          this.tagAfterCall = false;
          return;
        }
        if (ch !== '{') return this.end(NOT_A_RUN);
        this.phase = 'json';
        this.brackets = new BracketScan(ch, at);
        return;
      case 'json':
        if (this.brackets!.feed(ch, at) !== -1) {
          this.phase = 'after';
          this.lastEnd = at + 1;
        }
        return;
      case 'after':
        if (blank) return;
        if (ch === ';') this.phase = 'lead';
        else if (ch === '<') {
          this.phase = 'tag';
          this.tagMatched = 1;
          this.tagAfterCall = true;
        } else if (ch === '{') this.end(NOT_A_RUN);
        else this.end(this.lastEnd);
        return;
      case 'tag':
        // Not the tag: prose after a call, or something other than a call after a separator.
        if (ch !== PYTHON_TAG[this.tagMatched]) return this.end(this.tagAfterCall ? this.lastEnd : NOT_A_RUN);
        if (++this.tagMatched === PYTHON_TAG.length) this.phase = 'lead';
        return;
      default:
        return;
    }
  }

  private end(result: number): void {
    this.result = result;
    this.phase = result === NOT_A_RUN ? 'none' : 'prose';
  }
}
