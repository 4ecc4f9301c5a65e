/**
 * The scripted LLM server for tests. It speaks the real wire protocols — OpenAI-compatible
 * (/v1/chat/completions SSE and JSON, /v1/models) and Ollama (/api/chat NDJSON, /api/tags,
 * /api/show, /api/version) — so the extension's real `openai` and `ollama` clients talk to it
 * unchanged. Tests queue replies (or a function of the request), inject faults, and read back
 * every request. It listens on 127.0.0.1 only and closes itself after its lifetime.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { replySchemaOf, schemaViolation } from './llm-server/constraint';
import { imagesIn } from './llm-server/images';
import { ollamaShow, ollamaTags, streamOllama } from './llm-server/ollama-wire';
import { completeOpenAi, openAiError, sendJson, streamOpenAi } from './llm-server/openai-wire';
import { sleep, type Fault, type ModelSpec, type RecordedRequest, type ReplyScript, type ScriptedReply, type Turn } from './llm-server/types';

export type { ReceivedImage } from './llm-server/images';
export type { Fault, ModelSpec, RecordedRequest, ReplyScript, ScriptedReply, ScriptedToolCall } from './llm-server/types';

export interface LlmServer {
  url: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  /** Scripted replies refused because they do not validate against the reply schema their request carried. */
  schemaViolations: { request: RecordedRequest; problem: string }[];
  script(...replies: ReplyScript[]): void;
  setFallback(reply: ReplyScript): void;
  setModels(models: ModelSpec[]): void;
  reset(): void;
  close(): Promise<void>;
}

export interface LlmServerOptions {
  models?: ModelSpec[];
  lifetimeMs?: number;
  /** Answer Ollama requests from extension origins with a bare 403, like a stock Ollama. */
  requireOllamaOrigin?: boolean;
  /** OpenAI endpoints then want `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** As a llama.cpp server: /props says the slots' context size. */
  llamaCppContext?: number;
}

const DEFAULT_MODELS: ModelSpec[] = [{ name: 'llama3.2:3b', tools: true, contextLength: 131_072 }];

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function faultResponse(res: ServerResponse, api: 'openai' | 'ollama', fault: Exclude<Fault, 'cut_stream' | 'hang' | 'malformed_json'>, reply: ScriptedReply, model: string): void {
  const retry = { 'retry-after': String(reply.retryAfterSec ?? 1) };
  if (api === 'ollama') {
    const ollama: Record<typeof fault, [number, string]> = {
      tools_unsupported: [400, `registry.ollama.ai/library/${model} does not support tools`],
      schema_unsupported: [400, 'invalid format: a JSON schema for structured outputs is not supported'],
      unauthorized: [401, 'unauthorized'],
      forbidden: [403, ''],
      unknown_model: [404, `model "${model}" not found, try pulling it first`],
      rate_limited: [429, 'too many requests'],
      server_error: [500, 'llama runner process has terminated: exit status 2'],
    };
    const [status, message] = ollama[fault];
    if (status === 403) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end();
      return;
    }
    sendJson(res, status, { error: message }, status === 429 ? retry : {});
    return;
  }
  switch (fault) {
    case 'tools_unsupported':
      return openAiError(res, 400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', 'BadRequestError', '400');
    case 'schema_unsupported':
      return openAiError(res, 400, "Unsupported response_format type 'json_schema'", 'invalid_request_error', 'invalid_request_error');
    case 'unauthorized':
      return openAiError(res, 401, 'Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key');
    case 'forbidden':
      return openAiError(res, 403, 'Your account does not have access to this model.', 'invalid_request_error', 'model_not_available');
    case 'unknown_model':
      return openAiError(res, 404, `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found');
    case 'rate_limited':
      return openAiError(res, 429, 'Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded', retry);
    case 'server_error':
      return openAiError(res, 500, 'The server had an error while processing your request.', 'server_error', null);
  }
}

export async function startLlmServer(options: LlmServerOptions = {}): Promise<LlmServer> {
  let models = options.models ?? DEFAULT_MODELS;
  const requests: RecordedRequest[] = [];
  const schemaViolations: { request: RecordedRequest; problem: string }[] = [];
  let queue: ReplyScript[] = [];
  let fallback: ReplyScript = { text: 'OK' };
  const sockets = new Set<Socket>();

  const nextReply = (request: RecordedRequest): ScriptedReply => {
    const script = queue.shift() ?? fallback;
    return typeof script === 'function' ? script(request) : script;
  };

  /** Faults that the model list implies, as the real servers would answer them. */
  const impliedFault = (request: RecordedRequest): Fault | undefined => {
    const spec = models.find((m) => m.name === request.model);
    if (!spec) return 'unknown_model';
    if (spec.tools === false && Array.isArray(request.body?.tools) && request.body.tools.length) return 'tools_unsupported';
    if (spec.schema === false && replySchemaOf(request)) return 'schema_unsupported';
    return undefined;
  };

  const chat = async (res: ServerResponse, request: RecordedRequest) => {
    const implied = impliedFault(request);
    const reply: ScriptedReply = implied ? { fault: implied } : nextReply(request);
    const violation = schemaViolation(request, reply);
    if (violation) {
      // Loud on purpose: a status no client retries or reads as a fallback, naming the problem.
      schemaViolations.push({ request, problem: violation });
      return sendJson(res, 409, request.api === 'ollama' ? { error: `scripted reply rejected: ${violation}` } : { error: { message: `scripted reply rejected: ${violation}`, type: 'scripted_reply_rejected' } });
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    const turn: Turn = { reply, request };
    const streaming = request.api === 'ollama' ? request.body?.stream !== false : request.body?.stream === true;
    switch (reply.fault) {
      case undefined:
      case 'cut_stream': {
        const cut = reply.fault === 'cut_stream';
        if (request.api === 'ollama') return streamOllama(res, turn, cut);
        return streaming || cut ? streamOpenAi(res, turn, cut) : completeOpenAi(res, turn);
      }
      case 'hang':
        return; // never answer; close() destroys the socket
      case 'malformed_json':
        res.writeHead(200, { 'content-type': request.api === 'ollama' ? 'application/x-ndjson' : streaming ? 'text/event-stream' : 'application/json' });
        res.end(request.api === 'ollama' ? '{"model": "x", "message": {"content": "Hel\n' : streaming ? 'data: {"id": "x", "choices": [{"delta": {"content": "Hel\n\n' : '{"id": "x", "choices": [');
        return;
      default:
        return faultResponse(res, request.api, reply.fault, reply, request.model ?? '');
    }
  };

  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const api = path.startsWith('/v1/') ? 'openai' : 'ollama';
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'GET, POST, OPTIONS' });
      res.end();
      return;
    }
    const body = await readBody(req);
    const record: RecordedRequest = { api, method: req.method ?? 'GET', path, headers: { ...req.headers }, body, model: (body as { model?: string } | undefined)?.model, at: Date.now(), images: imagesIn(api, body) };
    requests.push(record);
    // When the exchange ended: the reply sent, or the client gone (a stopped call drops its connection).
    res.on('close', () => void (record.endedAt = Date.now()));

    const origin = String(req.headers.origin ?? '');
    if (api === 'ollama' && options.requireOllamaOrigin && /^(moz|chrome)-extension:/.test(origin)) {
      res.writeHead(403, { 'content-type': 'text/plain' });
      res.end();
      return;
    }
    if (api === 'openai' && options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return faultResponse(res, 'openai', 'unauthorized', {}, '');
    }
    try {
      if (req.method === 'POST' && (path === '/v1/chat/completions' || path === '/api/chat')) return await chat(res, record);
      if (req.method === 'GET' && path === '/v1/models') {
        const modalities = (m: ModelSpec) => (m.vision === undefined ? {} : { architecture: { input_modalities: m.vision ? ['text', 'image'] : ['text'] } });
        return sendJson(res, 200, { object: 'list', data: models.map((m) => ({ id: m.name, object: 'model', created: 1_700_000_000, owned_by: 'scripted', ...modalities(m) })) });
      }
      if (req.method === 'GET' && path === '/api/tags') return ollamaTags(res, models);
      if (req.method === 'POST' && path === '/api/show') {
        const spec = models.find((m) => m.name === (body as { model?: string })?.model);
        return spec ? ollamaShow(res, spec) : sendJson(res, 404, { error: `model '${(body as { model?: string })?.model}' not found` });
      }
      if (req.method === 'GET' && path === '/api/version') return sendJson(res, 200, { version: '0.12.0' });
      if (req.method === 'GET' && path === '/api/ps' && models.some((m) => m.loadedContext)) {
        return sendJson(res, 200, { models: models.filter((m) => m.loadedContext).map((m) => ({ name: m.name, model: m.name, context_length: m.loadedContext })) });
      }
      if (req.method === 'GET' && path === '/props' && options.llamaCppContext) {
        return sendJson(res, 200, { default_generation_settings: { n_ctx: options.llamaCppContext }, total_slots: 1 });
      }
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('Ollama is running');
        return;
      }
      sendJson(res, 404, api === 'openai' ? { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } } : { error: '404 page not found' });
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  const lifetime = setTimeout(() => void close(), options.lifetimeMs ?? 10 * 60_000);
  lifetime.unref();

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    schemaViolations,
    chatRequests: () => requests.filter((r) => r.path === '/api/chat' || r.path === '/v1/chat/completions'),
    script: (...replies) => void queue.push(...replies),
    setFallback: (reply) => void (fallback = reply),
    setModels: (next) => void (models = next),
    reset: () => {
      requests.length = 0;
      schemaViolations.length = 0;
      queue = [];
      fallback = { text: 'OK' };
    },
    close,
  };
}
