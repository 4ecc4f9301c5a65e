import type { ToolCallStatus, ToolModeReason } from '../../shared/conversation';
import type { Localized } from '../../shared/i18n';
import type { ResultPart } from '../../shared/tool-parts';
import type { ToolCall } from '../llm/types';
import type { ToolTier } from '../../shared/settings';
import type { RepairKind } from './repair';
import type { TierReason } from './tool-tier';

/** What the loop reports as it goes; the turn recorder turns these into conversation state. */
export type AgentEvent =
  | { type: 'step'; step: number; limit: number }
  | { type: 'tool_mode'; mode: 'native' | 'constrained' | 'xml'; reason: ToolModeReason }
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string }
  /** The tool set this step offers the model, and why. */
  | { type: 'tool_tier'; tier: ToolTier; reason: TierReason }
  /** The step's reply had a call that could not run: the model is asked once to correct it (`text` is the timeline's row). */
  | { type: 'repair'; problem: RepairKind; name?: string; text: Localized }
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
      previewText?: Localized;
      durationMs?: number;
      /** Arguments whose values are secret (a typed password): shown to the user as [redacted]. */
      masked?: string[];
    };

/** Why the loop stopped before an answer; the user is told in `text`. */
export type StopKind = 'step_limit' | 'time_limit' | 'repeat' | 'empty' | 'invalid_call';

export type AgentOutcome =
  | { kind: 'answered'; text: string }
  | { kind: 'done'; summary: string }
  | { kind: 'asked_user'; question: string }
  | { kind: StopKind; message: string; text: Localized }
  | { kind: 'stopped' };
