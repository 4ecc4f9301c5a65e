import type { ChatMessage } from '../../shared/conversation';
import type { LlmMessage } from '../llm/types';
import { renderForModel, toolResultMessage } from './parts';

/**
 * The stored conversation as the model reads it: user turns, answers with the calls they made,
 * and each call's result. Failed answers and results whose call is missing are left out, so the
 * model never sees a half-formed exchange.
 */
export function toLlmHistory(messages: readonly ChatMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  const openCalls = new Set<string>();
  for (const m of messages) {
    if (m.role === 'user') {
      out.push({ role: 'user', content: m.content });
    } else if (m.role === 'assistant') {
      if (!m.content && !m.toolCalls?.length) continue;
      out.push({ role: 'assistant', content: m.content, ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}) });
      for (const call of m.toolCalls ?? []) openCalls.add(call.id);
    } else if (openCalls.delete(m.toolCallId)) {
      // A result with parts (images, data) is read from them; older results are text only.
      const rendered = m.parts?.length ? renderForModel(m.parts) : { text: m.content, images: [] };
      const text = rendered.text || (m.status === 'done' ? 'Done.' : `The call did not complete (${m.status}).`);
      out.push(toolResultMessage({ id: m.toolCallId, name: m.name }, text, rendered.images));
    }
  }
  // A call whose result was never recorded (the browser closed mid-task) gets one, as chat APIs require.
  for (const [index, m] of [...out.entries()].reverse()) {
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    const answered = new Set(out.slice(index + 1).flatMap((x) => (x.role === 'tool' ? [x.toolCallId] : [])));
    const missing = m.toolCalls.filter((c) => !answered.has(c.id));
    out.splice(index + 1, 0, ...missing.map((c): LlmMessage => ({ role: 'tool', content: 'The call was interrupted.', toolCallId: c.id, name: c.name })));
  }
  return out;
}
