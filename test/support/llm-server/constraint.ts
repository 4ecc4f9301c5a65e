/**
 * A constraining server's guarantee, enforced on the script: when a chat request carries a reply
 * schema (Ollama's `format` object, OpenAI's `response_format` of type `json_schema`), the scripted
 * reply must validate against it, or the server refuses to send it. A test then cannot pass with
 * a reply that a server decoding against the schema could never have produced.
 */
import { checkAgainstSchema } from '../json-schema';
import type { RecordedRequest, ScriptedReply } from './types';

/** The JSON Schema the request constrains its reply to, if any. */
export function replySchemaOf(request: RecordedRequest): Record<string, unknown> | undefined {
  const body = request.body as { format?: unknown; response_format?: { type?: string; json_schema?: { schema?: unknown } } } | undefined;
  const schema = request.api === 'ollama' ? body?.format : body?.response_format?.type === 'json_schema' ? body.response_format.json_schema?.schema : undefined;
  return schema && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : undefined;
}

/** Why a constraining server could not have produced this reply to this request; undefined when it could. */
export function schemaViolation(request: RecordedRequest, reply: ScriptedReply): string | undefined {
  const schema = replySchemaOf(request);
  // A reply cut at the output limit is the start of a conforming one, not one: not checked.
  if (!schema || reply.fault || reply.ignoreSchema || reply.finishReason === 'length') return undefined;
  if (reply.toolCalls?.length) return 'a reply constrained to a JSON schema carries no native tool calls';
  const checked = checkAgainstSchema(schema, reply.text ?? '');
  return checked.ok ? undefined : checked.problem;
}
