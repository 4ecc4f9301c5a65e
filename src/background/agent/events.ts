import type { ToolCallStatus } from '../../shared/conversation';
import type { ResultPart } from '../../shared/tool-parts';
import type { ToolCall } from '../llm/types';

/** What the loop reports as it goes; the turn recorder turns these into conversation state. */
export type AgentEvent =
  | { type: 'step'; step: number; limit: number }
  | { type: 'tool_mode'; mode: 'native' | 'xml'; reason: string }
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string }
  | { type: 'text'; delta: string; reset?: boolean }
  /** The model's message for this step is complete (its text and the calls it asked for). */
  | { type: 'assistant'; content: string; toolCalls: ToolCall[] }
  | {
      type: 'tool';
      call: ToolCall;
      status: ToolCallStatus;
      /** The result as text (what the model reads, unfenced; images named in place). */
      content?: string;
      /** The result's parts, when it has more than text (images, structured data). */
      parts?: ResultPart[];
      preview?: string;
      durationMs?: number;
      /** Arguments whose values are secret (a typed password): shown to the user as [redacted]. */
      masked?: string[];
    };

export type AgentOutcome =
  | { kind: 'answered'; text: string }
  | { kind: 'done'; summary: string }
  | { kind: 'asked_user'; question: string }
  | { kind: 'step_limit'; message: string }
  | { kind: 'time_limit'; message: string }
  | { kind: 'repeat'; message: string }
  | { kind: 'empty'; message: string }
  | { kind: 'stopped' };
