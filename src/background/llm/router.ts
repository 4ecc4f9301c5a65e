import { say } from '../../shared/i18n';
import { english } from '../english';
import type { ToolCallMode } from '../../shared/settings';
import { capabilitiesFromTable, ModeCache, type ModelCapabilities } from './capabilities';
import { firstMode, nextMode, type ModeReason, type ReplyMode } from './constrained/ladder';
import { constrainedRequest, StepReply } from './constrained/reply';
import { contextWindowFor, estimateRequestTokens } from './context-budget';
import { LlmError } from './errors';
import { prepareImages } from './images';
import { callId } from './call-id';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry';
import { parseToolCalls } from './tool-protocol/parse';
import { parseCutReply } from './tool-protocol/cut-reply';
import { createToolMarkupFilter } from './tool-protocol/stream-filter';
import { toTextToolMessages } from './tool-protocol/xml-history';
import { formatToolCatalogue } from './tool-protocol/xml-prompt';
import type { ToolCallInvalidEvent } from './tool-protocol/failures';
import type { ChatEvent, ChatRequest, LlmProvider, ToolCall, ToolSpec } from './types';

export type RouterEvent =
  | ChatEvent
  | ToolCallInvalidEvent
  | { type: 'tool_mode'; mode: ReplyMode; reason: ModeReason }
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string };

export interface RouterDeps {
  provider: LlmProvider;
  /** Identifies provider + server + model in the mode cache. */
  cacheKey(model: string): string;
  modeCache: ModeCache;
  retry?: RetryPolicy;
  /** The context window the user set for a model, in tokens: it wins over what the server says. */
  contextOverride?(model: string): number | undefined;
  /** Whether a model reads images, as the user set it: it wins over what the server says. */
  visionOverride?(model: string): boolean | undefined;
}

/** Past this many characters a reply is not read further: model output is untrusted and can be huge. */
export const MAX_REPLY_CHARS = 256 * 1024;
/** The markup kept with a call read from text, for the timeline. */
const MAX_RAW_CHARS = 4000;

/**
 * One pipeline for every model: native tool calls where the model has them, replies constrained
 * to a JSON schema or the text protocol where it does not, and in `auto` a step down that ladder
 * on the same turn when the server rejects a mode (see `constrained/ladder.ts`). Every way ends in
 * the same `tool_call` events.
 */
export class LlmRouter {
  private readonly capabilities = new Map<string, Promise<ModelCapabilities>>();

  constructor(private readonly deps: RouterDeps) {}

  describe(model: string): Promise<ModelCapabilities> {
    let caps = this.capabilities.get(model);
    if (!caps) {
      const override = this.deps.contextOverride?.(model);
      const vision = this.deps.visionOverride?.(model);
      caps = this.deps.provider
        .describeModel(model)
        .catch(() => capabilitiesFromTable(model))
        .then((known) => (override ? { ...known, contextLength: override } : known))
        .then((known) => (vision === undefined ? known : { ...known, vision }));
      this.capabilities.set(model, caps);
    }
    return caps;
  }

  async *chat(request: ChatRequest, mode: ToolCallMode, signal: AbortSignal): AsyncGenerator<RouterEvent> {
    try {
      yield* this.route(request, mode, signal);
    } catch (error) {
      throw error instanceof LlmError && error.code === 'unknown_model' ? await this.withModelList(error) : error;
    }
  }

  /** An unknown model's error names the models the server does have. */
  private async withModelList(error: LlmError): Promise<LlmError> {
    const models = await this.deps.provider.listModels().catch(() => []);
    if (!models.length) return error;
    const names = models.slice(0, 12).map((m) => m.id);
    const more = models.length - names.length;
    const list = more > 0 ? say('hintModelsOnServerMore', names.join(', '), more) : say('hintModelsOnServer', names.join(', '));
    const { hint } = error.options;
    return new LlmError(error.code, error.text, { ...error.options, hint: typeof hint === 'string' ? `${english(list)} ${hint}` : [list, ...[hint ?? []].flat()] });
  }

  private async *route(request: ChatRequest, mode: ToolCallMode, signal: AbortSignal): AsyncGenerator<RouterEvent> {
    const caps = await this.describe(request.model);
    const tools = request.tools ?? [];
    if (!tools.length) {
      yield* this.stream({ ...request, tools: undefined }, 'native', caps, signal);
      return;
    }
    const key = this.deps.cacheKey(request.model);
    let chosen = firstMode(mode, mode === 'auto' ? await this.deps.modeCache.modeOf(key) : undefined, caps);
    for (;;) {
      if (chosen.mode !== 'native') yield { type: 'tool_mode', mode: chosen.mode, reason: chosen.reason };
      let produced = false;
      try {
        for await (const event of this.stream(request, chosen.mode, caps, signal)) {
          produced ||= event.type === 'text' || event.type === 'tool_call';
          yield event;
        }
        return;
      } catch (error) {
        const next = mode === 'auto' && !produced ? nextMode(chosen.mode, error) : undefined;
        if (!next) throw error;
        await this.deps.modeCache.remember(key, next.mode);
        chosen = next;
      }
    }
  }

  private async *stream(request: ChatRequest, mode: ReplyMode, caps: ModelCapabilities, signal: AbortSignal): AsyncGenerator<RouterEvent> {
    const tools = request.tools ?? [];
    const toolNames = tools.map((t) => t.name);
    const forMode = requestFor(mode, request);
    // A model that does not take images never gets their bytes, only a note saying they were left out.
    const wire: ChatRequest = { ...forMode, messages: prepareImages(forMode.messages, caps.vision === true) };
    const contextTokens = contextWindowFor(estimateRequestTokens(wire.messages, wire.tools), caps.contextLength);
    // Constrained: only a final answer's text is shown as it streams; the reply is read at its end.
    const step = mode === 'constrained' ? new StepReply() : undefined;
    const filter = step ?? createToolMarkupFilter(tools);
    let content = '';
    let nativeCalls = 0;
    let nativeChars = 0;
    const policy: RetryPolicy = { ...(this.deps.retry ?? DEFAULT_RETRY) };
    const retries: RouterEvent[] = [];
    policy.onRetry = (error, delayMs, attempt) => retries.push({ type: 'retrying', attempt, delayMs, reason: error.message });
    // Stops the request when the reply grows past the cap.
    const cap = new AbortController();
    const linked = AbortSignal.any([signal, cap.signal]);

    for await (const event of withRetries(() => this.deps.provider.chat({ ...wire, contextTokens }, linked), linked, policy)) {
      yield* retries.splice(0);
      if (event.type === 'text') {
        const room = MAX_REPLY_CHARS - content.length;
        if (event.delta.length > room) {
          // Show what fits, then stop reading: no call is taken from a reply that was cut.
          content += event.delta.slice(0, room);
          const visible = filter.push(event.delta.slice(0, room)) + filter.flush();
          if (filter.takeRetraction()) yield { type: 'text', delta: visible, reset: true };
          else if (visible) yield { type: 'text', delta: visible };
          cap.abort();
          throw replyTooLong();
        }
        content += event.delta;
        const visible = filter.push(event.delta);
        if (filter.takeRetraction()) yield { type: 'text', delta: visible, reset: true };
        else if (visible) yield { type: 'text', delta: visible };
      } else if (event.type === 'tool_call') {
        nativeCalls++;
        // A native call's arguments are part of the reply: together with the text, within the cap.
        nativeChars += JSON.stringify(event.call.arguments ?? {}).length;
        if (content.length + nativeChars > MAX_REPLY_CHARS) {
          cap.abort();
          throw replyTooLong();
        }
        yield event;
      } else if (event.type === 'done') {
        const rest = filter.flush();
        if (rest) yield { type: 'text', delta: rest };
        // A server that answered with native calls anyway has said what it wants done.
        if (step) yield* nativeCalls ? [] : step.finish(content, event.finishReason);
        // Models sometimes write their calls as text even when offered native tools: read those only
        // when the native channel carried none.
        // In text mode, markup that tries a call but gives none is reported, for the agent's repair turn.
        else if (!nativeCalls && toolNames.length) {
          const parsed = textCalls(content, tools, event.finishReason);
          for (const call of parsed.calls) yield { type: 'tool_call', call };
          if (mode === 'xml') for (const failure of parsed.failures) yield { type: 'tool_call_invalid', failure };
        }
        yield event;
      } else {
        yield event;
      }
    }
  }
}

/** The request as the mode sends it: tools natively, or the catalogue and history rewritten for the mode. */
function requestFor(mode: ReplyMode, request: ChatRequest): ChatRequest {
  switch (mode) {
    case 'native':
      return request;
    case 'constrained':
      return constrainedRequest(request);
    case 'xml':
      return { ...request, tools: undefined, messages: toTextToolMessages(request.messages, formatToolCatalogue((request.tools ?? []).map(asCatalogueEntry))) };
  }
}

function replyTooLong(): LlmError {
  return new LlmError('bad_response', say('errorReplyTooLong', MAX_REPLY_CHARS / 1024), {
    hint: say('hintReplyTooLong'),
  });
}

/**
 * The calls written as text, their arguments shaped by the tools' schemas, and the failed attempts. In a reply the token
 * limit ended, a call it left open is one of the failed attempts: the limit, not the model, ended it.
 */
function textCalls(content: string, tools: readonly ToolSpec[], finishReason: string): { calls: ToolCall[]; failures: ToolCallInvalidEvent['failure'][] } {
  const parsed = finishReason === 'length' ? parseCutReply(content, tools) : parseToolCalls(content, tools);
  return {
    calls: parsed.calls.map((c, i) => ({ id: callId(i), name: c.name, arguments: c.arguments, raw: clip(parsed.raw[i] ?? '') })),
    failures: parsed.failures,
  };
}

function clip(raw: string): string {
  return raw.length > MAX_RAW_CHARS ? `${raw.slice(0, MAX_RAW_CHARS)}…` : raw;
}

function asCatalogueEntry(tool: { name: string; description: string; parameters: Record<string, unknown> }) {
  return { name: tool.name, description: tool.description, parameters: tool.parameters as Parameters<typeof formatToolCatalogue>[0][number]['parameters'] };
}
