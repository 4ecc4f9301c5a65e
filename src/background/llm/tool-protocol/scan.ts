import type { Fence } from './formats/fenced';
import type { Json } from './values';

export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A stretch of the text that is tool-call markup, and the calls it holds. */
export interface Span {
  start: number;
  end: number;
  calls: ParsedCall[];
}

export type NameResolver = (raw: string) => string | undefined;

/** What a format detector sees: the text, known tool names, and regions it must not read. */
export interface ScanContext {
  text: string;
  resolve: NameResolver;
  /** The text's fenced code blocks, found once. */
  fences: readonly Fence[];
  /** Code fences and inline code: examples, not calls (only the fence detector looks inside). */
  isProtected(index: number): boolean;
}

export type Detector = (ctx: ScanContext) => Span[];

/** Tool names matched case-insensitively, also with `-` for `_` and a `functions.` prefix. */
export function createNameResolver(toolNames: readonly string[]): NameResolver {
  const byKey = new Map(toolNames.map((n) => [key(n), n]));
  return (raw) => byKey.get(key(raw.trim().replace(/^(functions?|tools?)\./i, '')));
}

function key(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Arguments may arrive as an object, or as a JSON string of one (OpenAI style). */
function argumentsOf(value: Json | undefined): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return isRecord(parsed as Json) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * One call from a JSON object in any of the shapes models use: {name, arguments|parameters|
 * args|input}, {function: {name, arguments}}, {tool|tool_name, tool_input}, {action,
 * action_input}. Unknown names give nothing.
 */
export function callFromObject(value: Json, resolve: NameResolver): ParsedCall | undefined {
  if (!isRecord(value)) return undefined;
  const fn = isRecord(value.function ?? null) ? (value.function as Record<string, Json>) : undefined;
  const rawName = fn?.name ?? value.name ?? value.tool ?? value.tool_name ?? value.action;
  if (typeof rawName !== 'string') return undefined;
  const name = resolve(rawName);
  if (!name) return undefined;
  const rawArgs = fn ? fn.arguments ?? fn.parameters : value.arguments ?? value.parameters ?? value.args ?? value.input ?? value.tool_input ?? value.action_input;
  const args = argumentsOf(rawArgs);
  return args ? { name, arguments: args } : undefined;
}

/** Calls from a JSON value that is a call, or an array of calls; undefined unless all are calls. */
export function callsFromJson(value: Json | undefined, resolve: NameResolver): ParsedCall[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : [value];
  if (!items.length) return undefined;
  const calls = items.map((item) => callFromObject(item, resolve));
  return calls.every((c): c is ParsedCall => c !== undefined) ? calls : undefined;
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

/** All matches of a global regex, with their index. */
export function* matchesOf(re: RegExp, text: string): Generator<RegExpExecArray> {
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  let m: RegExpExecArray | null;
  while ((m = global.exec(text))) {
    yield m;
    if (m[0].length === 0) global.lastIndex++;
  }
}
