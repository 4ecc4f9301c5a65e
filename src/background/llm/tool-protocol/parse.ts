/**
 * Tool calls written as text, in the forms real models emit. `parseToolCalls` is pure: text in,
 * the calls to known tools and the prose without their markup out. Detectors run in order of
 * how unambiguous their markers are; each region of text is claimed by one detector only, and
 * code (fences, inline code) and reasoning (`<think>`) are never read as calls by the tag-based
 * detectors.
 */
import { bare } from './formats/bare';
import { fenced, FENCE } from './formats/fenced';
import { deepseek, gemma, mistral, pythonTag } from './formats/special-tokens';
import { functionTag, hermes, invoke } from './formats/tagged';
import { xmlTags } from './formats/xml-tags';
import { createNameResolver, matchesOf, type Detector, type ParsedCall, type ScanContext, type Span } from './scan';

export type { ParsedCall } from './scan';

const DETECTORS: readonly Detector[] = [deepseek, mistral, gemma, pythonTag, hermes, invoke, functionTag, xmlTags, fenced, bare];

/** Reasoning: `<think>…</think>`, an unclosed `<think>` to the end, or a bare `</think>` (the template opened it). */
function reasoningSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const m of matchesOf(/<(think|thinking|reasoning)>[\s\S]*?(?:<\/\1>|$)/gi, text)) spans.push([m.index, m.index + m[0].length]);
  if (!spans.length) {
    const lone = text.match(/^[\s\S]*?<\/(think|thinking)>/i);
    if (lone) spans.push([0, lone[0].length]);
  }
  return spans;
}

function codeSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  for (const m of matchesOf(FENCE, text)) spans.push([m.index, m.index + m[0].length]);
  for (const m of matchesOf(/`[^`\n]+`/g, text)) {
    if (!spans.some(([s, e]) => m.index >= s && m.index < e)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

const inside = (spans: readonly [number, number][], i: number) => spans.some(([s, e]) => i >= s && i < e);

/** Removes the given regions and tidies what is left. */
function withoutSpans(text: string, spans: readonly [number, number][]): string {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [s, e] of sorted) {
    if (s < at) {
      at = Math.max(at, e);
      continue;
    }
    out += text.slice(at, s);
    at = e;
  }
  out += text.slice(at);
  return out
    .replace(/<\|(python_tag|eom_id|eot_id)\|>/g, '')
    .replace(/<\/?(?:[\w-]+:)?(?:function_calls|tool_call)>/gi, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function parseToolCalls(text: string, toolNames: readonly string[]): { calls: ParsedCall[]; text: string } {
  const reasoning = reasoningSpans(text);
  const code = codeSpans(text);
  const claimed: Span[] = [];
  const resolve = createNameResolver(toolNames);
  for (const detect of DETECTORS) {
    const codeAware = detect === fenced;
    const ctx: ScanContext = {
      text,
      resolve,
      isProtected: (i) => inside(reasoning, i) || (!codeAware && inside(code, i)) || claimed.some((s) => i >= s.start && i < s.end),
    };
    for (const span of detect(ctx)) {
      if (!claimed.some((s) => span.start < s.end && s.start < span.end)) claimed.push(span);
    }
  }
  claimed.sort((a, b) => a.start - b.start);
  return {
    calls: claimed.flatMap((s) => s.calls),
    text: withoutSpans(text, [...reasoning, ...claimed.map((s): [number, number] => [s.start, s.end])]),
  };
}
