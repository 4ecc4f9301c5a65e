/**
 * What the conversation keeps of a tool's result: text results as text, as before; a result with
 * images or data with its parts, and only the newest images with their bytes, in storage too.
 */
import { executeCall } from '../../../src/background/agent/execute-call';
import { DedupWindow } from '../../../src/background/agent/guards';
import { ConversationStore } from '../../../src/background/conversations';
import { TurnRecorder } from '../../../src/background/turn-recorder';
import { defineTool, ToolRegistry } from '../../../src/background/tools/registry';
import { ConversationSchema, MAX_KEPT_IMAGES, type ToolMessage } from '../../../src/shared/conversation';
import { z } from 'zod';
import { allowAll } from '../../support/agent-fixtures';
import { PNG_BASE64 } from '../../support/images';
import { MemoryStorage } from '../../support/memory-storage';

const tools = new ToolRegistry([
  defineTool({ name: 'screenshot', description: 'Take a screenshot', input: z.object({ n: z.number() }), risk: 'read', timeoutMs: 1000, run: async ({ n }) => ({ ok: true, parts: [{ type: 'text', text: `shot ${n}` }, { type: 'image', mimeType: 'image/png', data: PNG_BASE64 }, { type: 'data', value: { n } }] }) }),
  defineTool({ name: 'click', description: 'Click something', input: z.object({}), risk: 'read', timeoutMs: 1000, run: async () => ({ ok: true, content: 'Clicked.' }) }),
]);

test('a text result is kept as text; results with images keep their parts, and only the newest images their bytes', async () => {
  const storage = new MemoryStorage();
  const store = new ConversationStore(storage);
  const conversation = await store.create();
  const recorder = new TurnRecorder(conversation, { store, emit: () => undefined, now: () => 1, saveIntervalMs: 0 }, 'm');
  const deps = { tools, gate: allowAll, dedup: new DedupWindow(4), limits: { toolResultChars: 6000 }, emit: (e: Parameters<TurnRecorder['apply']>[0]) => void recorder.apply(e) };
  const scope = { conversationId: conversation.id, task: { openedTabs: new Set<number>() } };
  await executeCall({ id: 'k', name: 'click', arguments: {} }, scope, deps, new AbortController().signal);
  for (let n = 1; n <= 5; n++) await executeCall({ id: `c${n}`, name: 'screenshot', arguments: { n } }, scope, deps, new AbortController().signal);
  await recorder.publish();

  const stored = ConversationSchema.parse((await storage.get(`conversation:${conversation.id}`))[`conversation:${conversation.id}`]);
  const rows = stored.messages.filter((m): m is ToolMessage => m.role === 'tool');
  expect(rows[0]).toMatchObject({ name: 'click', content: 'Clicked.' });
  expect(rows[0]!.parts).toBeUndefined();
  expect(rows[5]!.content).toBe('shot 5\n[image 1: PNG, 1 KB]\n{"n":5}');
  expect(rows[5]!.parts).toEqual([{ type: 'text', text: 'shot 5' }, { type: 'image', mimeType: 'image/png', data: PNG_BASE64, bytes: 70 }, { type: 'data', value: { n: 5 } }]);
  const withBytes = rows.map((r) => r.parts?.some((p) => p.type === 'image' && p.data !== undefined) ?? false);
  expect(withBytes).toEqual([false, false, false, true, true, true]);
  expect(withBytes.filter(Boolean)).toHaveLength(MAX_KEPT_IMAGES);
});
