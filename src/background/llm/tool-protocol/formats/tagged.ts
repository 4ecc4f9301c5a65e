/** Tag-based formats: Hermes/Qwen `<tool_call>`, Qwen3-Coder and Llama `<function=…>`, `<invoke>`. */
import { callsFromJson, matchesOf, Regions, type Detector, type ParsedCall, type ScanContext, type Span } from '../scan';
import { matchBracket, parseLooseJson, xmlValue } from '../values';

/** `<parameter=p>v</parameter>` (Qwen3-Coder) or `<parameter name="p">v</parameter>` (invoke). */
function parametersOf(body: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const m of matchesOf(/<parameter(?:=([\w.-]+)|\s+name\s*=\s*["']([^"']+)["'])\s*>([\s\S]*?)(?:<\/parameter>|(?=<parameter[\s=])|$)/gi, body)) {
    args[(m[1] ?? m[2])!] = xmlValue(m[3]!);
  }
  return args;
}

/** `<function=name>` with parameters or a JSON body, up to `</function>`. */
function functionCall(ctx: ScanContext, body: string): ParsedCall | undefined {
  const head = body.match(/<function=([\w.-]+)>/i);
  if (!head || head.index === undefined) return undefined;
  const name = ctx.resolve(head[1]!);
  if (!name) return undefined;
  const inner = body.slice(head.index + head[0].length).replace(/<\/function>[\s\S]*$/i, '');
  if (/<parameter[\s=]/i.test(inner)) return { name, arguments: parametersOf(inner) };
  const json = parseLooseJson(inner);
  if (json === undefined && inner.trim()) return undefined;
  return { name, arguments: json && typeof json === 'object' && !Array.isArray(json) ? json : {} };
}

/** Hermes / Qwen 2.5: `<tool_call>{"name":…,"arguments":…}</tool_call>`, closing tag sometimes missing. */
export const hermes: Detector = (ctx) => {
  const spans: Span[] = [];
  const opens = [...matchesOf(/<tool_call>/gi, ctx.text)].filter((m) => !ctx.isProtected(m.index));
  const closes = [...matchesOf(/<\/tool_call>/gi, ctx.text)].map((m) => m.index);
  let c = 0;
  for (const [n, m] of opens.entries()) {
    const from = m.index + m[0].length;
    while (c < closes.length && closes[c]! < from) c++;
    const close = c < closes.length ? closes[c]! : -1;
    const nextOpen = opens[n + 1]?.index ?? ctx.text.length;
    // A body ends at its closing tag, or where the next call opens: each stretch is read once.
    const closed = close !== -1 && close < nextOpen;
    const limit = closed ? close : nextOpen;
    const body = ctx.text.slice(from, limit);
    const end = closed ? limit + '</tool_call>'.length : limit;
    // "<tool_call>" followed by prose is talk about the tag; followed by JSON or <function=…> it is markup.
    if (!/^\s*(?:[{[]|<function=)/i.test(body)) continue;
    let calls: ParsedCall[] | undefined;
    if (/<function=/i.test(body)) {
      const call = functionCall(ctx, body);
      calls = call ? [call] : undefined;
    } else {
      const brace = body.search(/[{[]/);
      const jsonEnd = matchBracket(body, brace);
      // JSON still open at the very end of the reply was cut off: its values cannot be trusted.
      const cutOff = jsonEnd === -1 && !closed && limit === ctx.text.length;
      calls = cutOff ? undefined : callsFromJson(parseLooseJson(body.slice(brace, jsonEnd === -1 ? undefined : jsonEnd)), ctx.resolve);
    }
    // The markup is the model's call attempt either way; an unknown tool or unreadable call leaves no text behind.
    spans.push({ start: m.index, end, calls: calls ?? [] });
  }
  return spans;
};

/** `<function=name>…</function>` outside a `<tool_call>` (Llama 3.1, bare Qwen3-Coder). */
export const functionTag: Detector = (ctx) => {
  const spans: Span[] = [];
  for (const m of matchesOf(/<function=[\w.-]+>[\s\S]*?(?:<\/function>|$)/gi, ctx.text)) {
    if (ctx.isProtected(m.index)) continue;
    const call = functionCall(ctx, m[0]);
    if (call) spans.push({ start: m.index, end: m.index + m[0].length, calls: [call] });
  }
  return spans;
};

/** Claude / MiniMax style: `<invoke name="…"><parameter name="…">…</parameter></invoke>`, optionally wrapped. */
export const invoke: Detector = (ctx) => {
  const spans: Span[] = [];
  const wrapper = /<((?:[\w-]+:)?(?:function_calls|tool_call))>([\s\S]*?)(?:<\/\1>|$)/gi;
  const claimed = new Regions();
  for (const m of matchesOf(wrapper, ctx.text)) {
    if (ctx.isProtected(m.index) || !/<invoke\s/i.test(m[2]!)) continue;
    const calls = invokesIn(ctx, m[2]!);
    if (calls.length) {
      spans.push({ start: m.index, end: m.index + m[0].length, calls });
      claimed.add(m.index, m.index + m[0].length);
    }
  }
  for (const m of matchesOf(/<invoke\s+name\s*=\s*["'][^"']+["']\s*>[\s\S]*?(?:<\/invoke>|$)/gi, ctx.text)) {
    if (ctx.isProtected(m.index) || claimed.contains(m.index)) continue;
    const calls = invokesIn(ctx, m[0]);
    if (calls.length) spans.push({ start: m.index, end: m.index + m[0].length, calls });
  }
  return spans;
};

function invokesIn(ctx: ScanContext, body: string): ParsedCall[] {
  const calls: ParsedCall[] = [];
  for (const m of matchesOf(/<invoke\s+name\s*=\s*["']([^"']+)["']\s*>([\s\S]*?)(?:<\/invoke>|$)/gi, body)) {
    const name = ctx.resolve(m[1]!);
    if (name) calls.push({ name, arguments: parametersOf(m[2]!) });
  }
  return calls;
}
