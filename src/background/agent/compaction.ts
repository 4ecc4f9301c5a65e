import { estimateRequestTokens } from '../llm/context-budget';
import type { LlmMessage, ToolSpec } from '../llm/types';

/** What the model reads where a tool result was cut to its budget, so it can ask for more. */
export function cutNote(omitted: number): string {
  return `[… ${omitted} more characters cut to fit the context. Ask for a specific part if you need it.]`;
}

const COMPACTED = '[Earlier tool result removed to save context.]';

/**
 * Makes a conversation fit the model's context window: first older tool results shrink to a
 * stub (the last `keepRecent` stay whole), then the oldest turns go, always keeping the system
 * prompt and the latest user message. The input is not modified.
 */
export function fitToBudget(messages: readonly LlmMessage[], budgetTokens: number, tools: readonly ToolSpec[] = [], keepRecent = 2): LlmMessage[] {
  const out = messages.map((m) => ({ ...m }));
  if (estimateRequestTokens(out, tools) <= budgetTokens) return out;

  const toolIndexes = out.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  for (const i of toolIndexes.slice(0, Math.max(0, toolIndexes.length - keepRecent))) {
    const { images: _dropped, ...message } = out[i] as Extract<LlmMessage, { role: 'tool' }>;
    out[i] = { ...message, content: COMPACTED };
    if (estimateRequestTokens(out, tools) <= budgetTokens) return out;
  }

  const lastUser = out.map((m) => m.role).lastIndexOf('user');
  const head = out[0]?.role === 'system' ? [out[0]] : [];
  let body = out.slice(head.length);
  const pinned = lastUser >= head.length ? lastUser - head.length : -1;
  let dropped = 0;
  while (body.length > 1 && estimateRequestTokens([...head, ...body], tools) > budgetTokens) {
    // Never drop the current request; never leave a tool result without the call before it.
    if (pinned - dropped === 0) break;
    body = body.slice(1);
    dropped++;
    while (body[0]?.role === 'tool') {
      body = body.slice(1);
      dropped++;
    }
  }
  if (dropped && head[0]) head[0] = { ...head[0], content: `${head[0].content}\n\n[Earlier messages were omitted to fit the context window.]` };
  return [...head, ...body];
}
