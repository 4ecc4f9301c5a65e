/** The OpenAI chat-completions wire format: SSE streaming and plain JSON, with tool calls. */
import type { ServerResponse } from 'node:http';
import { chunksOf, cutConnection, sleep, type Turn } from './types';

const CORS = { 'access-control-allow-origin': '*' };

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...CORS, ...headers });
  res.end(JSON.stringify(body));
}

export function openAiError(res: ServerResponse, status: number, message: string, type: string, code: string | null, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { message, type, param: null, code } }, headers);
}

function chunk(id: string, model: string, delta: object, finish: string | null = null) {
  return { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

export async function streamOpenAi(res: ServerResponse, { reply, request }: Turn, cut: boolean): Promise<void> {
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`;
  const model = request.model ?? 'model';
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...CORS });
  const send = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  send(chunk(id, model, { role: 'assistant', content: '' }));
  const pieces = chunksOf(reply.text ?? '', reply.chunkSize ?? 8);
  for (const [i, piece] of pieces.entries()) {
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    if (res.destroyed) return; // the client went away (Stop), as a real server notices
    send(chunk(id, model, { content: piece }));
    if (cut && i >= Math.floor(pieces.length / 2)) return cutConnection(res);
  }
  if (cut) return cutConnection(res);
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const args = call.rawArguments ?? JSON.stringify(call.arguments);
    const callId = `call_${Math.random().toString(36).slice(2, 10)}`;
    send(chunk(id, model, { tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }));
    // Arguments arrive in fragments, as real servers send them.
    for (const part of chunksOf(args, 7)) send(chunk(id, model, { tool_calls: [{ index, function: { arguments: part } }] }));
  }
  send(chunk(id, model, {}, reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (request.body?.stream_options?.include_usage) {
    const usage = reply.usage ?? { promptTokens: 10, completionTokens: pieces.length };
    send({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens } });
  }
  send('[DONE]');
  res.end();
}

export function completeOpenAi(res: ServerResponse, { reply, request }: Turn): void {
  const usage = reply.usage ?? { promptTokens: 10, completionTokens: 5 };
  const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({ id: `call_${i}`, type: 'function', function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments) } }));
  sendJson(res, 200, {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply.text ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop') }],
    usage: { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens },
  });
}
