/**
 * Constrained mode on one turn: the request (no native tools; the step schema as the reply
 * format; the catalogue and history in the shape the model is asked for), and the reply read
 * back into the same events the other modes produce.
 */
import { say } from '../../../shared/i18n';
import { callId } from '../call-id';
import { LlmError } from '../errors';
import type { ChatEvent, ChatRequest } from '../types';
import { constrainedCatalogue, toConstrainedMessages } from './messages';
import { readStep, StepReader } from './step-reader';
import { STEP_SCHEMA_NAME, stepSchema } from './schema';

/** The markup kept with a call, for the timeline. */
const MAX_RAW_CHARS = 4000;

export function constrainedRequest(request: ChatRequest): ChatRequest {
  const tools = request.tools ?? [];
  return {
    ...request,
    tools: undefined,
    messages: toConstrainedMessages(request.messages, constrainedCatalogue(tools)),
    responseSchema: { name: STEP_SCHEMA_NAME, schema: stepSchema(tools) },
  };
}

/**
 * Shows a final answer's text while it streams (nothing of a call), then reads the whole reply.
 * Shaped like the text protocol's markup filter, so the router streams both the same way.
 */
export class StepReply {
  private readonly reader = new StepReader();
  private shown = '';

  push(delta: string): string {
    const text = this.reader.push(delta);
    this.shown += text;
    return text;
  }

  flush(): string {
    return '';
  }

  takeRetraction(): boolean {
    return false;
  }

  /**
   * The step the whole reply holds. A reply that is not a step object means the server did not
   * constrain its output: that is an error here (the router's `auto` falls back to text tool
   * calls), never a guess at what the text might mean. A reply the server cut at its token limit
   * is incomplete, not unconstrained: its own error, so `auto` does not give up on the mode.
   */
  *finish(reply: string, finishReason: string): Generator<ChatEvent> {
    const step = readStep(reply);
    if (step.kind === 'invalid' && finishReason === 'length') throw new LlmError('bad_response', say('errorStepCut'), { hint: say('hintStepCut') });
    if (step.kind === 'invalid') throw schemaIgnored(step.problem);
    if (step.kind === 'answer') {
      // The streamed text is the answer; should the two differ, the whole answer replaces it.
      if (step.text !== this.shown) yield { type: 'text', delta: step.text, reset: true };
      return;
    }
    const raw = reply.length > MAX_RAW_CHARS ? `${reply.slice(0, MAX_RAW_CHARS)}…` : reply;
    yield { type: 'tool_call', call: { id: callId(0), name: step.name, arguments: step.arguments, ...(step.argumentsError ? { argumentsError: step.argumentsError } : {}), raw: raw.trim() } };
  }
}

export function schemaIgnored(problem: string): LlmError {
  return new LlmError('schema_ignored', say('errorSchemaIgnored', problem), { hint: say('hintSchemaIgnored') });
}
