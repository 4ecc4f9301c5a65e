/**
 * Reasoning in a reply, as the parser reads it: the blocks a model thinks in (`<think>`, harmony's analysis
 * channel, Gemma's thought channel, FunctionGemma's invented tool responses, …), the text before a lone closer,
 * and the calls drafted inside a closed block before the call after it.
 */
import { isBlank, matchesOf, Regions, type Span } from './scan';
import { LONE_REASONING_END } from './template-tokens';


const LONE_REASONING_ENDS = new RegExp(LONE_REASONING_END.source, 'gi');
const TOOL_CALL_OPEN = '<tool_call>';
const TOOL_CALL_CLOSE = '</tool_call>';

/**
 * The reasoning of one `<think>` block, less the `<tool_call>` blocks standing on their own lines in
 * it: Qwen3 and Qwen3.5 often open a call before closing their reasoning, and Ollama's Qwen parsers
 * and vllm-mlx's reasoning parser end the reasoning there and read the call. A mention inside a
 * sentence stays reasoning. A call that `</think>` cuts runs up to it.
 */
function reasoningLessCalls(text: string, start: number, bodyStart: number, end: number, thinkEnd: number, inCode: (i: number) => boolean, openAt: (from: number) => number): [number, number][] {
  const pieces: [number, number][] = [];
  let cursor = start;
  for (let at = openAt(start); at !== -1 && at < thinkEnd; at = openAt(at + TOOL_CALL_OPEN.length)) {
    let i = at - 1;
    while (i >= start && isBlank(text[i])) i--;
    if ((i >= bodyStart && text[i] !== '\n') || inCode(at)) continue;
    pieces.push([cursor, at]);
    const close = text.indexOf(TOOL_CALL_CLOSE, at);
    if (close === -1 || close >= thinkEnd) {
      cursor = thinkEnd;
      break;
    }
    cursor = close + TOOL_CALL_CLOSE.length;
    at = cursor - TOOL_CALL_OPEN.length;
  }
  pieces.push([cursor, end]);
  return pieces.filter(([a, b]) => b > a);
}

/**
 * Reasoning: `<think>…</think>` (Seed-OSS: `<seed:think>`; MiniMax M3: `<mm:think>`; Hunyuan 3: `<think:opensource>`; Glimmer: a message `to=self`; vllm-mlx's Hermes: `<tool_call_reasoning>`; Command R: `<|START_THINKING|>`; Magistral: `[THINK]`; Kimi K3: `<|open|>think<|sep|>`), an unclosed `<think>` to the end, or a
 * bare `</think>` (the template opened it) that is not inside inline code. GPT-OSS's analysis channel
 * is reasoning, unless a recipient (`to=functions.name`) is written before it: then it carries a call.
 */
/**
 * `text.indexOf(needle, from)` for `from`s that never go back, remembering the last answer: a reply of many reasoning
 * blocks and no `<tool_call>` is searched once, not once per block.
 */
function forwardFinder(text: string, needle: string): (from: number) => number {
  let searchedFrom = Infinity;
  let found = -1;
  return (from) => {
    if (from < searchedFrom || (found !== -1 && found < from)) {
      searchedFrom = from;
      found = text.indexOf(needle, from);
    }
    return found;
  };
}

export function reasoningSpans(text: string, inCode: (i: number) => boolean): { spans: [number, number][]; carved: [number, number][] } {
  const spans: [number, number][] = [];
  const carved: [number, number][] = [];
  const openAt = forwardFinder(text, TOOL_CALL_OPEN);
  for (const m of matchesOf(/<((?:seed:|mm:)?think|thinking|reasoning|tool_call_reasoning)>[\s\S]*?(?:<\/\1>|$)|<think:[\w-]{1,20}>[\s\S]*?(?:<\/think:[\w-]{1,20}>|$)|(?:^[ \t]*|<\|start\|>assistant[ \t]*)to=self<\|message\|>[\s\S]*?(?:<\|eo[mt]\|>|(?=<\|start\|>)|$)|<\|channel>thought[\s\S]*?(?:<channel\|>|$)|<\|START_THINKING\|>[\s\S]*?(?:<\|END_THINKING\|>|$)|\[THINK\][\s\S]*?(?:\[\/THINK\]|$)|<\|open\|>think<\|sep\|>[\s\S]*?(?:<\|close\|>think<\|sep\|>|$)|<start_function_response>(?!call:)[\s\S]*?(?=<start_function_call>|<start_function_response>|$)|(?<!to=functions\.[\w.:-]{1,100}\s{0,8})<\|channel\|>analysis<\|message\|>[\s\S]*?(?:<\|end\|>|(?=<\|start\|>|<\|channel\|>)|$)/gi, text)) {
    const end = m.index + m[0].length;
    const tag = m[1]?.toLowerCase();
    if (tag !== 'think' && tag !== 'thinking') {
      spans.push([m.index, end]);
      continue;
    }
    const closing = `</${tag}>`;
    const thinkEnd = m[0].toLowerCase().endsWith(closing) ? end - closing.length : end;
    const pieces = reasoningLessCalls(text, m.index, m.index + tag.length + 2, end, thinkEnd, inCode, openAt);
    spans.push(...pieces);
    if (pieces.length > 1 && thinkEnd < end) carved.push([m.index, end]);
  }
  if (!spans.length) {
    // Apriel 1.6 ends its reasoning with `[BEGIN FINAL RESPONSE]`.
    for (const lone of matchesOf(LONE_REASONING_ENDS, text)) {
      if (inCode(lone.index)) continue;
      // A call opened on its own line before the closer is carved out, as in a `<think>` block.
      const end = lone.index + lone[0].length;
      const pieces = reasoningLessCalls(text, 0, 0, end, lone.index, inCode, openAt);
      spans.push(...pieces);
      if (pieces.length > 1) carved.push([0, end]);
      break;
    }
  }
  return { spans, carved };
}

/**
 * Calls drafted inside a closed reasoning block are drafts when the model writes a call after the
 * block: only the calls outside run, and each drafting block is reasoning whole, as SGLang-based
 * parsers read it. With no call outside, the calls inside are the model's calls (`reasoningLessCalls`).
 */
export function withoutDrafts(calls: Span[], carved: readonly [number, number][]): { calls: Span[]; drafts: [number, number][] } {
  if (!carved.length) return { calls, drafts: [] };
  const blocks = new Regions(carved);
  const outside = calls.filter((s) => !blocks.contains(s.start));
  if (!outside.some((s) => s.calls.length > 0) || outside.length === calls.length) return { calls, drafts: [] };
  // The blocks holding a call: spans and blocks are both in order, so one walk finds them.
  const drafts: [number, number][] = [];
  let b = 0;
  for (const span of calls) {
    while (b < carved.length && carved[b]![1] <= span.start) b++;
    const block = carved[b];
    if (block && span.start >= block[0] && drafts.at(-1) !== block) drafts.push(block);
  }
  return { calls: outside, drafts };
}
