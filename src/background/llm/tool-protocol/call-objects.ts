/**
 * Calls read from JSON values, in every shape models write them: `{name, arguments}` and its many spellings, OpenAI's
 * `tool_calls`, lists of calls or of strings holding calls, `[name, arguments]` pairs; and how a call's arguments are
 * named by the tool's schema (wrapped once more, positional, words for a single-input tool).
 */
import { fitArguments, misfitArguments } from './fit';
import { named, isCall, type Attempt, type NameResolver, type ParsedCall, type Problem, type SchemaOf, type Span } from './scan';
import { argumentsObject, isRecord, parseLooseJson, positionalKey, splitTopLevel, type Json } from './values';
import { parsePythonCall } from './python-calls';

const PAIR_NAME = /^(?:parameter|param|arg|argument)?_?name$/i;
const PAIR_VALUE = /^(?:parameter|param|arg|argument)?_?value$/i;

/** A list whose every item is a name and a value, and nothing else: those as an object; undefined otherwise. */
function namedValues(items: readonly Json[]): Record<string, unknown> | undefined {
  if (!items.length) return undefined;
  const out: Record<string, unknown> = {};
  for (const item of items) {
    if (!isRecord(item) || Object.keys(item).length !== 2) return undefined;
    const nameKey = Object.keys(item).find((k) => PAIR_NAME.test(k));
    const valueKey = Object.keys(item).find((k) => PAIR_VALUE.test(k));
    const name = nameKey === undefined ? undefined : item[nameKey];
    if (typeof name !== 'string' || valueKey === undefined) return undefined;
    out[name] = item[valueKey];
  }
  return out;
}

/** Arguments may arrive as an object, or as a JSON string of one (OpenAI style). */
function argumentsOf(value: Json | undefined): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  // The arguments as a list of name and value pairs (`[{"parameterName": "query", "parameterValue": "Beijing"}]`, a prompt's own shape).
  const pairs = Array.isArray(value) ? namedValues(value) : undefined;
  if (pairs) return pairs;
  // The arguments object in a list of its own (`"parameters": [{"city": "Tokyo"}]`, Llama 3.2 3B on Ollama).
  if (Array.isArray(value) && value.length === 1 && isRecord(value[0] ?? null)) return value[0] as Record<string, unknown>;
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

export const ARGUMENT_KEYS = ['arguments', 'parameters', 'args', 'params', 'input', 'inputs', 'tool_input', 'action_input', 'tool_arguments', 'tool_args'] as const;

/** The argument keys of LangChain's agents, whose value may be words for a single-input tool. */
const WORDS_KEYS: readonly string[] = ['tool_input', 'action_input'];

/** The parts of an HTTP request a call's arguments may be split into. */
const REQUEST_PARTS: readonly string[] = ['body', 'path_params', 'query_params'];

/** The keys arguments may be wrapped under once more: an arguments key, or the schema's own `properties` (LFM2 copies it). */
const WRAPPING_KEYS: readonly string[] = [...ARGUMENT_KEYS, 'properties'];

/**
 * Arguments wrapped once more under a key the tool does not declare, in any format (`name{"args": {…}}`, as a
 * `{tool, args}` prompt teaches, or LFM2's `name(properties={…})`): the inner object.
 */
export function unwrappedArguments(args: Record<string, unknown>, schema: ReturnType<SchemaOf>): Record<string, unknown> {
  const keys = Object.keys(args);
  // An HTTP request's parts, as a prompt describing tools as REST endpoints teaches (`{"name": t, "body": {…}, "path_params": {},
  // "query_params": {}}`, Hermes 2 Pro): together, the arguments, where the tool declares none of them.
  if (schema?.properties && keys.includes('body') && keys.every((k) => REQUEST_PARTS.includes(k) && !(k in schema.properties!) && isRecord((args[k] ?? null) as Json))) {
    return Object.assign({}, ...keys.map((k) => args[k] as Record<string, unknown>)) as Record<string, unknown>;
  }
  const written = keys.length === 1 ? args[keys[0]!] : undefined;
  // The wrapped arguments encoded as a string (`{"properties": "{'query': '…'}"}`, Llama 3.2 1B after its python tag): the object it holds.
  const inner = typeof written === 'string' && /^\s*\{/.test(written) ? (argumentsObject(written) ?? written) : written;
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

/**
 * The keys a call's name is read from, in the order they are tried (`_name`: TGI's grammar, the arguments beside it;
 * `request`: Langroid's tool messages, the arguments beside it).
 */
export const NAME_KEYS = ['name', 'tool', 'tool_name', 'function', 'function_name', 'action', 'api_name', 'func', '_name', 'request'];

/** A `type` value that says the object is a call: `function`, `tool_call`, `call_function`, `tool_use`. */
const CALL_TYPE = /^(?:call[_ ]?)?(?:function|tool)(?:[_ ]?(?:call|use))?$/i;

/** Name keys that are an argument like any other where another key names the call (a `request` beside `"tool"`). */
const LAST_RESORT_NAME_KEYS = ['request'];

/** Keys of an object that wraps one call (`functionCall`: Gemini's parts, `{"functionCall": {"name", "args"}}`). */
const ENVELOPE_KEYS = ['tool', 'tool_call', 'function_call', 'call', 'functionCall'];

/** Keys beside a call that hold the model's reasoning about it: AutoGPT's `thoughts` (`text`, `plan`, `speak` in it), a JSON agent's `thought`. */
const REASONING_KEYS = ['thoughts', 'thought', 'reasoning', 'plan', 'criticism', 'speak', 'explanation', 'analysis'];

/**
 * The call an agent's step object holds beside its reasoning, `{"thoughts": {…}, "command": {"name": …, "args": {…}}}`
 * (AutoGPT's prompt): the one envelope key (or `command`, `action`) whose value is an object naming a tool, where every
 * other key is reasoning.
 */
function commandOf(value: Record<string, Json>): Record<string, Json> | undefined {
  const keys = Object.keys(value);
  const envelope = keys.filter((k) => (ENVELOPE_KEYS.includes(k) || k === 'command' || k === 'action') && isRecord(value[k] ?? null));
  if (envelope.length !== 1 || keys.length < 2 || !keys.every((k) => k === envelope[0] || REASONING_KEYS.includes(k))) return undefined;
  const inner = value[envelope[0]!] as Record<string, Json>;
  // An empty name (`"command": {"name": "", "args": {}}`) is the step saying it does nothing.
  return typeof inner.name === 'string' && inner.name.trim() ? inner : undefined;
}


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

/**
 * The object with its call keys written plainly (blanks around them, a sigil before them as in Granite's `$function`, and
 * capitals dropped) where that names no key already there.
 */
function plainKeys(value: Record<string, Json>): Record<string, Json> {
  const plain = (k: string) => {
    const bare = k.trim().replace(/^\$/, '');
    // In camel case too, as a prompt's own shape may ask (`functionName`).
    const canonical = STRUCTURAL_KEYS.get(bare.toLowerCase()) ?? STRUCTURAL_KEYS.get(bare.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
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
  const commanded = commandOf(value);
  if (commanded) return attemptFromObject(commanded, resolve, schemaOf);
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
  // A call's own id (`{"id": "4", "function": "get_current_time"}`, Gemma 3's function_call fences), or the name its result
  // is kept under for later calls (`"output": "random_city"`, Hermes Function-Calling's prompt), is no argument where the
  // tool declares none so named.
  const schema = schemaOf?.(name);
  const ownId = (k: string) => (k === 'id' || k === 'output') && schema?.properties !== undefined && !Object.hasOwn(schema.properties, k);
  const nameKey = NAME_KEYS.find((k) => source[k] === rawName);
  const isNameKey = (k: string) => NAME_KEYS.includes(k) && (!LAST_RESORT_NAME_KEYS.includes(k) || k === nameKey);
  // A `type` saying the object is a call (`"type": "call_function"`, an app's own envelope) is no argument where the tool declares none so named.
  const ownType = (k: string, v: Json) => k === 'type' && (v === 'function' || (typeof v === 'string' && CALL_TYPE.test(v) && !(schema?.properties && Object.hasOwn(schema.properties, 'type'))));
  const args = Object.fromEntries(Object.entries(source).filter(([k, v]) => !isNameKey(k) && !ownType(k, v) && !ownId(k)));
  if (schemaOf && undeclaredWrapper(args, schema)) return { problem: 'unparsable', name };
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
 * Attempts from a JSON value that is a call, an array of calls (or of strings holding calls), an OpenAI-style
 * `{"tool_calls": [...]}` or a `{"calls": [...]}`; undefined unless every item is call-shaped.
 */
export function attemptsFromJson(value: Json | undefined, resolve: NameResolver, schemaOf?: SchemaOf): Attempt[] | undefined {
  if (value === undefined) return undefined;
  if (isRecord(value) && Array.isArray(value.tool_calls)) return attemptsFromJson(value.tool_calls, resolve, schemaOf);
  // `{"calls": [...]}` or `{"function_calls": [...]}` as its only key: a structured-output contract's list of calls (phi-4,
  // Granite 4, Ministral, Reka), or Granite 3's on watsonx.
  for (const key of ['calls', 'function_calls']) {
    const list = isRecord(value) && Object.keys(value).length === 1 ? value[key] : undefined;
    if (Array.isArray(list)) return attemptsFromJson(list, resolve, schemaOf);
  }
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

/** A span's calls with their positional arguments named by the schema; a call whose cannot be is an `unparsable` failure. */
export function withPositionalNamed(span: Span, schemaOf: SchemaOf): Span {
  if (!span.calls.some((c) => positionalKey(0) in c.arguments)) return span;
  const calls: ParsedCall[] = [];
  const problems: Problem[] = [...(span.problems ?? [])];
  for (const call of span.calls) {
    const args = positionalArguments(call.arguments, schemaOf(call.name));
    if (args) calls.push({ name: call.name, arguments: args as ParsedCall['arguments'] });
    else problems.push({ problem: 'unparsable', name: call.name });
  }
  return { ...span, calls, ...(problems.length ? { problems } : {}) };
}

/** A span's calls with their arguments shaped by the schema; a call whose arguments cannot fit it is an `unparsable` failure. */
export function withArgumentsFitted(span: Span, schemaOf: SchemaOf): Span {
  const calls: ParsedCall[] = [];
  const problems: Problem[] = [...(span.problems ?? [])];
  for (const call of span.calls) {
    const schema = schemaOf(call.name);
    const args = fitArguments(unwrappedArguments(call.arguments, schema), schema);
    if (!misfitArguments(args, schema)) calls.push({ name: call.name, arguments: args });
    else problems.push({ problem: 'unparsable', name: call.name });
  }
  return { ...span, calls, ...(problems.length ? { problems } : {}) };
}
