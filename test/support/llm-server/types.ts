import type { ServerResponse } from 'node:http';
import type { ReceivedImage } from './images';

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** OpenAI wire only: the arguments string sent instead of `arguments` as JSON (to send broken JSON). */
  rawArguments?: string;
}

export type Fault =
  | 'tools_unsupported'
  /** The server refuses a reply schema (Ollama `format`, OpenAI `response_format` json_schema), as one that cannot constrain decoding. */
  | 'schema_unsupported'
  | 'unauthorized'
  | 'forbidden'
  | 'unknown_model'
  | 'rate_limited'
  | 'server_error'
  | 'cut_stream'
  | 'malformed_json'
  | 'hang';

export interface ScriptedReply {
  /** Assistant content, streamed in chunks. */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Characters per streamed text chunk (default 8). */
  chunkSize?: number;
  /** Delay before the first byte. */
  delayMs?: number;
  /** Delay between chunks. */
  chunkDelayMs?: number;
  fault?: Fault;
  /** The stop reason the server gives (default `stop`, or `tool_calls` with calls); `length`: cut at the output limit. */
  finishReason?: string;
  /** Sent even when it does not match the request's reply schema: a server that takes the schema but does not constrain to it. */
  ignoreSchema?: boolean;
  /** With `rate_limited`: the Retry-After header, in seconds. */
  retryAfterSec?: number;
  usage?: { promptTokens: number; completionTokens: number };
}

export interface RecordedRequest {
  api: 'openai' | 'ollama';
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON as the client sent it
  body: any;
  model?: string;
  at: number;
  /** When the exchange ended: the reply was sent, or the client dropped the connection (unset while it lasts). */
  endedAt?: number;
  /** Images in a chat request, decoded from the wire (OpenAI image_url data URLs, Ollama images). */
  images: ReceivedImage[];
}

export type ReplyScript = ScriptedReply | ((request: RecordedRequest) => ScriptedReply);

export interface ModelSpec {
  name: string;
  tools?: boolean;
  /** false: the server refuses reply schemas for this model (the `schema_unsupported` fault). */
  schema?: boolean;
  /** Said by Ollama's /api/show, and by /v1/models as OpenRouter does (input_modalities), when set. */
  vision?: boolean;
  contextLength?: number;
  /** Ollama's details.parameter_size in /api/show and /api/tags (default "3B"). */
  parameterSize?: string;
  /** As an Ollama with this model loaded: /api/ps lists it with this context length (no model with it: no /api/ps). */
  loadedContext?: number;
}

/** The reply a chat request gets, once faults implied by the model list are applied. */
export interface Turn {
  reply: ScriptedReply;
  request: RecordedRequest;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Ends the connection mid-body, the way a crashed server or a dropped network does: what was
 * sent arrives, then the socket closes without the end of the chunked body.
 */
export async function cutConnection(res: ServerResponse): Promise<void> {
  await new Promise<void>((resolve) => res.write('', () => resolve()));
  await sleep(30);
  res.socket?.end();
}

export function chunksOf(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
