import type { CallFailure } from './failures';
import type { Fence } from './formats/fenced';
import type { ToolTable } from './tools';
import { parseLooseJson, parsePythonCall, positionalKey, splitTopLevel, type Json } from './values';

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
}

export type Detector = (ctx: ScanContext) => Span[];

/**
 * What belongs to a call just read though it reads as nothing: a call wrapper's closing tag after a call whose
 * opening the server stripped (a bare call, `<function=…>`; Gemma 4's `<tool_call|>`), an empty special token (`<|>`, Letta's local models),
 * or closing brackets written once too often at the end of the call's line (`{…}}}`).
 */
export const STRAY_CLOSER = /^\s*(?:<\/(?:tool_call|tool_calls|function_call|toolcall)\s*>|<\|>|<tool_call\|>)|^[ \t]*[}\]]{1,3}(?=[ \t]*(?:\r?\n|$))/i;

/** A call, or why the markup gave none. */
export type Attempt = ParsedCall | Problem;

export const isCall = (a: Attempt): a is ParsedCall => 'arguments' in a;

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

export const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'params', 'input', 'inputs', 'tool_input', 'action_input'] as const;

/** The argument keys of LangChain's agents, whose value may be words for a single-input tool. */
const WORDS_KEYS: readonly string[] = ['tool_input', 'action_input'];

/** The keys arguments may be wrapped under once more: an arguments key, or the schema's own `properties` (LFM2 copies it). */
const WRAPPING_KEYS: readonly string[] = [...ARGUMENT_KEYS, 'properties'];

/**
 * Arguments wrapped once more under a key the tool does not declare, in any format (`name{"args": {…}}`, as a
 * `{tool, args}` prompt teaches, or LFM2's `name(properties={…})`): the inner object.
 */
export function unwrappedArguments(args: Record<string, unknown>, schema: ReturnType<SchemaOf>): Record<string, unknown> {
  const keys = Object.keys(args);
  const inner = keys.length === 1 ? args[keys[0]!] : undefined;
  // Without a schema, `args` may be the tool's own parameter (Roo's `read_file`): kept as written.
  if (!schema?.properties || !WRAPPING_KEYS.includes(keys[0] ?? '') || !isRecord((inner ?? null) as Json)) return args;
  return keys[0]! in schema.properties ? args : (inner as Record<string, unknown>);
}
/**
 * A Python call's positional arguments named by the tool's schema: the first of its parameters in their declared order,
 * as Python binds them. Undefined when they cannot be named: no schema, more of them than it declares, or a parameter
 * also given by keyword.
 */
export function positionalArguments(args: Record<string, unknown>, schema: ReturnType<SchemaOf>): Record<string, unknown> | undefined {
  if (!(positionalKey(0) in args)) return args;
  const keyword = Object.keys(args).filter((k) => !k.startsWith('#'));
  const declared = Object.keys(schema?.properties ?? {});
  const named: Record<string, unknown> = {};
  for (let i = 0; positionalKey(i) in args; i++) {
    const parameter = declared[i];
    if (parameter === undefined || keyword.includes(parameter)) return undefined;
    named[parameter] = args[positionalKey(i)];
  }
  for (const k of keyword) named[k] = args[k];
  return named;
}

/**
 * A tool's input written as plain text rather than an object (`Action Input: weather in SF`, `<tool_input>foo</tool_input>`,
 * `"action_input": "2+2"`): LangChain's single-input tools take it whole. It is the tool's one parameter where the schema
 * declares exactly one; otherwise undefined, since which parameter it fills would be a guess. Text that opens like JSON
 * is never read so: it is broken JSON, not words.
 */
export function singleInput(text: string, schema: ReturnType<SchemaOf>): Record<string, unknown> | undefined {
  const value = text.trim();
  const declared = Object.keys(schema?.properties ?? {});
  if (declared.length !== 1 || !value || /^[[{]/.test(value)) return undefined;
  return { [declared[0]!]: value };
}

/** The keys a call's name is read from, in the order they are tried (`_name`: TGI's grammar, the arguments beside it). */
export const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'action', 'api_name', 'func', '_name'];

/** Keys of an object that wraps one call (`functionCall`: Gemini's parts, `{"functionCall": {"name", "args"}}`). */
const ENVELOPE_KEYS = ['tool', 'tool_call', 'function_call', 'call', 'functionCall'];

/** An offered tool's argument schema, where the request gave one. */
export type SchemaOf = ToolTable['schemaOf'];

/**
 * `{"name": t, "options": {…}}`: one object beside the name under a key that is neither an arguments
 * key nor a parameter the tool declares. Whether that object is the arguments or one argument is a
 * guess, so the call is not run on it.
 */
function undeclaredWrapper(args: Record<string, Json>, schema: ReturnType<SchemaOf>): boolean {
  const keys = Object.keys(args);
  if (keys.length !== 1 || !isRecord(args[keys[0]!] ?? null)) return false;
  return !Object.keys(schema?.properties ?? {}).includes(keys[0]!);
}

/** The call's own keys by how a model may mistype them (`" arguments"`, `"Name"`). */
const STRUCTURAL_KEYS = new Map<string, string>([...ARGUMENT_KEYS, ...NAME_KEYS, ...ENVELOPE_KEYS, 'type'].map((k) => [k.toLowerCase(), k]));

/** The object with its call keys written plainly (blanks around them and capitals dropped) where that names no key already there. */
function plainKeys(value: Record<string, Json>): Record<string, Json> {
  const plain = (k: string) => {
    const canonical = STRUCTURAL_KEYS.get(k.trim().toLowerCase());
    return canonical !== undefined && canonical !== k && !(canonical in value) ? canonical : k;
  };
  const keys = Object.keys(value);
  if (keys.every((k) => plain(k) === k)) return value;
  return Object.fromEntries(keys.map((k) => [plain(k), value[k]!]));
}

/** The keys of a JSON Schema for an object, as tool definitions write their parameters. */
const SCHEMA_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties', '$schema', 'title', 'description']);

/**
 * A tool's definition echoed from the prompt (`{"name", "description", "parameters": {"type": "object", …}}`,
 * Qwen2.5-Coder repeating its `<tools>` block): a description beside parameters that are a schema. Not a call.
 */
function isToolDefinition(source: Record<string, Json>, params: Json): boolean {
  // Its parameters an object schema: `"type": "object"`, Python's `"dict"` as BFCL writes it, or properties alone.
  if (typeof source.description !== 'string' || !isRecord(params) || !(params.type === 'object' || params.type === 'dict' || isRecord(params.properties ?? null))) return false;
  return Object.keys(params).every((k) => SCHEMA_KEYS.has(k));
}

/** A JSON value that is one tool definition or a list of them (`{"type": "function", "function": {…}}`), as a prompt lists the tools. */
export function isToolDefinitions(value: Json | undefined): boolean {
  const items = Array.isArray(value) ? value : [value ?? null];
  return items.length > 0 && items.every((item) => {
    if (!isRecord(item)) return false;
    const fn = isRecord(item.function ?? null) ? (item.function as Record<string, Json>) : item;
    return 'parameters' in fn && isToolDefinition(fn, fn.parameters!);
  });
}

/** An object whose one key is an offered tool's name and whose value is an object: `{"list_directory": {"path": "."}}` (Apertus writes a list of them). */
function toolKeyed(value: Record<string, Json>, resolve: NameResolver): Attempt | undefined {
  const keys = Object.keys(value);
  if (keys.length !== 1 || STRUCTURAL_KEYS.has(keys[0]!.toLowerCase()) || !isRecord(value[keys[0]!] ?? null)) return undefined;
  const name = resolve(keys[0]!);
  return name ? { name, arguments: value[keys[0]!] as Record<string, unknown> } : undefined;
}

/**
 * One call from a JSON object in any of the shapes models use: {name, arguments|parameters|
 * args|input}, {function: {name, arguments}}, {type: "function", function: …}, {tool|tool_name,
 * tool_input}, {action, action_input}, and {tool: name, …} whose other keys are the arguments.
 * Undefined when the object is not call-shaped; a problem when it names no offered tool. With `schemaOf`, an object
 * whose arguments cannot be told apart (see `undeclaredWrapper`) is `unparsable`.
 */
export function attemptFromObject(raw: Json, resolve: NameResolver, schemaOf?: SchemaOf): Attempt | undefined {
  if (!isRecord(raw)) return undefined;
  const value = plainKeys(raw);
  // An envelope holding the call as its one value: `{"tool": {"name": …}}` (Granite), `{"tool_call": {…}}` (Qwen3).
  const keys = Object.keys(value);
  const inner = keys.length === 1 && ENVELOPE_KEYS.includes(keys[0]!) ? value[keys[0]!] : undefined;
  if (isRecord(inner ?? null) && typeof (inner as Record<string, Json>).name === 'string') return attemptFromObject(inner!, resolve, schemaOf);
  const fn = isRecord(value.function ?? null) ? (value.function as Record<string, Json>) : undefined;
  const rawName = fn?.name ?? fn?._name ?? NAME_KEYS.map((k) => value[k]).find((v) => v !== undefined && v !== null);
  if (typeof rawName !== 'string') return toolKeyed(value, resolve);
  // `{"function": {"name": t}, "parameters": {…}}`: the arguments beside a function object that has none (Llama 3 on Groq).
  const source = fn && !ARGUMENT_KEYS.some((k) => k in fn) && ARGUMENT_KEYS.some((k) => k in value) ? value : (fn ?? value);
  // A key that names arguments elsewhere is a parameter where the tool declares it so and its value is no object (`{"name": t, "input": "…"}`).
  const declared = schemaOf && resolve(rawName) ? schemaOf(resolve(rawName)!)?.properties : undefined;
  const argKey = ARGUMENT_KEYS.find((k) => k in source && !(declared && Object.hasOwn(declared, k) && !isRecord(source[k] ?? null)));
  if (argKey && isToolDefinition(source, source[argKey]!)) return undefined;
  if (argKey) {
    const input = source[argKey];
    // LangChain's tool input may be words (`"action_input": "2+2"`); OpenAI's `arguments` string is always JSON.
    const words = typeof input === 'string' && WORDS_KEYS.includes(argKey) && schemaOf && resolve(rawName);
    const args = argumentsOf(input) ?? (words ? singleInput(input, schemaOf(resolve(rawName)!)) : undefined);
    if (args) return named(resolve, rawName, args);
    return resolve(rawName) ? { problem: 'unparsable', name: rawName } : undefined;
  }
  // {"tool": "click", "id": 3}: the keys beside an offered tool's name are its arguments. An
  // object like that naming no tool is data, not a call.
  const name = resolve(rawName);
  if (!name) return undefined;
  const args = Object.fromEntries(Object.entries(source).filter(([k, v]) => !NAME_KEYS.includes(k) && !(k === 'type' && v === 'function')));
  if (schemaOf && undeclaredWrapper(args, schemaOf(name))) return { problem: 'unparsable', name };
  return { name, arguments: args };
}

/** One call from a JSON object, or undefined (not call-shaped, or an unknown tool). */
export function callFromObject(value: Json, resolve: NameResolver): ParsedCall | undefined {
  const attempt = attemptFromObject(value, resolve);
  return attempt && isCall(attempt) ? attempt : undefined;
}

/**
 * A list's item that is a string holding calls of offered tools: a call's JSON (`"{\"name\": …}"`, Llama 3.3 on watsonx)
 * or Python calls (`"area_circle(radius=15)"`, Mistral Large and Arctic in BFCL; several in one string, separated by
 * commas, Llama 3 8B). Undefined for any other string.
 */
function callsInString(item: string, resolve: NameResolver, schemaOf?: SchemaOf): ParsedCall[] | undefined {
  const text = item.trim();
  if (text.startsWith('{')) {
    const attempt = attemptFromObject(parseLooseJson(text) ?? null, resolve, schemaOf);
    return attempt && isCall(attempt) ? [attempt] : undefined;
  }
  if (!/^[A-Za-z_][\w.-]{0,99}\s*\(/.test(text)) return undefined;
  const calls: ParsedCall[] = [];
  for (const part of splitTopLevel(text)) {
    const call = parsePythonCall(part);
    const name = call && resolve(call.name);
    if (!call || !name) return undefined;
    calls.push({ name, arguments: call.arguments });
  }
  return calls.length ? calls : undefined;
}

/**
 * A list of `[name, arguments]` pairs, every name an offered tool's (`[('kinematics.calculate_time', {…}), …]`, Mistral's
 * API models in BFCL; `[["currency_exchange.convert", {…}], …]`, Qwen2.5): a call each. Undefined for any other list.
 */
function pairCalls(items: readonly Json[], resolve: NameResolver): ParsedCall[] | undefined {
  const calls: ParsedCall[] = [];
  for (const item of items) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !isRecord(item[1] ?? null)) return undefined;
    const name = resolve(item[0]);
    if (!name) return undefined;
    calls.push({ name, arguments: item[1] as Record<string, unknown> });
  }
  return calls;
}

/**
 * Attempts from a JSON value that is a call, an array of calls (or of strings holding calls), or an OpenAI-style
 * `{"tool_calls": [...]}`; undefined unless every item is call-shaped.
 */
export function attemptsFromJson(value: Json | undefined, resolve: NameResolver, schemaOf?: SchemaOf): Attempt[] | undefined {
  if (value === undefined) return undefined;
  if (isRecord(value) && Array.isArray(value.tool_calls)) return attemptsFromJson(value.tool_calls, resolve, schemaOf);
  const items = Array.isArray(value) ? value : [value];
  if (!items.length) return undefined;
  const pairs = pairCalls(items, resolve);
  if (pairs) return pairs;
  const attempts: Attempt[] = [];
  for (const item of items) {
    const read = Array.isArray(value) && typeof item === 'string' ? callsInString(item, resolve, schemaOf) : attemptFromObject(item, resolve, schemaOf);
    if (read === undefined) return undefined;
    attempts.push(...(Array.isArray(read) ? read : [read]));
  }
  return attempts;
}

/** Calls from a JSON value that is a call, or an array of calls; undefined unless all are calls of offered tools. */
export function callsFromJson(value: Json | undefined, resolve: NameResolver, schemaOf?: SchemaOf): ParsedCall[] | undefined {
  const attempts = attemptsFromJson(value, resolve, schemaOf);
  return attempts?.every(isCall) ? attempts : undefined;
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
