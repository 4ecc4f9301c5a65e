import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseFormatJSONSchema } from 'openai/resources/shared';
import { say } from '../../../shared/i18n';
import type { ProviderKind } from '../../../shared/settings';
import { capabilitiesFromTable, type ModelCapabilities } from '../capabilities';
import { Deadline } from '../deadline';
import { fromStatus, isAbortError, isErrorNamed, isNetworkError, label, LlmError, parseRetryAfter, streamCut, unreachable, type ErrorContext } from '../errors';
import { callId } from '../call-id';
import { hoistToolImages } from '../images';
import { isStrictCompatible } from '../constrained/schema';
import type { ChatEvent, ChatRequest, LlmMessage, LlmProvider, ModelInfo, ToolCall, ToolSpec } from '../types';

export interface OpenAiProviderConfig {
  kind: Exclude<ProviderKind, 'ollama'>;
  baseUrl: string;
  apiKey: string;
  idleTimeoutMs: number;
  headers?: Record<string, string>;
  /** The window the server really gives a model, where it says (OpenAI-compatible servers only). */
  probeContext?: (model: string, signal?: AbortSignal) => Promise<number | undefined>;
}

/** OpenAI, OpenRouter and every OpenAI-compatible server, through the official client. */
export function createOpenAiProvider(config: OpenAiProviderConfig): LlmProvider {
  const client = new OpenAI({
    baseURL: config.baseUrl.replace(/\/+$/, ''),
    // Local servers need no key, but the client insists on one; they ignore it.
    apiKey: config.apiKey || 'no-key',
    dangerouslyAllowBrowser: true, // runs in the extension's background page, never in a web page
    maxRetries: 0, // retries are the router's decision, so they can honour Retry-After and Stop
    timeout: config.idleTimeoutMs,
    defaultHeaders: config.headers,
  });
  const context = (model?: string): ErrorContext => ({ kind: config.kind, baseUrl: config.baseUrl, model });
  let listed: Map<string, ModelCapabilities> | undefined;

  const listModels = async (signal?: AbortSignal): Promise<ModelInfo[]> => {
    try {
      const page = await client.models.list({ signal });
      listed = new Map(page.data.map((m) => [m.id, capabilitiesFromListing(m as RichModel)]));
      return page.data.map((m): ModelInfo => {
        const caps = listed?.get(m.id);
        return { id: m.id, tools: caps?.tools, vision: caps?.vision, contextLength: caps?.contextLength };
      });
    } catch (error) {
      throw toLlmError(error, context());
    }
  };

  return {
    id: config.kind,
    listModels,
    async describeModel(model, signal) {
      if (!listed) await listModels(signal).catch(() => undefined);
      const known = listed?.get(model) ?? capabilitiesFromTable(model);
      // A local server may run the model with a smaller window than the model supports.
      const served = await config.probeContext?.(model, signal).catch(() => undefined);
      return served ? { ...known, contextLength: served } : known;
    },
    chat(request, signal) {
      return streamChat(client, request, signal, config.idleTimeoutMs, context(request.model));
    },
  };
}

async function* streamChat(
  client: OpenAI,
  request: ChatRequest,
  signal: AbortSignal,
  idleMs: number,
  ctx: ErrorContext,
): AsyncGenerator<ChatEvent> {
  const deadline = new Deadline(signal, idleMs);
  const calls = new ToolCallAssembler();
  let finishReason: string | undefined;
  try {
    const stream = await client.chat.completions.create(
      {
        model: request.model,
        messages: hoistToolImages(request.messages).map(toWireMessage),
        stream: true,
        stream_options: { include_usage: true },
        ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
        ...(request.responseSchema ? { response_format: toResponseFormat(request.responseSchema) } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      },
      { signal: deadline.signal },
    );
    for await (const chunk of stream) {
      deadline.touch();
      yield* eventsOf(chunk, calls);
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
    }
  } catch (error) {
    throw deadline.timedOut ? timeoutError(ctx) : toLlmError(error, ctx);
  } finally {
    deadline.dispose();
  }
  // A stream that ends without a finish reason was cut: the caller keeps what arrived.
  if (!finishReason) throw streamCut();
  for (const call of calls.finish()) yield { type: 'tool_call', call };
  yield { type: 'done', finishReason };
}

/** What servers add to /v1/models beyond the OpenAI fields (OpenRouter, vLLM). */
interface RichModel {
  id: string;
  context_length?: number;
  max_model_len?: number;
  supported_parameters?: string[];
  architecture?: { input_modalities?: string[] };
}

export function capabilitiesFromListing(model: RichModel): ModelCapabilities {
  const table = capabilitiesFromTable(model.id);
  const contextLength = model.context_length ?? model.max_model_len;
  const tools = model.supported_parameters ? model.supported_parameters.includes('tools') : table.tools;
  const vision = model.architecture?.input_modalities ? model.architecture.input_modalities.includes('image') : table.vision;
  const fromServer = contextLength !== undefined || model.supported_parameters !== undefined;
  return { tools, vision, contextLength: contextLength ?? table.contextLength, source: fromServer ? 'server' : table.source };
}

function* eventsOf(chunk: ChatCompletionChunk, calls: ToolCallAssembler): Generator<ChatEvent> {
  const delta = chunk.choices[0]?.delta;
  if (delta?.content) yield { type: 'text', delta: delta.content };
  for (const part of delta?.tool_calls ?? []) calls.add(part);
  if (chunk.usage) {
    yield { type: 'usage', promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
  }
}

/** Streamed tool calls arrive as fragments keyed by index; this joins them into whole calls. */
class ToolCallAssembler {
  private readonly parts = new Map<number, { id: string; name: string; args: string }>();

  add(part: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const entry = this.parts.get(part.index) ?? { id: '', name: '', args: '' };
    entry.id ||= part.id ?? '';
    entry.name += part.function?.name ?? '';
    entry.args += part.function?.arguments ?? '';
    this.parts.set(part.index, entry);
  }

  finish(): ToolCall[] {
    return [...this.parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, p]) => ({ id: p.id || callId(index), name: p.name, ...parseArguments(p.args) }));
  }
}

export function parseArguments(raw: string): Pick<ToolCall, 'arguments' | 'argumentsError'> {
  if (!raw.trim()) return { arguments: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
    return { arguments: {}, argumentsError: 'The arguments must be a JSON object.' };
  } catch {
    return { arguments: {}, argumentsError: `The arguments were not valid JSON: ${raw.slice(0, 200)}` };
  }
}

/**
 * The reply's JSON Schema as `response_format`. `strict` only where the schema meets OpenAI's
 * strict subset (OpenAI answers other schemas sent as strict with a 400); llama.cpp, vLLM and
 * LM Studio constrain decoding to the schema either way.
 */
function toResponseFormat({ name, schema }: NonNullable<ChatRequest['responseSchema']>): ResponseFormatJSONSchema {
  return { type: 'json_schema', json_schema: { name, schema, strict: isStrictCompatible(schema) } };
}

function toWireTool(tool: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

function toWireMessage(message: LlmMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      if (!message.images?.length) return { role: 'user', content: message.content };
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({ type: 'image_url' as const, image_url: { url: `data:${image.mimeType};base64,${image.data}` } })),
        ],
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      };
    case 'tool':
      // Text only on this wire: `hoistToolImages` has moved the result's images to a user message.
      return { role: 'tool', content: message.content, tool_call_id: message.toolCallId };
  }
}

function timeoutError(ctx: ErrorContext): LlmError {
  return new LlmError('timeout', ctx.kind === 'openai-compatible' ? say('errorServerTimeout') : say('errorProviderTimeout', label(ctx.kind)), {
    hint: say('hintServerTimeout'),
  });
}

function toLlmError(error: unknown, ctx: ErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIUserAbortError || isAbortError(error)) return new LlmError('aborted', say('stopped'));
  if (error instanceof APIError && typeof error.status === 'number') {
    const body = error.error as { message?: string } | undefined;
    return fromStatus(error.status, body?.message ?? error.message, ctx, parseRetryAfter(error.headers?.get?.('retry-after')));
  }
  if (error instanceof APIConnectionError) return unreachable(ctx);
  if (isErrorNamed(error, 'SyntaxError')) return new LlmError('bad_response', say('errorBadJson'), { hint: say('hintOpenAiBadJson') });
  if (isNetworkError(error)) return streamCut();
  return new LlmError('bad_response', error instanceof Error ? error.message : String(error));
}
