/**
 * A refused or denied call's timeline row carries the gate's reason as a key for the user's
 * language, beside the English the model reads; the tab tools word their lines as keys too.
 */
import { z } from 'zod';
import { executeCall } from '../../../src/background/agent/execute-call';
import type { AgentEvent } from '../../../src/background/agent/events';
import { DedupWindow } from '../../../src/background/agent/guards';
import type { PermissionGate } from '../../../src/background/permissions/gate';
import { defineTool, ToolRegistry } from '../../../src/background/tools/registry';
import { say } from '../../../src/shared/i18n';

test('a denial reaches the timeline as the gate’s key, and the model reads the English reason', async () => {
  const tools = new ToolRegistry([defineTool({ name: 'click', description: 'click', input: z.object({ id: z.number() }), risk: 'interact', timeoutMs: 1000, run: async () => ({ ok: true, content: 'Clicked.' }) })]);
  const gate: PermissionGate = { decide: async () => ({ allowed: false, by: 'user', reason: 'denied by the user', reasonText: say('gateDenied') }) };
  const events: AgentEvent[] = [];
  const result = await executeCall(
    { id: 'c1', name: 'click', arguments: { id: 3 } },
    { conversationId: 'conv', task: { openedTabs: new Set() } },
    { tools, gate, emit: (e) => events.push(e), dedup: new DedupWindow(4), limits: { toolResultChars: 6000 } },
    new AbortController().signal,
  );
  expect(result.ok).toBe(false);
  expect(result.text).toContain('The user did not allow this action (denied by the user)');
  const denied = events.find((e) => e.type === 'tool' && e.status === 'denied');
  expect(denied).toMatchObject({ preview: 'denied by the user', previewText: { key: 'gateDenied' } });
});
