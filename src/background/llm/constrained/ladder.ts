/**
 * How `auto` picks a model's tool-call mode: native calls first, then replies constrained to a
 * JSON schema, then the text protocol. A server's answer moves a model down the ladder (native
 * tools rejected, or a model the server says has none; the reply format rejected, or ignored),
 * and the lesson is remembered per model.
 */
import type { ToolModeReason } from '../../../shared/conversation';
import type { ToolCallMode } from '../../../shared/settings';
import type { LearntMode } from '../capabilities';
import type { ModelCapabilities } from '../capabilities';
import { LlmError } from '../errors';

export type ReplyMode = 'native' | 'constrained' | 'xml';

/**
 * `model_has_no_tools`: the server lists the model's capabilities, and tools are not among them;
 * `rejected`: the server refused the request's tools, or its reply format; `schema_ignored`: the
 * server took the reply format but did not keep to it.
 */
export type ModeReason = ToolModeReason;

export interface ModeChoice {
  mode: ReplyMode;
  reason: ModeReason;
}

export function firstMode(configured: ToolCallMode, remembered: LearntMode | undefined, caps: ModelCapabilities): ModeChoice {
  if (configured !== 'auto') return { mode: configured, reason: 'configured' };
  if (remembered) return { mode: remembered, reason: 'remembered' };
  if (caps.tools === false && caps.source === 'server') return { mode: 'constrained', reason: 'model_has_no_tools' };
  return { mode: 'native', reason: 'configured' };
}

/** The next rung after `mode` failed with `error`, when the error says the mode cannot work here. */
export function nextMode(mode: ReplyMode, error: unknown): (ModeChoice & { mode: LearntMode }) | undefined {
  if (!(error instanceof LlmError)) return undefined;
  if (mode === 'native' && error.code === 'tools_unsupported') return { mode: 'constrained', reason: 'rejected' };
  if (mode === 'constrained' && error.code === 'schema_unsupported') return { mode: 'xml', reason: 'rejected' };
  if (mode === 'constrained' && error.code === 'schema_ignored') return { mode: 'xml', reason: 'schema_ignored' };
  return undefined;
}
