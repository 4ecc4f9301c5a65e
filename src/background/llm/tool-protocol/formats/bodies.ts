/**
 * What the inside of a call wrapper may hold, read the same way whatever the wrapper: JSON (a
 * call, a list, an OpenAI `tool_calls` array), `<function=…>`, `<invoke>`, GLM's `<arg_key>`
 * pairs, Kimi's `<|tool_call_begin|>` sections, `{tool => …, args => {--key value}}`, or Python
 * calls. Each reader gives calls, problems (an unknown tool, unreadable or cut-off markup), or
 * nothing when the body is not call markup at all (prose about a tag).
 */
import { isCall, matchesOf, named, type Attempt, type ScanContext } from '../scan';
import { attemptsFromJson, isToolDefinitions } from '../call-objects';
import { argumentsObject, isRecord, jsonEnding, matchBracket, parseLooseJson, splitTopLevel, type Json } from '../values';
import { parsePythonCall } from '../python-calls';
import { XmlNode } from '../xml-tree';
import { namedFunctionsIn } from './attributed';
import { openingTag } from './xml-tags';
import { requiresArguments } from '../tools';

/** The name a broken JSON call gives, if one can be read. */
export function nameIn(body: string): string | undefined {
  return /"(?:name|tool|tool_name|function|function_name)"\s*:\s*"([^"\n]{1,80})"/.exec(body)?.[1];
}

/** An object holding only a tool's name. */
function nameOnly(value: Json | undefined): boolean {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && ['name', 'tool', 'tool_name', 'function', 'function_name'].includes(keys[0]!) && typeof value[keys[0]!] === 'string';
}

/**
 * A JSON body: a call, a list of calls, `{"tool_calls": […]}`, or several of these one after
 * another (one per line, or after `,` / `;`). `atEnd` when nothing follows it in the reply (so an
 * open value was cut off).
 */
function jsonBody(ctx: ScanContext, body: string, atEnd: boolean): Attempt[] | undefined {
  const found: Attempt[] = [];
  let start = body.search(/\S/);
  /** Whether the last value read held only a name. */
  let lastNameOnly = false;
  for (;;) {
    const close = matchBracket(body, start);
    const json = close === -1 ? body.slice(start) : body.slice(start, close);
    if (close === -1 && atEnd && jsonEnding(json) === 'cut') return [...found, { problem: 'cut_off', name: nameIn(json) }];
    const value = parseLooseJson(json);
    // Cut right after the name (`{"name": "x"`): the arguments never came, so nothing may run.
    if (close === -1 && atEnd && nameOnly(value)) return [...found, { problem: 'cut_off', name: nameIn(json) }];
    const attempts = attemptsFromJson(value, ctx.resolve, ctx.tools.schemaOf) ?? attemptsFromJson(undoubled(json), ctx.resolve, ctx.tools.schemaOf);
    if (!attempts) break;
    found.push(...attempts);
    lastNameOnly = nameOnly(value);
    if (close === -1) return found;
    start = close;
    while (start < body.length && /[\s,;]/.test(body[start]!)) start++;
    if (body[start] !== '{' && body[start] !== '[') return found;
  }
  // A name alone, then an object that is no call (`{"name": "move_file"}\n,{"path": …}`, Qwen3-0.6B): the call split in
  // two, never run without its arguments.
  if (lastNameOnly && body[start] === '{') {
    const split = found.pop()!;
    return [...found, { problem: 'unparsable', ...('name' in split && split.name ? { name: split.name } : {}) }];
  }
  if (found.length) return [...found, { problem: 'unparsable', name: nameIn(body.slice(start)) }];
  // Tool definitions echoed from the prompt (Qwen2.5-Coder repeating its `<tools>` block): no call tried.
  if (isToolDefinitions(parseLooseJson(body.slice(start)))) return undefined;
  const arrow = arrowCall(ctx, body.slice(start));
  if (arrow) return [arrow];
  const python = pythonCalls(ctx, body);
  if (python) return python;
  // `{"arguments": <args-dict>, "name": <function-name>}`: a template of the format, not a call.
  if (PLACEHOLDER.test(body.slice(start, start + 2000))) return undefined;
  return [{ problem: 'unparsable', name: nameIn(body.slice(start, start + 2000)) }];
}

/** A value written as a `<placeholder>`, as prompts describe the call format. */
const PLACEHOLDER = /[:[,]\s*<[a-z][\w-]{0,40}>\s*[,}\]]/i;

/** `{{…}}`: a call wrapped in one brace pair too many (Qwen2.5 writing its template's braces); the inner value. */
function undoubled(json: string): Json | undefined {
  const trimmed = json.trim();
  return trimmed.startsWith('{{') && trimmed.endsWith('}}') ? parseLooseJson(trimmed.slice(1, -1)) : undefined;
}

/** `[f(a=1), g()]` or `f(a=1)`: every part a call, or undefined. */
export function pythonCalls(ctx: ScanContext, body: string): Attempt[] | undefined {
  const trimmed = body.trim();
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  let parts = splitTopLevel(inner)
    .map((p) => p.trim())
    .filter(Boolean);
  // One call per line (OLMo): a part holding several lines of calls.
  if (parts.length === 1 && parts[0]!.includes('\n')) parts = parts[0]!.split(/\n+/).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return undefined;
  const attempts: Attempt[] = [];
  let read = 0;
  for (const part of parts) {
    const call = parsePythonCall(part);
    if (call) {
      read++;
      attempts.push(named(ctx.resolve, call.name, call.arguments));
      continue;
    }
    // A call whose arguments hold what JSON cannot (a bytes literal, `bad(x=b'z')`, OLMo 3): it fails, the calls beside it stand.
    const head = /^([A-Za-z_][\w.-]{0,99})\s*\(/.exec(part);
    if (!head || matchBracket(part, head[0].length - 1) !== part.length) return undefined;
    attempts.push({ problem: ctx.resolve(head[1]!) ? 'unparsable' : 'unknown_tool', name: head[1] });
  }
  return read ? attempts : undefined;
}

/** `{tool => "read_file", args => {--path "a.ts" --limit 20}}`, or `args => {…JSON…}`. */
function arrowCall(ctx: ScanContext, body: string): Attempt | undefined {
  const head = /^\{\s*tool\s*=>\s*["']?([\w.-]+)["']?\s*,?\s*(?:args\s*=>\s*)?/.exec(body);
  if (!head) return undefined;
  let i = head[0].length;
  if (body[i] !== '{') return named(ctx.resolve, head[1]!, {});
  const close = matchBracket(body, i);
  const inner = body.slice(i + 1, close === -1 ? body.length : close - 1);
  if (!/^\s*--/.test(inner)) {
    const json = parseLooseJson(body.slice(i, close === -1 ? undefined : close));
    return isRecord(json) ? named(ctx.resolve, head[1]!, json) : { problem: 'unparsable', name: head[1] };
  }
  const args: Record<string, unknown> = {};
  i = 0;
  const FLAG = /\s*--([\w.-]+)\s*/y;
  for (;;) {
    FLAG.lastIndex = i;
    const flag = FLAG.exec(inner);
    if (!flag) break;
    i = FLAG.lastIndex;
    const quote = inner[i];
    let raw: string;
    if (quote === '"' || quote === "'") {
      let j = i + 1;
      while (j < inner.length && inner[j] !== quote) j += inner[j] === '\\' ? 2 : 1;
      if (j >= inner.length) return { problem: close === -1 ? 'cut_off' : 'unparsable', name: head[1] };
      raw = inner.slice(i, j + 1);
      i = j + 1;
    } else {
      let j = i;
      while (j < inner.length && inner[j] !== '\n' && !inner.startsWith(' --', j)) j++;
      raw = inner.slice(i, j).trim();
      i = j;
    }
    const value = parseLooseJson(raw);
    args[flag[1]!] = value === undefined ? raw : value;
  }
  if (inner.slice(i).trim()) return { problem: 'unparsable', name: head[1] };
  return named(ctx.resolve, head[1]!, args);
}

/** GLM-4.5: `name` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs (xing4: `<param_key>`/`<param_value>`). */
function glmCall(ctx: ScanContext, body: string, atEnd: boolean): Attempt | undefined {
  // The newlines may arrive written out (`name\\n<arg_key>`), as GLM-4.6 sometimes writes them.
  const head = /^\s*([\w.-]+)(?:\s|\\n)*(?=<(?:longcat_arg|arg|param)_key>|$)/.exec(body);
  if (!head) return undefined;
  const args: Record<string, unknown> = {};
  let cut = false;
  const pairs = body.slice(head[0].length);
  let read = 0;
  // LongCat writes the same pairs as `<longcat_arg_key>`/`<longcat_arg_value>`, xing4 as `<param_key>`/`<param_value>`.
  for (const m of matchesOf(/<(longcat_arg|arg|param)_key>([\s\S]*?)<\/\1_key>(?:\s|\\n)*<\1_value>([\s\S]*?)(<\/\1_value>|$)/g, pairs)) {
    if (!m[4]) cut = atEnd;
    args[m[2]!.trim()] = new XmlNode(m[3]!, 'none');
    read = m.index + m[0].length;
  }
  // The reply ended after a key whose value never came (`<arg_key>maxResults`): cut off too.
  if (atEnd && /<(?:longcat_arg|arg|param)_key>/.test(pairs.slice(read))) cut = true;
  if (cut) return { problem: 'cut_off', name: head[1] };
  return named(ctx.resolve, head[1]!, args);
}

/** Kimi K2: `<|tool_call_begin|>functions.name:0<|tool_call_argument_begin|>{…}<|tool_call_end|>`, repeated. */
function kimiCalls(ctx: ScanContext, body: string, atEnd: boolean): Attempt[] | undefined {
  const attempts: Attempt[] = [];
  // The argument token may be missing (goose's toolshim sees local models drop it): the JSON follows the id.
  for (const m of matchesOf(/<\|tool_call_begin\|>\s*([\w.-]+)(?::\d+)?\s*(?:<\|tool_call_argument_begin\|>)?([\s\S]*?)(<\|tool_call_end\|>|(?=<\|tool_call_begin\|>)|$)/g, body)) {
    const json = m[2]!.trim();
    // Cut inside the arguments, or before they began (`functions.name:0` ending the reply).
    if (!m[3] && atEnd && (json === '' || jsonEnding(json) === 'cut')) {
      attempts.push({ problem: 'cut_off', name: ctx.resolve(m[1]!) ?? m[1] });
      continue;
    }
    const args = argumentsObject(json || '{}');
    attempts.push(args ? named(ctx.resolve, m[1]!, args) : { problem: 'unparsable', name: m[1] });
  }
  return attempts.length ? attempts : undefined;
}

/**
 * A name, then JSON arguments: `<function>terminal</function> {…}`, `<shell>{…}</shell>`, or
 * `list_directory {…}` (LM Studio's `[TOOL_REQUEST]`).
 */
function namedJsonCall(ctx: ScanContext, body: string): Attempt | undefined {
  // The bare name may keep a character of the markup the template had begun around it (Qwen3.5's `name>`, GLM-5.1's `name}`).
  const head = /^(?:<function>\s*([\w.-]{1,100})\s*<\/function>|<([\w.-]{1,100})>|([A-Za-z_][\w.-]{0,99})[>}]?)\s*(?=\{)/.exec(body);
  if (!head) return undefined;
  const open = head[0].length;
  const close = matchBracket(body, open);
  if (close === -1) return undefined;
  const name = (head[1] ?? head[2] ?? head[3])!;
  let rest = body.slice(close).trim();
  if (head[2]) {
    if (!rest.startsWith(`</${head[2]}>`)) return undefined;
    rest = rest.slice(head[2].length + 3).trim();
  }
  // GLM-5.1 closes such a call with its value's closing tag, and chains the next with an arrow.
  if (rest && !/^(?:<\/arg_value>\s*)?(?:→\s*)?$/.test(rest)) return undefined;
  const json = parseLooseJson(body.slice(open, close));
  if (!isRecord(json)) return { problem: 'unparsable', name };
  return named(ctx.resolve, name, json as Record<string, unknown>);
}

export interface BodyReaders {
  functionCall(body: string, atEnd: boolean): Attempt | undefined;
  invokes(body: string, atEnd: boolean): Attempt[];
  namedElements(name: string, rest: string, atEnd: boolean): Attempt;
}

/** A call's name in an element of its own, perhaps after its MCP server's: `<server>fs</server><tool>read_file</tool>`. */
const NAME_ELEMENT = /^\s*(?:<(server|server_name)>[^<\n]{0,100}<\/\1>\s*)?<(name|tool_name|tool|request)>\s*([\w.-]{1,100})\s*<\/\2>\s*/i;

/** A call's JSON after an inner tag, closed or not (`<tool>{…}`, `<tool>{…}</tool>`): the JSON. */
function afterInnerTag(body: string): string | undefined {
  const tag = /^\s*<(tool|function|call)>\s*(?=[{[])/.exec(body);
  if (!tag) return undefined;
  const rest = body.slice(tag[0].length).trimEnd();
  const close = `</${tag[1]}>`;
  return rest.endsWith(close) ? rest.slice(0, -close.length) : rest;
}

/** GPT-OSS's header to a function with its tokens stripped, as it may stand inside a wrapper: the name, up to the arguments' `{`. */
const HARMONY_RECIPIENT = /^(?:assistant[ \t]*)?(?:(?:commentary|analysis)[ \t]+)?to=functions\.([\w.:-]{1,100})[ \t]*(?:<\|constrain\|>)?[ \t]*(?:json|code)?[ \t]*(?:<\|message\|>)?\s*(?=\{)/;

/** A call wrapper inside another (`<function_call>` in `<function_calls>`, `<tool_call>` in `<tool_calls>`). */
const INNER_WRAPPER = /^<(function_call|tool_call|invoke)>/i;

/** A list wrapper inside another: `<tool_call><function_calls>…</function_calls></tool_call>` (gpt-5-nano given two formats at once). */
const INNER_LIST = /^\s*<(function_calls|tool_calls|tools)>/i;

/** The content of a list wrapper making up the whole body, closed or not; undefined for any other body, and for lists inside lists. */
function insideInnerList(body: string): string | undefined {
  const open = INNER_LIST.exec(body);
  if (!open) return undefined;
  const rest = body.slice(open[0].length).trimEnd();
  const close = `</${open[1]!.toLowerCase()}>`;
  const inner = rest.slice(-close.length).toLowerCase() === close ? rest.slice(0, -close.length) : rest;
  return INNER_LIST.test(inner) ? undefined : inner;
}

/** A body that is one fence, its language a word or none: ```` ```JSON⏎{…}⏎``` ````. */
const FENCED_BODY = /^\s*```[\w-]{0,20}[ \t]*\n([\s\S]*?)\n?[ \t]*```\s*$/;

/**
 * The calls a wrapper's body holds; undefined when it holds no call markup (the wrapper's tag was
 * mentioned in prose). `atEnd`: the body runs to the end of the reply without its closing tag.
 */
export function readBody(ctx: ScanContext, body: string, atEnd: boolean, readers: BodyReaders, closed = false): Attempt[] | undefined {
  const first = body.search(/\S/);
  // A wrapper the reply ends in, empty, with a name only begun, or with a tag only begun (`<func`): cut off.
  if (atEnd && (first === -1 || /^[\w.-]{1,100}$/.test(body.trim()) || /^<[^<>]{0,100}$/.test(body.trim()))) {
    // A name alone is a call to a tool that takes no arguments; one that requires some was cut before they came.
    const name = ctx.resolve(body.trim());
    return name && !requiresArguments(ctx.tools.schemaOf(name)) ? [named(ctx.resolve, body.trim(), {})] : [{ problem: 'cut_off', ...(name ? { name } : {}) }];
  }
  if (first === -1) return undefined;
  // Calls each in an inner wrapper (`<function_calls><function_call>…</function_call>…</function_calls>`): each read.
  const innerTag = INNER_WRAPPER.exec(body.slice(first, first + 16));
  if (innerTag) {
    const close = new RegExp(`</${innerTag[1]}>\\s*$`, 'i');
    const parts = body.slice(first).split(new RegExp(`<${innerTag[1]}>`, 'i')).slice(1);
    return parts.flatMap((part, k) => {
      const partClosed = close.test(part);
      return readBody(ctx, part.replace(close, ''), atEnd && !partClosed && k === parts.length - 1, readers, partClosed) ?? [{ problem: 'unparsable' as const }];
    });
  }
  // The call in a fence of its own inside the wrapper (ModelScopeGPT's ```JSON), after a tag of its own
  // (`<tool_call><tool>{…}`, MiMo), or the calls in a list wrapper of their own: its content.
  const inner = FENCED_BODY.exec(body)?.[1] ?? afterInnerTag(body) ?? insideInnerList(body);
  if (inner !== undefined) return readBody(ctx, inner, atEnd, readers, closed);
  const ch = body[first];
  if (ch === '{' || ch === '[') return jsonBody(ctx, body, atEnd);
  // Qwen3.5 with `<function=` already in its prompt: the name and `>`, then the parameters; GLM-4.7 drops only the `<`.
  const truncated = /^(?:function=)?([A-Za-z_][\w.-]{0,99})>(?=\s*<parameter=)/.exec(body.slice(first, first + 111));
  if (truncated) return [readers.functionCall(`<function=${body.slice(first).replace(/^function=/, '')}`, atEnd) ?? { problem: 'unparsable', name: truncated[1] }];
  // The name in a `<function>` element, then `<parameter>NAME</parameter>` and its value (Llama 3.1 given Qwen3-Coder's prompt).
  const nameElement = /^<function>\s*([A-Za-z_][\w.-]{0,99})\s*<\/function>\s*(?=<parameter>)/.exec(body.slice(first, first + 140));
  if (nameElement) return [readers.functionCall(`<function=${nameElement[1]}>${body.slice(first + nameElement[0].length)}`, atEnd) ?? { problem: 'unparsable', name: nameElement[1] }];
  // An offered tool's name alone on its line, then its arguments as elements, perhaps closed by a tag of the name (GLM-4.7).
  // (GLM's `<arg_key>` pairs are read below.)
  const nameLine = /^([A-Za-z_][\w.-]{0,99})[ \t]*\r?\n\s*(?=<(?!(?:[a-z]{1,20}_)?(?:arg|param)_key>)[A-Za-z_])/.exec(body.slice(first, first + 120));
  if (nameLine && ctx.resolve(nameLine[1]!)) {
    const rest = body.slice(first + nameLine[0].length).replace(new RegExp(`</${nameLine[1]}>\\s*$`), '');
    return [readers.namedElements(nameLine[1]!, rest, atEnd)];
  }
  if (body.startsWith('<function=', first) || body.startsWith('<FUNCTION=', first)) {
    // Several `<function=…>` blocks may share one wrapper.
    const parts = body.split(/(?=<function=)/i).filter((p) => p.trim());
    return parts.map((part, k) => readers.functionCall(part, atEnd && k === parts.length - 1) ?? { problem: 'unparsable' });
  }
  if (/^<function\s+name\s*=/i.test(body.slice(first, first + 30))) {
    // Seed 2.0: `<function name="…">` holding `<parameter name="…" string="true">` elements.
    return namedFunctionsIn(ctx, body) ?? [{ problem: atEnd ? 'cut_off' : 'unparsable' }];
  }
  if (/^<(?:[\w-]{1,20}:)?invoke\s/i.test(body.slice(first, first + 30))) {
    const calls = readers.invokes(body, atEnd);
    return calls.length ? calls : [{ problem: 'unparsable' }];
  }
  if (body.startsWith('<|tool_call_begin|>', first)) return kimiCalls(ctx, body, atEnd);
  if (/^<(?:name|tool_name|tool|server|server_name|request)>/i.test(body.slice(first, first + 14))) {
    // The name in its element (after the MCP server's, as an MCP client's prompt asks; Langroid's `<request>`), then GLM's
    // argument pairs or the arguments as elements; a name never closed is unreadable.
    const head = NAME_ELEMENT.exec(body);
    if (!head) return [{ problem: atEnd ? 'cut_off' : 'unparsable' }];
    const name = head[3]!;
    const rest = body.slice(head[0].length);
    if (rest.startsWith('<arg_key>')) return [glmCall(ctx, `${name}${rest}`, atEnd) ?? { problem: 'unparsable', name }];
    return [readers.namedElements(name, rest, atEnd)];
  }
  // GPT-OSS's recipient header, its special tokens stripped, then the arguments (`assistant to=functions.name json⏎{…}`).
  const recipient = HARMONY_RECIPIENT.exec(body.slice(first, first + 180));
  if (recipient) {
    const args = argumentsObject(body.slice(first + recipient[0].length));
    return [args ? named(ctx.resolve, recipient[1]!, args) : { problem: atEnd && !closed ? 'cut_off' : 'unparsable', name: recipient[1] }];
  }
  const attributed = attributedCall(ctx, body, first);
  if (attributed) return [attributed];
  const namedJson = namedJsonCall(ctx, body.slice(first));
  if (namedJson) return [namedJson];
  const glm = glmCall(ctx, body, atEnd);
  if (glm && /<(?:longcat_arg|arg|param)_key>/.test(body)) return [glm];
  const python = /^[A-Za-z_][\w.-]*\s*\(/.test(body.slice(first, first + 120)) ? pythonCalls(ctx, body) : undefined;
  if (python) return python;
  // A lone name: a call without arguments (GLM, Poolside); in a closed wrapper, a name no tool has is an unknown tool.
  if (glm && ('arguments' in glm || (closed && /^\s*[\w.-]{1,100}\s*$/.test(body)))) return [glm];
  return closed ? triedCall(ctx, body) : undefined;
}

/**
 * An offered tool's name, then its arguments as attributes, a self-closing tag without its `<` (`<tool_call>exec
 * command="ls" />`, a Qwen model in OpenClaw). A `tool` or `name` attribute repeating the name is no argument.
 */
function attributedCall(ctx: ScanContext, body: string, first: number): Attempt | undefined {
  const head = /^([A-Za-z_][\w.-]{0,99})(?=[ \t]+[\w:-]{1,40}[ \t]*=)/.exec(body.slice(first, first + 150));
  if (!head || !ctx.resolve(head[1]!)) return undefined;
  const tag = openingTag(body, first + head[0].length);
  if (!tag || body.slice(tag.end).trim()) return undefined;
  const args = Object.entries(tag.attributes).filter(([key, value]) => !((key === 'tool' || key === 'name') && value === head[1]));
  return named(ctx.resolve, head[1]!, Object.fromEntries(args));
}

/**
 * A closed wrapper whose body is no known form but clearly tries a call: a call's JSON after a few words
 * (`Sure: {"name": …}`); or unreadable: `name: tool, arguments: …` written without JSON, or arguments
 * with no function's name before them.
 */
function triedCall(ctx: ScanContext, body: string): Attempt[] | undefined {
  // Arguments without the function's name (`<parameter=x>1</parameter>`, `<arg_key>x</arg_key>…`): a call no tool can take.
  if (/^\s*<(?:parameter[=\s]|(?:arg|param)_key>)/i.test(body)) return [{ problem: 'unparsable' }];
  const at = body.search(/\{\s*"name"\s*:/);
  if (at > 0 && at < 200) {
    const json = jsonBody(ctx, body.slice(at), false);
    if (json?.some(isCall)) return json;
  }
  return /(^|[\s{,])"?name"?\s*[:=]/.test(body) ? [{ problem: 'unparsable', name: /\bname"?\s*[:=]\s*"?([\w.-]{1,100})/.exec(body)?.[1] }] : undefined;
}
