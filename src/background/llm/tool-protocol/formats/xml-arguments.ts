/**
 * A call's arguments written as XML: Qwen3-Coder's `<parameter=p>` and invoke's `<parameter name="p">` values, elements
 * named by an attribute (`<arg name="…">`), one element per argument (MiniMax M3), and an invoke's JSON body.
 */
import { matchesOf, type ScanContext } from '../scan';
import { isRecord, parseLooseJson } from '../values';
import { readChildren, XmlNode } from '../xml-tree';

/** A parameter's closing tag misspelled, ending its value. */
const MISSPELLED_CLOSER = /<\/par[a-z]{0,12}>\s*$/i;

/**
 * `<parameter=p>v</parameter>` (Qwen3-Coder) or `<parameter name="p">v</parameter>` (invoke). A
 * parameter left open at the very end of the reply was cut off: undefined.
 */
export function parametersOf(body: string, atEnd: boolean): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const m of matchesOf(/<(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?parameter(?:=([^>\s]{1,100})|\s+name\s*=\s*["'“”]([^"'“”]+)["'“”][^<>]*?)\s*>([\s\S]*?)(<\/(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?parameter>|(?=<(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?parameter[\s=])|(?=<\/function>|<\/(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?invoke>)|$)/gi, body)) {
    if (!m[4] && atEnd && m.index + m[0].length === body.length) return undefined;
    // Its closing tag misspelled (`</parametr>`), the next parameter or the function's end after it: the value ends before it.
    args[(m[1] ?? m[2])!] = new XmlNode(m[4] ? m[3]! : m[3]!.replace(MISSPELLED_CLOSER, ''), 'blanks');
  }
  return args;
}

/** An argument element named by its attribute (`<arg name="skill" type="string">Python</arg>`, BFCL's XML prompt format). */
const NAMED_ARGUMENT = /<(arg|argument|param|parameter)\s+name\s*=\s*["']([^"'<>]{1,100})["'][^<>]*>([\s\S]*?)<\/\1\s*>/gi;
const NAMED_ARGUMENT_START = /^\s*<(?:arg|argument|param|parameter)\s+name\s*=/i;

/** Arguments written only as elements named by their attribute, each value text the schema types; undefined otherwise. */
function namedArgumentElements(body: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  let at = 0;
  for (const m of matchesOf(NAMED_ARGUMENT, body)) {
    if (body.slice(at, m.index).trim()) return undefined;
    args[m[2]!] = new XmlNode(m[3]!);
    at = m.index + m[0].length;
  }
  return at && !body.slice(at).trim() ? args : undefined;
}

/**
 * MiniMax M3: one element per argument (`<city>Beijing</city>`), objects as nested elements, lists
 * as `<item>`s or as the same element written again. The elements stay markup here; the schema
 * types them (`fit.ts`). Undefined when the body is not only elements (one left open: cut off).
 */
export function elementArguments(ctx: ScanContext, body: string, toolName: string): Record<string, unknown> | undefined {
  if (NAMED_ARGUMENT_START.test(body)) return namedArgumentElements(body);
  const name = ctx.resolve(toolName);
  const props = name ? ctx.tools.schemaOf(name)?.properties : undefined;
  const byKey = new Map(Object.keys(props ?? {}).map((k) => [k.toLowerCase(), k]));
  const children = readChildren(body, props ? new Set(byKey.keys()) : undefined);
  if (!children) return undefined;
  const args: Record<string, unknown> = {};
  for (const [key, nodes] of children) args[byKey.get(key) ?? key] = nodes.length === 1 ? nodes[0] : nodes;
  return args;
}

/** Elements read as an offered tool's arguments: each a parameter its schema declares, where it has one; undefined otherwise. */
export function declaredElements(ctx: ScanContext, body: string, toolName: string): Record<string, unknown> | undefined {
  const name = ctx.resolve(toolName);
  if (!name || !/^\s*</.test(body)) return undefined;
  const props = ctx.tools.schemaOf(name)?.properties;
  const args = elementArguments(ctx, body, toolName);
  return args && Object.keys(args).length && (!props || Object.keys(args).every((k) => Object.hasOwn(props, k))) ? args : undefined;
}

export const PARAMETER_TAG = /<(?:[\w-]{1,20}:|[｜|]{0,2}DSML[｜|]{0,2} ?)?parameter[\s=]/i;

/** An invoke whose body is one JSON object instead of parameter elements (DeepSeek V3.2 writes both): its arguments. */
export function jsonBody(body: string): Record<string, unknown> | undefined {
  const trimmed = body.trim();
  if (!trimmed.startsWith('{')) return undefined;
  const json = parseLooseJson(trimmed);
  return isRecord(json) ? (json as Record<string, unknown>) : undefined;
}


/**
 * A body on lines of its own between its markers (`<tool_calls>⏎…⏎</tool_calls>`): a block the model wrote,
 * which words may precede or follow on the markers' lines. A sentence quoting markup keeps it on one line.
 */
export function isBlock(body: string): boolean {
  return /^[ \t]*\n/.test(body) && /\n[ \t]*$/.test(body);
}
