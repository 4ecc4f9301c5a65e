/**
 * Fenced blocks that hold a call: ```json / ```tool / ```tool_code / ```tool_call / ``` with a
 * JSON call or Python-style call(s) inside. A fence is the model's call unless the prose that
 * leads into it presents it as an example ("for example", "would look like", "the format is"…):
 * a model explaining a call is not making one.
 */
import { callsFromJson, matchesOf, type Detector, type ParsedCall, type Span } from '../scan';
import { parseLooseJson, splitTopLevel } from '../values';
import { pythonCallOf } from './special-tokens';

export const FENCE = /(^|\n)[ \t]*(`{3,}|~{3,})[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)(?:\n[ \t]*\2[ \t]*(?=\n|$)|$)/g;
const CALL_LANGS = new Set(['', 'json', 'jsonc', 'tool', 'tools', 'tool_code', 'tool_call', 'tool_calls', 'tool-call', 'python', 'py', 'function', 'function_call', 'xml']);
const EXAMPLE_LEAD = /\b(for (example|instance)|e\.g\.|example|such as|would (look|be)|looks? like|like (this|so)|the (format|syntax|schema) (is|looks)|format:|syntax:|you (can|could|would|should|might) (call|use|write)|here'?s how|to call (it|a tool|the tool)|shape|template|sample)\b/i;

function callsInBody(body: string, resolve: (n: string) => string | undefined): ParsedCall[] | undefined {
  const trimmed = body.trim();
  if (/^[[{]/.test(trimmed)) {
    const json = callsFromJson(parseLooseJson(trimmed), resolve);
    if (json) return json;
    // Several JSON objects, one per line.
    const lines = trimmed.split(/\n(?=\s*\{)/);
    if (lines.length > 1) {
      const calls = lines.map((l) => callsFromJson(parseLooseJson(l), resolve));
      if (calls.every(Boolean)) return calls.flat() as ParsedCall[];
    }
  }
  const list = trimmed.match(/^\[([\s\S]*)\]$/);
  const parts = (list ? splitTopLevel(list[1]!) : trimmed.split(/\n+/)).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return undefined;
  const calls = parts.map((p) => pythonCallOf(p.replace(/^print\((.*)\)$/s, '$1'), resolve));
  return calls.every((c): c is ParsedCall => c !== undefined) ? calls : undefined;
}

export const fenced: Detector = (ctx) => {
  const spans: Span[] = [];
  let previousEnd = 0;
  for (const m of matchesOf(FENCE, ctx.text)) {
    const start = m.index + m[1]!.length;
    const end = m.index + m[0].length;
    const lead = ctx.text.slice(Math.max(previousEnd, start - 200), start);
    previousEnd = end;
    if (!CALL_LANGS.has(m[3]!.toLowerCase())) continue;
    if (EXAMPLE_LEAD.test(lead)) continue;
    const calls = callsInBody(m[4]!, ctx.resolve);
    if (calls?.length) spans.push({ start, end, calls });
  }
  return spans;
};
