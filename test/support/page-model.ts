/**
 * A scripted model that reads the page the way a real one does: from the snapshot FoxAgent put
 * in its prompt (or returned from a tool). Tests name elements by role and accessible name; the
 * reply uses whatever [id] the latest snapshot gave that element, so nothing hard-codes ids.
 */
import type { RecordedRequest, ReplyScript, ScriptedReply, ScriptedToolCall } from './llm-server/types';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part?.text ?? '').join('\n');
  return '';
}

/** Every message of the request, oldest first, as one text. */
export function transcript(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { content?: unknown }[];
  return messages.map((m) => textOf(m.content)).join('\n\n');
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The id the latest snapshot in the request gave the element with this role and name. */
export function elementId(request: RecordedRequest, role: string, name: string | RegExp): number {
  const namePattern = typeof name === 'string' ? escape(name) : name.source;
  const line = new RegExp(`^\\[(\\d+)\\] ${escape(role)} "${namePattern}"`, 'gm');
  const ids = [...transcript(request).matchAll(line)].map((m) => Number(m[1]));
  const id = ids.at(-1);
  if (id === undefined) throw new Error(`No ${role} "${String(name)}" in the snapshots the model was given.`);
  return id;
}

type Find = (role: string, name: string | RegExp) => number;

/** One model turn that calls tools on elements found by role and name. */
export function act(build: (find: Find, request: RecordedRequest) => ScriptedToolCall[]): ReplyScript {
  return (request): ScriptedReply => {
    try {
      return { toolCalls: build((role, name) => elementId(request, role, name), request) };
    } catch (error) {
      // The test fails on the page's state; say in the chat why the model could not go on.
      return { text: `SCRIPT ERROR: ${(error as Error).message}` };
    }
  };
}

export const finish = (summary: string): ReplyScript => ({ toolCalls: [{ name: 'done', arguments: { summary } }] });
