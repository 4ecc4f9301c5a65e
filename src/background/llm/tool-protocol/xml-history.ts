import type { LlmMessage, ToolCall } from '../types';

/**
 * A tool call written the way the text protocol asks models to write them, so that a model in
 * text mode sees its own earlier calls in the format it is told to use.
 */
export function formatToolCall(call: Pick<ToolCall, 'name' | 'arguments'>): string {
  return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}

function toolResult(message: Extract<LlmMessage, { role: 'tool' }>): string {
  return `<tool_result name="${message.name.replace(/[^\w-]/g, '')}">\n${message.content}\n</tool_result>`;
}

/**
 * Rewrites a conversation for a model without native tool calling: the catalogue joins the
 * system prompt, earlier calls become text, and tool results come back as user turns
 * (consecutive results in one turn, as most chat templates expect strict alternation), with
 * their images.
 */
export function toTextToolMessages(messages: readonly LlmMessage[], catalogue: string): LlmMessage[] {
  const out: LlmMessage[] = [];
  const hasSystem = messages[0]?.role === 'system';
  if (!hasSystem) out.push({ role: 'system', content: catalogue });
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system') {
      out.push({ role: 'system', content: index === 0 ? `${message.content}\n\n${catalogue}` : message.content });
    } else if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map(formatToolCall);
      out.push({ role: 'assistant', content: [message.content, ...calls].filter(Boolean).join('\n') });
    } else if (message.role === 'tool') {
      // The result's images ride on the user turn that carries it.
      const previous = out.at(-1);
      const images = message.images ?? [];
      if (previous?.role === 'user' && previous.content.startsWith('<tool_result')) {
        previous.content += `\n${toolResult(message)}`;
        if (images.length) previous.images = [...(previous.images ?? []), ...images];
      } else out.push({ role: 'user', content: toolResult(message), ...(images.length ? { images: [...images] } : {}) });
    } else {
      out.push(message);
    }
  }
  return out;
}
