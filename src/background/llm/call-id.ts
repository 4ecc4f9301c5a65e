/**
 * An id for a tool call. Ollama and text-mode calls come without one, and a server's own ids may
 * repeat between turns; the conversation needs them unique from start to end.
 */
export function callId(index: number): string {
  return `call_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}_${index}`;
}
