/**
 * A tool result with images, through the real agent loop, router and the real `openai` and
 * `ollama` clients, to the scripted server over both wire protocols and both tool-call modes:
 * a model that takes images receives the very bytes the tool returned; one that does not gets
 * not a byte of them, and reads a note instead.
 */
import { z } from 'zod';
import { runAgentLoop, type AgentTask } from '../../../src/background/agent/loop';
import { NOT_VISION_NOTE } from '../../../src/background/llm/images';
import { CONTROL_TOOLS } from '../../../src/background/tools/control';
import { defineTool, ToolRegistry } from '../../../src/background/tools/registry';
import { allowAll, routerFor } from '../../support/agent-fixtures';
import { JPEG_BASE64, JPEG_BYTES, PNG_BASE64, PNG_BYTES } from '../../support/images';
import { startLlmServer, type LlmServer, type RecordedRequest } from '../../support/llm-server';

const tools = new ToolRegistry([
  defineTool({
    name: 'screenshot',
    description: 'Take a screenshot of the page',
    input: z.object({}),
    risk: 'read',
    timeoutMs: 1000,
    run: async () => ({
      ok: true,
      parts: [
        { type: 'text', text: 'The page and its logo.' },
        { type: 'image', mimeType: 'image/png', data: PNG_BASE64, width: 1, height: 1, alt: 'the page' },
        { type: 'image', mimeType: 'image/jpeg', data: JPEG_BASE64, alt: 'the logo' },
      ],
    }),
  }),
  ...CONTROL_TOOLS,
]);

// Both servers say what each model takes: Ollama in /api/show, the OpenAI-compatible one in /v1/models.
const MODELS = [
  { name: 'seeing-model', tools: true, vision: true, contextLength: 32768 },
  { name: 'blind-model', tools: true, vision: false, contextLength: 32768 },
];

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer({ models: MODELS });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const task = (model: string, mode: AgentTask['mode']): AgentTask => ({
  conversationId: 'c1',
  model,
  mode,
  messages: [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'What does the page look like?' }],
});

const CALL = '<tool_call>{"name": "screenshot", "arguments": {}}</tool_call>';

async function runScreenshot(api: 'ollama' | 'openai', model: string, mode: 'native' | 'xml'): Promise<RecordedRequest> {
  server.script(mode === 'native' ? { toolCalls: [{ name: 'screenshot', arguments: {} }] } : { text: CALL }, { text: 'A white page.' });
  const outcome = await runAgentLoop(task(model, mode), { router: routerFor(server.url, api), tools, gate: allowAll, emit: () => undefined }, new AbortController().signal);
  expect(outcome).toEqual({ kind: 'answered', text: 'A white page.' });
  const requests = server.chatRequests();
  expect(requests).toHaveLength(2);
  return requests[1]!;
}

describe.each(['ollama', 'openai'] as const)('over the %s wire', (api) => {
  describe.each(['native', 'xml'] as const)('in %s tool mode', (mode) => {
    test('a vision model receives the images the tool returned, byte for byte, after the result that names them', async () => {
      const request = await runScreenshot(api, 'seeing-model', mode);
      expect(request.images.map((i) => i.bytes.equals(PNG_BYTES) || i.bytes.equals(JPEG_BYTES))).toEqual([true, true]);
      expect(request.images[0]!.bytes.equals(PNG_BYTES)).toBe(true);
      expect(request.images[1]!.bytes.equals(JPEG_BYTES)).toBe(true);
      if (api === 'openai') expect(request.images.map((i) => i.mimeType)).toEqual(['image/png', 'image/jpeg']);
      // The images ride on a user turn, after the text result that names them.
      expect(request.images.map((i) => i.role)).toEqual(['user', 'user']);
      const messages = request.body.messages as { role: string; content: unknown }[];
      const text = (m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
      const resultAt = messages.findIndex((m) => text(m).includes('The page and its logo.'));
      const imagesAt = messages.findIndex((m) => (api === 'ollama' ? Array.isArray((m as { images?: unknown }).images) : Array.isArray(m.content)));
      expect(resultAt).toBeGreaterThan(0);
      expect(imagesAt).toBeGreaterThanOrEqual(resultAt);
      expect(messages[resultAt]!.role).toBe(mode === 'native' ? 'tool' : 'user');
      expect(text(messages[resultAt]!)).toContain('[image 1: PNG, 1×1, 1 KB: the page]');
      expect(JSON.stringify(request.body)).not.toContain(NOT_VISION_NOTE);
    });

    test('a model without vision gets no image bytes at all, and a note for each image', async () => {
      const request = await runScreenshot(api, 'blind-model', mode);
      expect(request.images).toEqual([]);
      const raw = JSON.stringify(request.body);
      expect(raw).not.toContain(PNG_BASE64.slice(0, 24));
      expect(raw).not.toContain(JPEG_BASE64.slice(0, 24));
      expect(raw).not.toMatch(/image_url|"images"/);
      expect(raw.split(NOT_VISION_NOTE).length - 1).toBe(2);
      // It still reads the result's text, and what the images were.
      expect(raw).toContain('The page and its logo.');
      expect(raw).toContain('[image 2: JPEG');
    });
  });
});

test('the model list of an OpenAI-compatible server and Ollama\'s /api/show agree on which model sees', async () => {
  for (const api of ['ollama', 'openai'] as const) {
    const router = routerFor(server.url, api);
    expect([(await router.describe('seeing-model')).vision, (await router.describe('blind-model')).vision]).toEqual([true, false]);
  }
});

test('the router itself sends no image bytes to a model without vision, whoever asks (not only the agent loop)', async () => {
  for (const api of ['ollama', 'openai'] as const) {
    const router = routerFor(server.url, api);
    for (const model of ['blind-model', 'seeing-model']) {
      server.reset();
      for await (const _event of router.chat({ model, messages: [{ role: 'user', content: 'Look.', images: [{ mimeType: 'image/png', data: PNG_BASE64 }] }] }, 'native', new AbortController().signal));
      const [request] = server.chatRequests();
      const raw = JSON.stringify(request!.body);
      if (model === 'blind-model') {
        expect(request!.images).toEqual([]);
        expect(raw).not.toContain(PNG_BASE64.slice(0, 24));
        expect(raw).toContain(NOT_VISION_NOTE);
      } else {
        expect(request!.images.map((i) => i.bytes.equals(PNG_BYTES))).toEqual([true]);
      }
    }
  }
});
