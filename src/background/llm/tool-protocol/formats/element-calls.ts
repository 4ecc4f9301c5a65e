/**
 * Calls written as XML elements: the tool's name in one element and its arguments in the next (`<tool>bash</tool>`,
 * `<arguments>…</arguments>`), inside a wrapper or, with no wrapper, on their own (`elementCalls`).
 */
import { matchesOf, named, spanOf, STRAY_CLOSER, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { singleInput } from '../call-objects';
import { decodeEntities } from '../values';
import { declaredElements, elementArguments, jsonBody } from './xml-arguments';

/** The elements a call written as XML holds its arguments in, after its name's element. */
export const ARGUMENTS_ELEMENTS = 'arguments|parameters|parameter|args|params|input|tool_input';
/** The elements a call written as XML without a wrapper names its tool in (`elementCalls`). */
export const NAME_ELEMENTS = 'tool|tool_name|name|function_name|tool_call_type';
/** Elements that may come before the name's: the MCP server's, a call id's. */
export const LEAD_ELEMENTS = 'server|server_name|tool_call_id|call_id|id';

/** An argument element holding words, no markup (`<tool_input>foo</tool_input>`, LangChain's XML agent): the tool's one parameter. */
function wordsInput(ctx: ScanContext, name: string, inner: string): Record<string, unknown> | undefined {
  const tool = ctx.resolve(name);
  return tool && !inner.includes('<') ? singleInput(decodeEntities(inner), ctx.tools.schemaOf(tool)) : undefined;
}


/**
 * A JSON call written as XML, after its `<name>tool</name>`: `rest` is an `<arguments>` (or `<parameters>`,
 * `<args>`) element holding one element per argument, or JSON; nothing is a call without arguments. Anything
 * else is unreadable.
 */
export function namedElementsCall(ctx: ScanContext, name: string, rest: string, atEnd: boolean): Attempt {
  if (!rest.trim()) return named(ctx.resolve, name, {});
  const args = new RegExp(`^<(${ARGUMENTS_ELEMENTS})>([\\s\\S]*?)(?:(<\\/\\1>)\\s*$|$)`, 'i').exec(rest);
  // No arguments element: the elements beside the name are the arguments (Langroid's `<tool><request>…</request><path>…`), each one the tool declares.
  if (!args) {
    const siblings = declaredElements(ctx, rest, name);
    return siblings ? named(ctx.resolve, name, siblings) : { problem: 'unparsable', name };
  }
  const inner = args[2]!;
  // `</arguments>` never written, the wrapper closed after a complete JSON object: that object.
  const unclosed = !args[3] && !atEnd ? jsonBody(inner) : undefined;
  if (unclosed) return named(ctx.resolve, name, unclosed);
  // LangChain's XML agent stops generation at `</tool_input>`: its reply ends inside the element, every word of the input written.
  const stopped = !args[3] && atEnd && args[1]!.toLowerCase() === 'tool_input' ? (jsonBody(inner) ?? wordsInput(ctx, name, inner.trim())) : undefined;
  if (stopped) return named(ctx.resolve, name, stopped);
  if (!args[3]) return { problem: atEnd ? 'cut_off' : 'unparsable', name };
  const values = !inner.trim() ? {} : (jsonBody(inner) ?? elementArguments(ctx, inner, name) ?? wordsInput(ctx, name, inner));
  return values ? named(ctx.resolve, name, values) : { problem: 'unparsable', name };
}

/**
 * A call written as XML elements with no wrapper around them: the tool's name in one (`<tool>bash</tool>`, also after
 * the MCP server's `<server>` or a call id's element), its arguments in the next (`<parameter>{"command": …}</parameter>`,
 * `<arguments>`), as Kimi K2.6 and Qwen3-Coder write when a client's prompt shows the elements; a wrapper's closing tag
 * after them belongs to the call. The name must be an offered tool's.
 */
export const elementCalls: Detector = (ctx) => {
  const spans: Span[] = [];
  const closes = new Map<string, number>();
  let lower: string | undefined;
  /** The next `</tag>` at or after `from`: each tag's text is searched once, as the candidates come in order. */
  const closeOf = (tag: string, from: number): number => {
    const known = closes.get(tag);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = (lower ??= ctx.text.toLowerCase()).indexOf(`</${tag}>`, from);
    closes.set(tag, at);
    return at;
  };
  let covered = 0;
  for (const m of matchesOf(new RegExp(`<(${NAME_ELEMENTS})>[ \\t]*([\\w.:-]{1,100})[ \\t]*<\\/\\1>`, 'gi'), ctx.text)) {
    if (m.index < covered || ctx.isProtected(m.index) || !ctx.resolve(m[2]!)) continue;
    const opening = new RegExp(`\\s*<(${ARGUMENTS_ELEMENTS})>`, 'iy');
    opening.lastIndex = m.index + m[0].length;
    const args = opening.exec(ctx.text);
    if (!args) continue;
    const tag = args[1]!.toLowerCase();
    const argsStart = args.index + args[0].length - args[1]!.length - 2;
    const close = closeOf(tag, opening.lastIndex);
    const end = close === -1 ? ctx.text.length : close + tag.length + 3;
    const attempt = namedElementsCall(ctx, m[2]!, ctx.text.slice(argsStart, end), close === -1);
    const stray = close === -1 ? null : STRAY_CLOSER.exec(ctx.text.slice(end, end + 64));
    // The server's or the call id's element on the lines just before the name belongs to the call.
    const lead = new RegExp(`(?:<(${LEAD_ELEMENTS})>[^<\\n]{0,200}<\\/\\1>\\s*)+$`, 'i').exec(ctx.text.slice(Math.max(covered, m.index - 600), m.index));
    const start = lead ? m.index - lead[0].length : m.index;
    covered = end + (stray ? stray[0].length : 0);
    spans.push(spanOf(start, covered, [attempt]));
  }
  return spans;
};
