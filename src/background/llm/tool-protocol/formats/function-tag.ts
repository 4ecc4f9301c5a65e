/**
 * Qwen3-Coder's and Llama's `<function=name>`: parameters (`<parameter=key>`), a JSON body or elements, up to
 * `</function>` (or the wrapper's closing tag); outside a wrapper too, cut or not, and its broken forms.
 */
import { matchesOf, named, spanOf, STRAY_CLOSER, type Attempt, type Detector, type ScanContext, type Span } from '../scan';
import { isRecord, jsonEnding, matchBracket, parseLooseJson } from '../values';
import { XmlNode } from '../xml-tree';
import { elementArguments, parametersOf } from './xml-arguments';
import { requiresArguments } from '../tools';

/**
 * A JSON object with one stray quote or `>` after it (`{"city": "NY"}"`, `{"symbol": "VFS"}>`, as Llama 3.x writes before
 * `</function>` on Groq and Together): the object.
 */
function withoutStrayQuote(inner: string): string {
  const trimmed = inner.trim();
  if (!trimmed.startsWith('{') || !(trimmed.endsWith('"') || trimmed.endsWith('>'))) return inner;
  return matchBracket(trimmed, 0) === trimmed.length - 1 ? trimmed.slice(0, -1) : inner;
}

/** `<function=name>` with parameters or a JSON body, up to `</function>`; its `>` may be missing at the line's end (a Zyphra model's). */
export function functionCall(ctx: ScanContext, body: string, atEnd: boolean): Attempt | undefined {
  const head = /<function=([^>\s<]{1,100})(?:>|[ \t]*(?=\r?\n))/i.exec(body);
  if (!head) return undefined;
  const closeAt = body.search(/<\/function>/i);
  const inner = body.slice(head.index + head[0].length, closeAt === -1 ? undefined : closeAt);
  const open = atEnd && closeAt === -1;
  // The reply ended inside a tag (`<parameter=`): the arguments were still being written.
  if (open && /<[^<>]*$/.test(inner)) return { problem: 'cut_off', name: head[1] };
  if (/<parameter[\s=]/i.test(inner)) {
    const args = parametersOf(inner, open);
    return args ? named(ctx.resolve, head[1]!, args) : { problem: 'cut_off', name: head[1] };
  }
  if (!inner.trim()) {
    // Left open with no arguments yet: cut off, unless the tool takes none.
    const name = open ? ctx.resolve(head[1]!) : undefined;
    return name && requiresArguments(ctx.tools.schemaOf(name)) ? { problem: 'cut_off', name: head[1] } : named(ctx.resolve, head[1]!, {});
  }
  const declared = ctx.tools.schemaOf(ctx.resolve(head[1]!) ?? '')?.properties;
  const nameless = declared ? namelessParameters(inner, declared) : undefined;
  // Its last value may have been cut when the reply ends inside the call.
  if (nameless) return open ? { problem: 'cut_off', name: head[1] } : named(ctx.resolve, head[1]!, nameless);
  // One element per argument, named as the tool declares them (`<path>.</path>`), as MiniMax writes them.
  const elements = inner.trim().startsWith('<') ? elementArguments(ctx, inner, head[1]!) : undefined;
  if (elements && declared && Object.keys(elements).every((k) => k in declared)) return named(ctx.resolve, head[1]!, elements);
  if (open && jsonEnding(inner.trim()) === 'cut') return { problem: 'cut_off', name: head[1] };
  const json = parseLooseJson(withoutStrayQuote(inner));
  if (!isRecord(json)) return ctx.resolve(head[1]!) ? { problem: 'unparsable', name: head[1] } : undefined;
  return named(ctx.resolve, head[1]!, json);
}

/**
 * `<parameter>city</parameter>⏎Seoul⏎<parameter>unit</parameter>⏎celsius` (Qwen2.5 writing Qwen3-Coder's format): each
 * tag holds a declared parameter's name, its value the text after it. Undefined for any other body.
 */
function namelessParameters(inner: string, declared: Record<string, unknown>): Record<string, unknown> | undefined {
  const parts = inner.split(/<parameter>[ \t]*([\w.-]{1,100})[ \t]*<\/parameter>/i);
  if (parts.length < 3 || parts[0]!.trim()) return undefined;
  const args: Record<string, unknown> = {};
  for (let k = 1; k < parts.length; k += 2) {
    if (!(parts[k]! in declared)) return undefined;
    args[parts[k]!] = new XmlNode(parts[k + 1]!, 'blanks');
  }
  return args;
}

/**
 * Each `<function=name>` with its body: up to its closing tag, or the wrapper's when the model wrote that instead
 * (`… True </tool_call>`, Qwen3-Coder on Ollama), or the end of the reply. Left open, a body whose JSON is whole
 * and has prose on the lines below it (`… I will wait for the result.`) ends with the JSON: the prose is the
 * model's words, and a later `<function=` is read again.
 */
function* functionTags(text: string): Generator<[number, number]> {
  const tag = /<function=[^>\s]{1,100}>[\s\S]*?(?:<\/function>|(?=<\/tool_call>)|$)/gi;
  let m: RegExpExecArray | null;
  while ((m = tag.exec(text))) {
    const end = m.index + m[0].length;
    if (end < text.length || /<\/function>$/i.test(m[0])) {
      yield [m.index, end];
      continue;
    }
    // No closing tag follows: every later body runs to the end too, unless its JSON ends first.
    const opening = /<function=[^>\s]{1,100}>/gi;
    opening.lastIndex = m.index;
    let o: RegExpExecArray | null;
    while ((o = opening.exec(text))) {
      const cut = jsonThenProse(text, o.index + o[0].length);
      yield [o.index, cut === -1 ? text.length : cut];
      if (cut === -1) return;
      opening.lastIndex = cut;
    }
    return;
  }
}

/** Just past a whole JSON value at `from` (and a stray quote after it) when prose follows on a line below; else -1. */
function jsonThenProse(text: string, from: number): number {
  let first = from;
  while (first < text.length && /\s/.test(text[first]!)) first++;
  if (text[first] !== '{' && text[first] !== '[') return -1;
  let end = matchBracket(text, first);
  if (end === -1) return -1;
  if (text[end] === '"') end++;
  const prose = /[ \t]*\r?\n\s*[^\s<]/y;
  prose.lastIndex = end;
  return prose.test(text) ? end : -1;
}

/** `<function=name>…</function>` outside a wrapper (Llama 3.1, bare Qwen3-Coder), cut or not; also its broken forms. */
export const functionTag: Detector = (ctx) => {
  const spans: Span[] = [...brokenFunctionTags(ctx)];
  for (const [start, stop] of functionTags(ctx.text)) {
    if (ctx.isProtected(start)) continue;
    const body = ctx.text.slice(start, stop);
    const atEnd = stop === ctx.text.length && !/<\/function>$/i.test(body);
    const call = functionCall(ctx, body, atEnd);
    // It may be glued to the words before it (`Computing result<function=calc>…</function>`), like
    // `<tool_call>`; glued and still open at the end, it was cut off (the streaming filter hides it too).
    let before = start;
    while (ctx.text[before - 1] === ' ' || ctx.text[before - 1] === '\t') before--;
    const glued = before > 0 && ctx.text[before - 1] !== '\n';
    // The wrapper's closing tag left after it, its opening stripped by the server (`…</function>\n</tool_call>`), belongs to the call.
    const stray = atEnd ? null : STRAY_CLOSER.exec(ctx.text.slice(stop, stop + 64));
    const end = stop + (stray ? stray[0].length : 0);
    if (call && glued && atEnd) spans.push(spanOf(start, end, [{ problem: 'cut_off', name: call.name }], 'tail'));
    else if (call) spans.push(spanOf(start, end, [call], atEnd ? undefined : 'tail'));
  }
  return spans;
};

/**
 * Broken `<function=…>` forms seen in the wild: `<function=name={…}</function>` (the `>` written as
 * `=`), and `name{…}</function>` at a line's start (the opening lost, as servers report it).
 */
function brokenFunctionTags(ctx: ScanContext): Span[] {
  const spans: Span[] = [];
  // The name may run into the JSON after `=`, `(`, `,` or a blank instead of `>` (Llama 3.x on Groq: `<function=read_file {…}></function>`),
  // the JSON perhaps in a list whose `]` never came (`<function=web_search [{…} </function>`, Llama 3.3 on Groq).
  // Or the name in brackets or after a slash (`<function(name){…}</function>`, `<function/name {…} </function>`, Llama 3.3 on Groq).
  for (const m of matchesOf(/<function(?:=([\w.-]{1,100})(?:[=(,]|[ \t])?|\(([\w.-]{1,100})\)[ \t]*|\/([\w.-]{1,100})[ \t]*)(?=\[?[ \t]*\{)|^([A-Za-z_][\w.-]{0,99})(?=\{)/gm, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    let open = m.index + m[0].length;
    const listed = ctx.text[open] === '[';
    if (listed) open = skipBlanks(ctx.text, open + 1);
    const close = matchBracket(ctx.text, open);
    // JSON left open runs to the end of the reply: every later candidate is inside it.
    if (close === -1) break;
    let end = close;
    if (listed) {
      end = skipBlanks(ctx.text, end);
      if (ctx.text[end] === ']') end++;
    }
    // `<function=name({…})</function>`, and a stray quote before the closer (Llama 3.x on Groq and Together).
    if (m[0].endsWith('(') && ctx.text[end] === ')') end++;
    const tagged = m[4] === undefined;
    if (tagged && ctx.text[end] === '"') end++;
    // The `>` the opening tag lacked, written after the JSON.
    if (tagged && ctx.text[end] === '>') end++;
    while (ctx.text[end] === ' ' || ctx.text[end] === '\t') end++;
    // The bare form counts only with the closing tag that shows it was a call.
    if (!/^<\/function>/i.test(ctx.text.slice(end, end + 11))) {
      if (!tagged) continue;
    } else end += '</function>'.length;
    const json = parseLooseJson(ctx.text.slice(open, close));
    if (!isRecord(json)) continue;
    spans.push(spanOf(m.index, end, [named(ctx.resolve, (m[1] ?? m[2] ?? m[3] ?? m[4])!, json)]));
  }
  return spans;
}

function skipBlanks(text: string, from: number): number {
  let i = from;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
}
