import { Ollama, type ChatResponse, type Message, type Tool } from 'ollama/browser';
import { capabilitiesFromTable, type ModelCapabilities } from '../capabilities';
import { callId } from '../call-id';
import { hoistToolImages } from '../images';
import { Deadline } from '../deadline';
import { say } from '../../../shared/i18n';
import { fromStatus, isAbortError, isErrorNamed, isNetworkError, LlmError, streamCut, unreachable, type ErrorContext } from '../errors';
import type { ChatEvent, ChatRequest, LlmMessage, LlmProvider, ModelInfo, ToolSpec } from '../types';

export interface OllamaProviderConfig {
  baseUrl: string;
  idleTimeoutMs: number;
}

interface ResponseErrorLike {
  name: string;
  status_code: number;
  error: string;
}

/** A local Ollama server, through the official client's browser build. */
export function createOllamaProvider(config: OllamaProviderConfig): LlmProvider {
  const host = config.baseUrl.replace(/\/+$/, '');
  const context = (model?: string): ErrorContext => ({ kind: 'ollama', baseUrl: host, model });
  // One client per request, so each request's own signal reaches fetch (the client only offers
  // abort-all, and only once the stream has started).
  const clientFor = (signal: AbortSignal) =>
    new Ollama({ host, fetch: (input, init) => fetch(input, { ...init, signal: mergeSignals(init?.signal, signal) }) });

  /** A one-shot request under the idle deadline, with errors mapped. */
  const request = async <T>(signal: AbortSignal | undefined, ctx: ErrorContext, call: (client: Ollama) => Promise<T>): Promise<T> => {
    const deadline = new Deadline(signal ?? new AbortController().signal, config.idleTimeoutMs);
    try {
      return await call(clientFor(deadline.signal));
    } catch (error) {
      throw toLlmError(error, ctx, deadline.timedOut);
    } finally {
      deadline.dispose();
    }
  };

  return {
    id: 'ollama',
    async listModels(signal) {
      const { models } = await request(signal, context(), (client) => client.list());
      return models.map((m): ModelInfo => ({ id: m.name }));
    },
    async describeModel(model, signal) {
      const shown = await request(signal, context(model), (client) => client.show({ model }));
      return capabilitiesFromShow(shown, model);
    },
    chat(request, signal) {
      return streamChat(clientFor, request, signal, config.idleTimeoutMs, context(request.model));
    },
  };
}

async function* streamChat(
  clientFor: (signal: AbortSignal) => Ollama,
  request: ChatRequest,
  signal: AbortSignal,
  idleMs: number,
  ctx: ErrorContext,
): AsyncGenerator<ChatEvent> {
  const deadline = new Deadline(signal, idleMs);
  let last: ChatResponse | undefined;
  let callIndex = 0;
  let started = false;
  try {
    const stream = await clientFor(deadline.signal).chat({
      model: request.model,
      messages: hoistToolImages(request.messages).map(toWireMessage),
      stream: true,
      ...(request.tools?.length ? { tools: request.tools.map(toWireTool) } : {}),
      // Ollama constrains decoding to a JSON Schema given as `format` (0.5 and later).
      ...(request.responseSchema ? { format: request.responseSchema.schema } : {}),
      options: {
        ...(request.contextTokens ? { num_ctx: request.contextTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      },
    });
    started = true;
    for await (const chunk of stream) {
      deadline.touch();
      last = chunk;
      if (chunk.message?.content) yield { type: 'text', delta: chunk.message.content };
      for (const call of chunk.message?.tool_calls ?? []) {
        yield { type: 'tool_call', call: { id: callId(callIndex++), name: call.function.name, arguments: call.function.arguments ?? {} } };
      }
    }
  } catch (error) {
    // The client skips lines that are not JSON, then complains that no "done" came: with
    // nothing readable at all, the server sent something else than Ollama's stream.
    if (!last && error instanceof Error && /did not receive done/i.test(error.message)) throw badReply();
    // fetch rejects with a TypeError both when nothing listens and when a stream dies mid-way.
    if (started && isNetworkError(error) && !deadline.timedOut) throw streamCut();
    throw toLlmError(error, ctx, deadline.timedOut);
  } finally {
    deadline.dispose();
  }
  if (!last) throw badReply();
  if (!last.done) throw streamCut();
  yield { type: 'usage', promptTokens: last.prompt_eval_count ?? 0, completionTokens: last.eval_count ?? 0 };
  yield { type: 'done', finishReason: last.done_reason || 'stop' };
}

/** /api/show lists capabilities ("tools", "vision") and the context length under "<arch>.context_length". */
export function capabilitiesFromShow(shown: { capabilities?: string[]; model_info?: unknown; details?: unknown }, model: string): ModelCapabilities {
  const info = (shown.model_info ?? {}) as Record<string, unknown>;
  const lengthKey = Object.keys(info).find((k) => k.endsWith('.context_length'));
  const contextLength = lengthKey ? Number(info[lengthKey]) : NaN;
  const fallback = capabilitiesFromTable(model);
  const size = sizeOf(shown.details);
  if (!Array.isArray(shown.capabilities)) return { ...fallback, ...(contextLength > 0 ? { contextLength } : {}), ...size };
  return {
    tools: shown.capabilities.includes('tools'),
    vision: shown.capabilities.includes('vision'),
    contextLength: contextLength > 0 ? contextLength : fallback.contextLength,
    source: 'server',
    ...size,
  };
}

const PARAMETER_SIZE = /^\s*(\d{1,5}(?:\.\d{1,3})?)\s*([KMBT])\s*$/i;
const BILLIONS_PER_UNIT: Record<string, number> = { K: 1e-6, M: 1e-3, B: 1, T: 1e3 };

/** `details.parameter_size` ("3.2B", "270M") and `details.family`, where /api/show gives them. */
function sizeOf(details: unknown): Pick<ModelCapabilities, 'parameterBillions' | 'family'> {
  if (!details || typeof details !== 'object') return {};
  const { parameter_size: size, family } = details as { parameter_size?: unknown; family?: unknown };
  const match = typeof size === 'string' && size.length < 20 ? PARAMETER_SIZE.exec(size) : null;
  return {
    ...(match ? { parameterBillions: Number(match[1]) * BILLIONS_PER_UNIT[match[2]!.toUpperCase()]! } : {}),
    ...(typeof family === 'string' && family ? { family: family.slice(0, 60) } : {}),
  };
}

function toWireTool(tool: ToolSpec): Tool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters as Tool['function']['parameters'] } };
}

function toWireMessage(message: LlmMessage): Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content, ...(message.images?.length ? { images: message.images.map((image) => image.data) } : {}) };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length ? { tool_calls: message.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) } : {}),
      };
    case 'tool':
      // Images on a tool message reach the model only with some templates: `hoistToolImages` has moved them to a user message.
      return { role: 'tool', content: message.content, tool_name: message.name } as Message;
  }
}

function mergeSignals(a: AbortSignal | null | undefined, b: AbortSignal): AbortSignal {
  return a ? AbortSignal.any([a, b]) : b;
}

function badReply(): LlmError {
  return new LlmError('bad_response', say('errorOllamaBadJson'), { hint: say('hintOllamaBadJson') });
}

function isResponseError(error: unknown): error is ResponseErrorLike {
  return error instanceof Error && error.name === 'ResponseError' && typeof (error as Partial<ResponseErrorLike>).status_code === 'number';
}

function toLlmError(error: unknown, ctx: ErrorContext, timedOut: boolean): LlmError {
  if (error instanceof LlmError) return error;
  if (timedOut) {
    return new LlmError('timeout', say('errorOllamaTimeout'), {
      hint: say('hintOllamaTimeout'),
    });
  }
  if (isAbortError(error)) return new LlmError('aborted', say('stopped'));
  if (isResponseError(error)) return fromStatus(error.status_code, error.error, ctx);
  if (isErrorNamed(error, 'SyntaxError')) return badReply();
  if (error instanceof Error && /did not receive done/i.test(error.message)) return streamCut();
  if (isNetworkError(error)) return unreachable(ctx);
  return new LlmError('bad_response', error instanceof Error ? error.message : String(error));
}
