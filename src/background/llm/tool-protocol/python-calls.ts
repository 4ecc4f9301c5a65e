/**
 * Calls written in Python's syntax (`name(key=value, …)`, `name({…})`, `name(**{…})`), and Python literals read as JSON,
 * for every format that writes them: pythonic lists, Llama's python tag, Gemma's tool code, ReAct actions as calls.
 */
import { withTripleQuotesAsJson, withTuplesAsLists } from './python-literals';
import { isRecord, matchBracket, parseLooseJson, positionalKey, splitTopLevel, type Json } from './values';

/** One word standing for a string value, unquoted: letters, digits, `.`, `_`, `-`, `@`, `+` (an address, `johndoe@example.com`; literals such as `None` and numbers are read before). */
const BARE_WORD = /^\s*([A-Za-z0-9][\w.@+-]{0,200})\s*$/;

/** A Python call's name with Markdown's escaped underscores in it. */
const MARKDOWN_ESCAPED_NAME = /^\s*[A-Za-z_][\w.-]*\\_(?:[\w.-]|\\_)*\s*\(/;

/** A Python literal as JSON: JSON's own, Python's quotes and constants, and tuples as lists. */
export function pythonLiteral(text: string): Json | undefined {
  const json = parseLooseJson(text);
  if (json !== undefined || !text.includes('(')) return json;
  const lists = withTuplesAsLists(text);
  return lists === undefined ? undefined : parseLooseJson(lists);
}

/**
 * Parses `name(a=1, b='x')` keyword arguments as Python literals (literals before them are positional, under
 * `positionalKey`), or `name({…})`. Undefined when malformed.
 */
export function parsePythonCall(text: string): { name: string; arguments: Record<string, Json> } | undefined {
  // A call whose name a Markdown renderer escaped (`calculate\_area(…)`, Mistral's API models) is escaped throughout.
  if (MARKDOWN_ESCAPED_NAME.test(text)) return parsePythonCall(text.replace(/\\_/g, '_'));
  // Triple-quoted strings, read whole first (a file's content in a code edit).
  if (text.includes("'''") || text.includes('"""')) {
    const rewritten = withTripleQuotesAsJson(text);
    if (rewritten !== text) return parsePythonCall(rewritten);
  }
  const head = text.match(/^\s*([A-Za-z_][\w.-]*)\s*\(/);
  if (!head) return undefined;
  const open = head[0].length - 1;
  const end = matchBracket(text, open);
  if (end === -1 || text.slice(end).trim()) return undefined;
  const inner = text.slice(open + 1, end - 1);
  // `name({"a": 1})`: the arguments as one JSON object (Qwen, small models).
  if (/^\s*\{/.test(inner)) {
    const object = pythonLiteral(inner);
    return isRecord(object) ? { name: head[1]!, arguments: object } : undefined;
  }
  const args: Record<string, Json> = {};
  let positional = 0;
  let keywords = false;
  for (const part of splitTopLevel(inner)) {
    if (!part.trim()) continue;
    // `**{…}`: a dict's entries as keywords, as Python passes them (small fine-tunes write every call so).
    const splat = /^\s*\*\*\s*(?=\{)/.exec(part);
    if (splat) {
      const entries = pythonLiteral(part.slice(splat[0].length));
      if (!isRecord(entries) || Object.keys(entries).some((k) => Object.hasOwn(args, k))) return undefined;
      Object.assign(args, entries);
      keywords = true;
      continue;
    }
    // `key=value`, or `key: value` as small Gemma models write it.
    const kv = part.match(/^\s*([A-Za-z_]\w*)\s*[=:]([\s\S]*)$/);
    if (!kv) {
      // A literal before any keyword: a positional argument (`convert(425.0, 'EUR', 'USD')`), named later by the schema.
      const literal = keywords ? undefined : pythonLiteral(part);
      if (literal === undefined) return undefined;
      args[positionalKey(positional++)] = literal;
      continue;
    }
    // A bare word where a string belongs (`city=Antwerp`): the word.
    const literal = pythonLiteral(kv[2]!);
    const value = literal !== undefined ? literal : BARE_WORD.exec(kv[2]!)?.[1];
    // A keyword given twice (`params={…}, params={…}`, Llama 3.2 1B) is Python's syntax error: which one was meant is a guess.
    if (value === undefined || Object.hasOwn(args, kv[1]!)) return undefined;
    args[kv[1]!] = value;
    keywords = true;
  }
  return { name: head[1]!, arguments: args };
}
