import type { ModelInfo } from '../../shared/protocol';
import type { ModelCapabilities } from './capabilities';
import type { ProviderKind } from '../../shared/settings';

export type { ModelInfo };

/** A tool call as the model asked for it: complete and parsed, not yet validated. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Set when the model's arguments were not valid JSON; the loop reports it back to the model. */
  argumentsError?: string;
  /** Set when the call was read from the model's text: the markup it was written as (shown on demand, as text). */
  raw?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** An image for the model: JPEG, PNG or WebP bytes in plain base64. */
export interface LlmImage {
  mimeType: string;
  data: string;
}

/**
 * A message to the model. Images ride on user messages and on tool results; the router takes
 * them out (leaving a note) for a model that does not take images, and each provider puts a tool
 * result's images where its wire format can carry them.
 */
export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: LlmImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string; name: string; images?: LlmImage[] };

export interface ChatRequest {
  model: string;
  messages: LlmMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  /** Context window to ask for (Ollama's num_ctx); providers that size it themselves ignore it. */
  contextTokens?: number;
  /**
   * The JSON Schema the reply must match (constrained mode): sent as Ollama's `format`, or as
   * OpenAI's `response_format` of type `json_schema` under `name`.
   */
  responseSchema?: { name: string; schema: Record<string, unknown> };
}

export type ChatEvent =
  /** `reset`: what was shown of this reply so far was reasoning; `delta` replaces it. */
  | { type: 'text'; delta: string; reset?: boolean }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; promptTokens: number; completionTokens: number }
  | { type: 'done'; finishReason: string };

export interface LlmProvider {
  readonly id: ProviderKind;
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  /** Tools, vision and context length: from the server where it says, else a known-models table. */
  describeModel(model: string, signal?: AbortSignal): Promise<ModelCapabilities>;
  chat(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatEvent>;
}
