/**
 * Arguments shaped by the tool's JSON Schema. Text read from markup (`XmlNode`) becomes what the
 * schema asks for: a string stays the raw text (never read as JSON), numbers and booleans are
 * coerced, elements written several times become a list, nested elements an object. Without a
 * schema, values follow their structure: elements become objects (repeated ones lists), text stays
 * text unless it is a JSON object or list. JSON values are coerced the same way where they differ
 * from the schema ("3" for an integer).
 */
import type { JsonSchema } from './tools';
import { isRecord, parseLooseJson } from './values';
import { leafText, MAX_XML_DEPTH, readChildren, XmlNode, type XmlChildren } from './xml-tree';

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

/** Type names some tool definitions use beside JSON Schema's own (Python's and C's). */
const ALIASES: Record<string, Kind> = { float: 'number', double: 'number', int: 'integer', bool: 'boolean', str: 'string', dict: 'object', list: 'array' };

const KINDS: ReadonlySet<string> = new Set<Kind>(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);

/** Whether the schema names a type that is neither JSON Schema's nor a known alias (`other_type`). */
const namesUnknownType = (schema: JsonSchema | undefined): boolean => typeof schema?.type === 'string' && !KINDS.has(ALIASES[schema.type] ?? schema.type);

/** The kinds a schema allows (from `type`, `anyOf`/`oneOf`, or its `enum`); empty when it says nothing. */
function kindsOf(schema: JsonSchema | undefined): Set<Kind> {
  const kinds = new Set<Kind>();
  if (!schema || typeof schema !== 'object') return kinds;
  const add = (t: unknown) => {
    if (typeof t !== 'string') return;
    const kind = ALIASES[t] ?? t;
    if (KINDS.has(kind)) kinds.add(kind as Kind);
  };
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else add(schema.type);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const k of kindsOf(branch)) kinds.add(k);
  if (!kinds.size && schema.properties) kinds.add('object');
  if (!kinds.size && schema.items) kinds.add('array');
  if (!kinds.size && Array.isArray(schema.enum)) for (const v of schema.enum) kinds.add(typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string');
  return kinds;
}

/** The branch of a union that describes objects or lists, for their properties or items. */
function branch(schema: JsonSchema | undefined, kind: 'object' | 'array'): JsonSchema | undefined {
  if (!schema) return undefined;
  if (kind === 'object' ? schema.properties || additionalSchema(schema) : schema.items) return schema;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((b) => kindsOf(b).has(kind));
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // JSON written escaped, as inside a string (`[{\"id\": \"1\"}]`, seen from GLM-4.6): read the string, then its JSON.
    if (!/^[[{]\s*[[{]?\s*\\"/.test(text)) return undefined;
    try {
      const unescaped: unknown = JSON.parse(`"${text}"`);
      return typeof unescaped === 'string' ? (JSON.parse(unescaped) as unknown) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** The words of JSON Schema itself: a value made only of them, with a type, is a schema copied from the prompt. */
const SCHEMA_WORDS = new Set(['type', 'items', 'properties', 'required', 'description', 'enum', 'default', 'format', 'title', 'additionalProperties', '$schema']);

/** A value that is a piece of JSON Schema (`{"type": "array", "items": {…}, "description": …}`), not a value the schema describes. */
function isSchemaCopy(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const type = (value as Record<string, unknown>).type;
  return keys.length > 1 && typeof type === 'string' && KINDS.has(ALIASES[type] ?? type) && keys.every((k) => SCHEMA_WORDS.has(k));
}

/** Whether a value read as JSON can be none of the kinds its schema allows; text kinds (strings) take anything. */
function misfits(value: unknown, schema: JsonSchema | undefined, depth: number): boolean {
  if (isSchemaCopy(value) && !hasProperty(schema, 'type')) return true;
  const kinds = kindsOf(schema);
  if (typeof value !== 'object' || value === null || !kinds.size || kinds.has('string')) return false;
  if (!kinds.has(Array.isArray(value) ? 'array' : 'object')) return true;
  return depth === 0 && Array.isArray(value) && value.some((item) => misfits(item, branch(schema, 'array')?.items, depth + 1));
}

const hasProperty = (schema: JsonSchema | undefined, key: string) => Object.hasOwn(branch(schema, 'object')?.properties ?? {}, key);

/**
 * Whether fitted arguments cannot be what the tool's schema asks for, so the call does not fit its tool and is not run
 * on a guess: an object or a list where the schema asks for a number, a boolean or a list of them (`height={'height':
 * 6.0, 'units': 'feet'}`, Llama 3.2 1B), or the schema itself copied as the arguments or a value (Gemma 3 1B). Text
 * parameters take any value. Names the tool does not declare are left to the tool's own check: readers of real outputs
 * label such calls as written (`{"foo": "bar"}`, gpt-oss in Groq's failed generations).
 */
export function misfitArguments(args: Record<string, unknown>, schema: JsonSchema | undefined): boolean {
  const props = branch(schema, 'object')?.properties;
  if (!props) return false;
  if (isSchemaCopy(args) && !Object.hasOwn(props, 'type')) return true;
  return Object.keys(args).some((key) => Object.hasOwn(props, key) && misfits(args[key], props[key], 0));
}

export function fitArguments(args: Record<string, unknown>, schema: JsonSchema | undefined): Record<string, unknown> {
  const fitted = fit(args, branch(schema, 'object') ?? schema, 0);
  return isRecord(fitted) ? (fitted as Record<string, unknown>) : args;
}

function fit(value: unknown, schema: JsonSchema | undefined, depth: number): unknown {
  if (Array.isArray(value)) {
    const items = branch(schema, 'array')?.items;
    return value.map((v) => fit(v, items ?? (kindsOf(schema).has('array') ? undefined : schema), depth + 1));
  }
  if (value instanceof XmlNode) return fitText(value, schema, depth);
  const kinds = kindsOf(schema);
  if (typeof value === 'string') return fitString(value, schema, kinds, depth);
  if ((typeof value === 'number' || typeof value === 'boolean') && kinds.size && !kinds.has(typeof value as Kind) && !(typeof value === 'number' && kinds.has('integer'))) {
    return kinds.has('string') ? String(value) : value;
  }
  if (typeof value === 'object' && value !== null) {
    const objectSchema = branch(schema, 'object');
    const props = objectSchema?.properties;
    const others = additionalSchema(objectSchema);
    const out: Record<string, unknown> = {};
    for (const [written, v] of Object.entries(value)) {
      const k = declaredKey(written, props);
      // A null for an argument the tool does not declare says nothing (FunctionGemma names every parameter it knows, `None` for those it does not use).
      if (v === null && depth === 0 && props && !Object.hasOwn(props, k)) continue;
      out[k] = fit(v, props && Object.hasOwn(props, k) ? props[k] : others, depth + 1);
    }
    return out;
  }
  return value;
}

/** A key as the schema declares it: one whose underscores a Markdown renderer escaped (`inner\\_thoughts`) is unescaped. */
function declaredKey(key: string, props: Record<string, JsonSchema> | undefined): string {
  if (!props || Object.hasOwn(props, key) || !key.includes('\\_')) return key;
  const unescaped = key.replace(/\\_/g, '_');
  return Object.hasOwn(props, unescaped) ? unescaped : key;
}

/** A JSON string where the schema asks for something else: a number, a boolean, or JSON in a string. */
function fitString(value: string, schema: JsonSchema | undefined, kinds: Set<Kind>, depth: number): unknown {
  if (!kinds.size || kinds.has('string')) return value;
  const text = value.trim();
  if ((kinds.has('number') || kinds.has('integer')) && NUMBER.test(text)) return Number(text);
  if (kinds.has('boolean') && /^(true|false)$/i.test(text)) return text.toLowerCase() === 'true';
  // Python's `None` too, as markup written by models trained on Python literals gives it (Step-3's `<steptml:parameter>`).
  if (kinds.has('null') && (text === 'null' || text === 'None')) return null;
  if ((kinds.has('object') || kinds.has('array')) && /^[[{]/.test(text)) {
    const parsed = parseJson(text);
    if (parsed !== undefined && depth < MAX_XML_DEPTH) return fit(parsed, schema, depth + 1);
  }
  return value;
}

/** Text from markup, as the schema asks, or by its structure without one. */
function fitText(node: XmlNode, schema: JsonSchema | undefined, depth: number): unknown {
  const kinds = kindsOf(schema);
  const structured = kinds.has('object') || kinds.has('array') || !kinds.size;
  const objectSchema = branch(schema, 'object');
  const children = structured && depth < MAX_XML_DEPTH ? readChildren(node.raw, siblingNames(objectSchema)) : undefined;
  if (children) {
    if (kinds.has('array') && !(kinds.has('object') && hasAll(objectSchema, children))) {
      const items = branch(schema, 'array')?.items;
      const itemObject = branch(items, 'object');
      // `<file><path>…</path></file>` where a list of files is asked for: one file.
      if (hasAll(itemObject, children)) return [objectOf(children, itemObject, depth)];
      return [...children.values()].flat().map((child) => fitText(child, items, depth + 1));
    }
    return objectOf(children, objectSchema, depth);
  }
  const text = leafText(node.raw, node.layout);
  if (!kinds.size) {
    // By structure: JSON objects and lists are read; other text stays text.
    const trimmed = text.trim();
    if (/^[[{]/.test(trimmed) && /[\]}]$/.test(trimmed)) {
      // Under a type of its own naming, a Python literal too, as vLLM's and SGLang's Qwen3-Coder parsers read it.
      const parsed = parseJson(trimmed) ?? (namesUnknownType(schema) ? parseLooseJson(trimmed) : undefined);
      if (parsed !== undefined) return parsed;
    }
    return text;
  }
  if (kinds.has('string') && !kinds.has('array') && !kinds.has('object')) {
    const fitted = fitString(text, schema, new Set([...kinds].filter((k) => k !== 'string')), depth);
    // A string that may also be a number keeps its text unless it reads as one exactly.
    return kinds.size > 1 && typeof fitted !== 'string' ? fitted : text;
  }
  const fitted = fitString(text, schema, kinds, depth);
  if (kinds.has('array') && !Array.isArray(fitted)) {
    // One element where a list is asked for: a list of one.
    const items = branch(schema, 'array')?.items;
    return text === '' ? [] : [fitText(node, items, depth + 1)];
  }
  return fitted;
}

/** Whether the schema names every element as one of its properties. */
function hasAll(schema: JsonSchema | undefined, children: XmlChildren): boolean {
  const props = schema?.properties;
  if (!props) return false;
  const keys = new Set(Object.keys(props).map((k) => k.toLowerCase()));
  return [...children.keys()].every((k) => keys.has(k));
}

function siblingNames(schema: JsonSchema | undefined): ReadonlySet<string> | undefined {
  return schema?.properties ? new Set(Object.keys(schema.properties).map((k) => k.toLowerCase())) : undefined;
}

/** The schema of an object's properties that it does not name (`additionalProperties` as a schema), if any. */
function additionalSchema(objectSchema: JsonSchema | undefined): JsonSchema | undefined {
  const others = objectSchema?.additionalProperties;
  return typeof others === 'object' && others !== null ? (others as JsonSchema) : undefined;
}

/** Elements as an object's properties, each shaped by its property's schema (or by `additionalProperties` where it names none). */
function objectOf(children: XmlChildren, objectSchema: JsonSchema | undefined, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = objectSchema?.properties;
  const others = additionalSchema(objectSchema);
  const byKey = new Map(Object.keys(props ?? {}).map((k) => [k.toLowerCase(), k]));
  for (const [key, nodes] of children) {
    const name = byKey.get(key) ?? key;
    const schema = props && Object.hasOwn(props, name) ? props[name] : others;
    out[name] = nodes.length === 1 ? fitText(nodes[0]!, schema, depth + 1) : fit(nodes, schema, depth + 1);
  }
  return out;
}
