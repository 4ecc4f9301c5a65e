import type { CallFailure } from './failures';
import type { Fence } from './formats/fenced';
import type { ToolTable } from './tools';

export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** Why markup that tries to call a tool gives no call (the parser words the detail). */
export interface Problem {
  problem: CallFailure['problem'];
  /** The name as written, where one could be read. */
  name?: string;
}

/** A stretch of the text that is tool-call markup, the calls it holds, and the attempts that failed. */
export interface Span {
  start: number;
  end: number;
  calls: ParsedCall[];
  problems?: Problem[];
  /**
   * How the markup may stand beside prose on its line. Unset: on lines of its own. `tail`: after
   * prose, ending its line (a template's wrapper glued to the model's words). `token`: starting its
   * line, or after prose ending its line (special tokens). `anywhere`: DeepSeek's own tokens.
   */
  glue?: 'tail' | 'token' | 'anywhere';
  /** Its calls count once: when a later span holds the same calls, they are that span's (the markup stays hidden). */
  once?: boolean;
}

export type NameResolver = (raw: string) => string | undefined;

/** What a format detector sees: the text, known tool names, and regions it must not read. */
export interface ScanContext {
  text: string;
  resolve: NameResolver;
  tools: ToolTable;
  /** The text's fenced code blocks, found once. */
  fences: readonly Fence[];
  /** Code fences and inline code: examples, not calls (only the fence detector looks inside). */
  isProtected(index: number): boolean;
  /** The calls and failed calls of markup that makes up all of `text`, read as a reply of its own; undefined where it holds words too, or nothing. */
  readMarkup?(text: string): Pick<Span, 'calls' | 'problems'> | undefined;
}

export type Detector = (ctx: ScanContext) => Span[];

/** An offered tool's argument schema, where the request gave one. */
export type SchemaOf = ToolTable['schemaOf'];

/**
 * What belongs to a call just read though it reads as nothing: a call wrapper's closing tag after a call whose
 * opening the server stripped (a bare call, `<function=…>`; Gemma 4's `<tool_call|>`), an empty special token (`<|>`, Letta's local models),
 * or closing brackets written once too often at the end of the call's line (`{…}}}`).
 */
/**
 * A wrapper's closing tag written again on the lines after a call, closing nothing (`</tool_call>` twice, a `</tools>` copied
 * from the prompt: StableLM 2 fine-tunes; MiniMax's after a call whose opening tags it left out): it belongs to the call.
 * It must end its line.
 */
export const LEFTOVER_CLOSERS = ['</tool_call>', '</tool_calls>', '</tools>', '</function_call>', '</function_calls>', '</minimax:tool_call>'];
export const LEFTOVER_CLOSER = new RegExp(`\\s*(?:${LEFTOVER_CLOSERS.join('|')})(?=[ \\t]*(?:\\r?\\n|$))`, 'iy');

export const STRAY_CLOSER = /^\s*(?:<\/(?:tool_call|tool_calls|function_call|toolcall)\s*>|<\|>|<tool_call\|>)|^[ \t]*[}\]]{1,3}(?=[ \t]*(?:\r?\n|$))/i;

/**
 * Llama 3's header of the next assistant turn with its special tokens stripped (TensorRT-LLM's and vLLM's detokenizers):
 * `assistant` glued to a call, ending its line. It belongs to the call (parse.ts, standing.ts).
 */
export const STRIPPED_HEADER = /assistant(?=[ \t]*(?:\r?\n|$))/y;

/** A call, or why the markup gave none. */
export type Attempt = ParsedCall | Problem;

export const isCall = (a: Attempt): a is ParsedCall => 'arguments' in a;

/** A blank inside a line (a carriage return counts: `\r\n` ends lines too). */
export const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\r';

/** A span from what one stretch of markup gave: its calls, and the problems of the rest. */
export function spanOf(start: number, end: number, attempts: readonly Attempt[], glue?: Span['glue']): Span {
  const problems = attempts.filter((a): a is Problem => !isCall(a));
  return { start, end, calls: attempts.filter(isCall), ...(problems.length ? { problems } : {}), ...(glue ? { glue } : {}) };
}

/** A named call: the tool it names, or the problem that no such tool is offered (or no name was written). */
export function named(resolve: NameResolver, rawName: string, args: Record<string, unknown>): Attempt {
  const name = resolve(rawName);
  if (name) return { name, arguments: args };
  return rawName.trim() ? { problem: 'unknown_tool', name: rawName.trim() } : { problem: 'unparsable' };
}

/**
 * Disjoint regions of the text, sorted by start: which region holds an index, in O(log n), so a
 * detector's checks cost the same however many regions the text has.
 */
export class Regions {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(sorted: Iterable<readonly [number, number]> = []) {
    for (const [s, e] of sorted) this.add(s, e);
  }

  /** Appends a region that starts at or after the end of the last one. */
  add(start: number, end: number): void {
    if (end <= start) return;
    this.starts.push(start);
    this.ends.push(end);
  }

  get size(): number {
    return this.starts.length;
  }

  /** Index of the last region starting at or before `i`, or -1. */
  private before(i: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= i) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  contains(i: number): boolean {
    const k = this.before(i);
    return k !== -1 && i < this.ends[k]!;
  }

  /** Whether any region overlaps [start, end). */
  overlaps(start: number, end: number): boolean {
    const k = this.before(end - 1);
    return k !== -1 && this.ends[k]! > start;
  }

  /** The last region that ends at or before `i`, if any. */
  lastBefore(i: number): readonly [number, number] | undefined {
    let k = this.before(i);
    if (k !== -1 && this.ends[k]! > i) k--;
    return k === -1 ? undefined : [this.starts[k]!, this.ends[k]!];
  }

  /** The region that ends exactly at `i`, if any. */
  endsAt(i: number): boolean {
    const k = this.before(i - 1);
    return k !== -1 && this.ends[k] === i;
  }

  /** The region that starts exactly at `i`, if any. */
  startsAt(i: number): boolean {
    const k = this.before(i);
    return k !== -1 && this.starts[k] === i;
  }
}

/** A call's head and the end token closing it, when one stands before the next head. */
export interface HeadAndEnd {
  head: RegExpExecArray;
  /** Where the call's body starts: right after its head. */
  from: number;
  end: RegExpExecArray | undefined;
  /** Where the body stops: at its end token, else at the next head or the reply's end. */
  to: number;
  /** Where the call's span stops: after its end token, else where the body stops. */
  stop: number;
}

/** Pairs each call head with the first end token after it that comes before the next head. The end tokens are walked once, so a reply of many unclosed calls is read in one pass. */
export function pairHeadsWithEnds(heads: readonly RegExpExecArray[], ends: readonly RegExpExecArray[], length: number): HeadAndEnd[] {
  let e = 0;
  return heads.map((head, n) => {
    const from = head.index + head[0].length;
    const next = heads[n + 1]?.index ?? length;
    while (e < ends.length && ends[e]!.index < from) e++;
    const end = ends[e] !== undefined && ends[e]!.index < next ? ends[e] : undefined;
    return { head, from, end, to: end ? end.index : next, stop: end ? end.index + end[0].length : next };
  });
}

/** All matches of a global regex, with their index. */
export function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  let m: RegExpExecArray | null;
  while ((m = global.exec(text))) {
    yield m;
    if (m[0].length === 0) global.lastIndex++;
  }
}
