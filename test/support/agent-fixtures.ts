/** Real pieces for driving the agent core in Node: providers on the scripted server, a router, tools. */
import { z } from 'zod';
import type { PermissionGate } from '../../src/background/permissions/gate';
import { ModeCache } from '../../src/background/llm/capabilities';
import { createOllamaProvider } from '../../src/background/llm/providers/ollama';
import { createOpenAiProvider } from '../../src/background/llm/providers/openai';
import { LlmRouter } from '../../src/background/llm/router';
import { CONTROL_TOOLS } from '../../src/background/tools/control';
import { defineTool, ToolRegistry } from '../../src/background/tools/registry';
import { MemoryStorage } from './memory-storage';

export function routerFor(url: string, api: 'ollama' | 'openai', storage = new MemoryStorage()) {
  const provider = api === 'ollama' ? createOllamaProvider({ baseUrl: url, idleTimeoutMs: 5000 }) : createOpenAiProvider({ kind: 'openai-compatible', baseUrl: `${url}/v1`, apiKey: '', idleTimeoutMs: 5000 });
  return new LlmRouter({ provider, modeCache: new ModeCache(storage), cacheKey: (m) => `${api}|${m}`, retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 } });
}

/** A small page held in memory, with tools that change it: the effects tests check. */
export function pageWorld() {
  const fields: Record<number, string> = { 1: '', 2: '' };
  const log: string[] = [];
  /** An endless list: each scroll loads 20 more items, up to `feed.max`. */
  const feed = { items: 20, max: 60 };
  const tools = new ToolRegistry([
    defineTool({
      name: 'read_page',
      description: 'Read the page',
      input: z.object({}),
      risk: 'read',
      timeoutMs: 1000,
      run: async () => ({ ok: true, content: `[1] textbox "Email" value=${JSON.stringify(fields[1])}\n[2] textbox "Name" value=${JSON.stringify(fields[2])}\n[3] button "Save"` }),
    }),
    defineTool({
      name: 'fill',
      description: 'Type into a field',
      input: z.object({ id: z.coerce.number().int(), text: z.string() }),
      risk: 'interact',
      timeoutMs: 1000,
      run: async ({ id, text }) => {
        if (!(id in fields)) return { ok: false, content: `No field [${id}].` };
        fields[id] = text;
        log.push(`fill ${id} ${text}`);
        return { ok: true, content: `Field [${id}] now holds "${text}".` };
      },
    }),
    defineTool({
      name: 'click',
      description: 'Click',
      input: z.object({ id: z.coerce.number().int() }),
      risk: 'interact',
      timeoutMs: 1000,
      run: async ({ id }) => {
        log.push(`click ${id}`);
        return { ok: true, content: `Clicked [${id}].` };
      },
    }),
    defineTool({
      name: 'scroll',
      description: 'Scroll down',
      input: z.object({ direction: z.enum(['down']).optional() }),
      risk: 'interact',
      timeoutMs: 1000,
      repeatable: true,
      run: async () => {
        feed.items = Math.min(feed.max, feed.items + 20);
        log.push('scroll');
        return { ok: true, content: `Scrolled down; ${feed.items} items loaded${feed.items === feed.max ? ' (at the bottom)' : ''}.` };
      },
    }),
    defineTool({
      name: 'wait_forever',
      description: 'A tool that never finishes on its own',
      input: z.object({}),
      risk: 'read',
      timeoutMs: 300,
      run: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ ok: false, content: 'aborted' }))),
    }),
    ...CONTROL_TOOLS,
  ]);
  return { fields, log, feed, tools };
}

export const allowAll: PermissionGate = { decide: async () => ({ allowed: true, by: 'policy' }) };
