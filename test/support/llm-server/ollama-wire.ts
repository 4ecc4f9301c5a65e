/** Ollama's native API: NDJSON streaming chat with whole tool calls, tags, show, version. */
import type { ServerResponse } from 'node:http';
import { sendJson } from './openai-wire';
import { chunksOf, cutConnection, sleep, type ModelSpec, type Turn } from './types';

const stamp = () => new Date().toISOString();

export async function streamOllama(res: ServerResponse, { reply, request }: Turn, cut: boolean): Promise<void> {
  const model = request.model ?? 'model';
  const stream = request.body?.stream !== false;
  const pieces = chunksOf(reply.text ?? '', reply.chunkSize ?? 8);
  const toolCalls = (reply.toolCalls ?? []).map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
  const usage = reply.usage ?? { promptTokens: 20, completionTokens: pieces.length };
  const final = {
    model,
    created_at: stamp(),
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reply.finishReason ?? 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: usage.promptTokens,
    prompt_eval_duration: 200_000,
    eval_count: usage.completionTokens,
    eval_duration: 500_000,
  };
  if (!stream) {
    sendJson(res, 200, { ...final, message: { role: 'assistant', content: reply.text ?? '', ...(toolCalls.length ? { tool_calls: toolCalls } : {}) } });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'access-control-allow-origin': '*' });
  const line = (obj: unknown) => res.write(`${JSON.stringify(obj)}\n`);
  for (const [i, piece] of pieces.entries()) {
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
    if (res.destroyed) return; // the client went away (Stop), as a real server notices
    line({ model, created_at: stamp(), message: { role: 'assistant', content: piece }, done: false });
    if (cut && i >= Math.floor(pieces.length / 2)) return cutConnection(res);
  }
  if (cut) return cutConnection(res);
  // Ollama sends a model's tool calls whole, in one chunk, before the final one.
  if (toolCalls.length) line({ model, created_at: stamp(), message: { role: 'assistant', content: '', tool_calls: toolCalls }, done: false });
  line(final);
  res.end();
}

export function ollamaTags(res: ServerResponse, models: ModelSpec[]): void {
  sendJson(res, 200, {
    models: models.map((m) => ({
      name: m.name,
      model: m.name,
      modified_at: stamp(),
      size: 2_000_000_000,
      digest: 'sha256:0000',
      details: { format: 'gguf', family: 'llama', families: ['llama'], parameter_size: m.parameterSize ?? '3B', quantization_level: 'Q4_K_M' },
    })),
  });
}

export function ollamaShow(res: ServerResponse, model: ModelSpec): void {
  const capabilities = ['completion', ...(model.tools === false ? [] : ['tools']), ...(model.vision ? ['vision'] : [])];
  sendJson(res, 200, {
    modelfile: '',
    parameters: '',
    template: '{{ .Prompt }}',
    details: { format: 'gguf', family: 'llama', parameter_size: model.parameterSize ?? '3B', quantization_level: 'Q4_K_M' },
    model_info: { 'general.architecture': 'llama', 'llama.context_length': model.contextLength ?? 131_072 },
    capabilities,
    modified_at: stamp(),
  });
}
