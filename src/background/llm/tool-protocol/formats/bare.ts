/**
 * Calls written as plain JSON or a Python list, without markup (Llama 3.x JSON, Llama 3.2 /
 * Gemma pythonic). Accepted when the call is the whole message, or closes it after some prose
 * ("I'll open the menu. {"name": …}"): a JSON object in the middle of an explanation is not a call.
 */
import { callsFromJson, type Detector, type ParsedCall, type ScanContext, type Span } from '../scan';
import { matchBracket, parseLooseJson, splitTopLevel } from '../values';
import { pythonCallOf } from './special-tokens';

function pythonList(text: string, resolve: ScanContext['resolve']): ParsedCall[] | undefined {
  const inner = text.trim().match(/^\[([\s\S]*)\]$/)?.[1];
  const parts = (inner === undefined ? [text] : splitTopLevel(inner)).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return undefined;
  const calls = parts.map((p) => pythonCallOf(p, resolve));
  return calls.every((c): c is ParsedCall => c !== undefined) ? calls : undefined;
}

/** JSON values back to back from `start` (Llama sometimes writes one object per call). */
function jsonRun(ctx: ScanContext, start: number): Span | undefined {
  const calls: ParsedCall[] = [];
  let i = start;
  let end = start;
  while (i < ctx.text.length && (ctx.text[i] === '{' || ctx.text[i] === '[')) {
    const close = matchBracket(ctx.text, i);
    const stop = close === -1 ? ctx.text.length : close;
    const found = callsFromJson(parseLooseJson(ctx.text.slice(i, stop)), ctx.resolve);
    if (!found) break;
    calls.push(...found);
    end = stop;
    i = stop + (ctx.text.slice(stop).match(/^[\s;,]*/)?.[0].length ?? 0);
  }
  return calls.length ? { start, end, calls } : undefined;
}

export const bare: Detector = (ctx) => {
  const text = ctx.text;
  const first = text.search(/\S/);
  if (first === -1) return [];
  const spans: Span[] = [];
  // The whole message, or its tail after prose, starting at a line (or sentence) boundary.
  const starts = [first, ...[...text.matchAll(/(?:\n|[.:!?]\s)\s*(?=[[{])/g)].map((m) => m.index! + m[0].length)];
  for (const start of starts) {
    if (ctx.isProtected(start) || spans.some((s) => start < s.end)) continue;
    const ch = text[start];
    if (ch !== '{' && ch !== '[') continue;
    const json = jsonRun(ctx, start);
    const candidate = json ?? (() => {
      const close = matchBracket(text, start);
      const stop = close === -1 ? text.length : close;
      const calls = ch === '[' ? pythonList(text.slice(start, stop), ctx.resolve) : undefined;
      return calls ? { start, end: stop, calls } : undefined;
    })();
    if (!candidate) continue;
    const tail = text.slice(candidate.end).trim();
    // Prose may come before a call, but a call followed by more explanation was an example.
    if (start === first || !tail || /^(<\|eot_id\|>|<\|eom_id\|>)?$/.test(tail)) spans.push(candidate);
  }
  // A message that is one Python call and nothing else: `read_page()`.
  if (!spans.length) {
    const whole = text.trim();
    const call = /^[A-Za-z_][\w.-]*\s*\([\s\S]*\)$/.test(whole) ? pythonCallOf(whole, ctx.resolve) : undefined;
    if (call) spans.push({ start: first, end: text.length, calls: [call] });
  }
  return spans;
};
