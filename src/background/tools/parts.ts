/**
 * What a tool gives back: a list of parts — text, images, structured data — as vercel/ai and MCP
 * model them. Most tools return one text part, written as `{ ok, content }`; the agent bounds
 * every part before a model or the conversation sees it (`agent/parts.ts`).
 */
import type { Localized } from '../../shared/i18n';

export type ToolPart =
  | { type: 'text'; text: string }
  /** `data` is plain base64; only JPEG, PNG and WebP up to a size are accepted. */
  | { type: 'image'; mimeType: string; data: string; width?: number; height?: number; alt?: string }
  /** JSON; the model reads it as compact JSON text. */
  | { type: 'data'; value: unknown };

interface ReplyFields {
  ok: boolean;
  /** A short line for the action timeline. */
  preview?: string;
  /** The same line as a catalogue key, when FoxAgent words it (shown in the user's language). */
  previewText?: Localized;
  /** Ends the task (the `done` tool). */
  final?: boolean;
  /** Pauses the task for the user (the `ask_user` tool). */
  question?: string;
}

/** A tool's reply: its text (`content`, one text part) or its parts. */
export type ToolReply = ReplyFields & ({ content: string; parts?: never } | { parts: ToolPart[]; content?: never });

/** A tool's result as the agent carries it: always parts. */
export type ToolResult = ReplyFields & { parts: ToolPart[] };

export function partsOf(reply: ToolReply): ToolPart[] {
  return reply.parts ?? [{ type: 'text', text: reply.content ?? '' }];
}

/** A `tools/call` result as an MCP server sends it. */
export interface McpToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * An MCP result as parts: text and images as they are, structured content as data, and what
 * FoxAgent cannot pass on (audio, binary resources) as a line saying so. The server is not
 * trusted: anything malformed becomes such a line, never an exception.
 */
export function fromMcpResult(result: McpToolResult): ToolResult {
  const items = Array.isArray(result.content) ? result.content : [];
  const parts = items.map(fromMcpContent);
  if (result.structuredContent !== undefined && !parts.some((p) => p.type === 'text')) parts.push({ type: 'data', value: result.structuredContent });
  return { ok: result.isError !== true, parts };
}

function fromMcpContent(item: unknown): ToolPart {
  const c = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
  const text = (value: string): ToolPart => ({ type: 'text', text: value });
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (c.type) {
    case 'text':
      return text(str(c.text));
    case 'image':
      return { type: 'image', mimeType: str(c.mimeType), data: str(c.data) };
    case 'resource_link':
      return text(`[resource: ${str(c.name) || str(c.uri)} ${str(c.uri)}]`);
    case 'resource': {
      const resource = (c.resource && typeof c.resource === 'object' ? c.resource : {}) as Record<string, unknown>;
      if (typeof resource.text === 'string') return text(resource.text);
      return text(`[binary resource ${str(resource.uri)} omitted: only text and images are passed on]`);
    }
    default:
      return text(`[${typeof c.type === 'string' ? c.type.slice(0, 40) : 'unknown'} content omitted: only text and images are passed on]`);
  }
}
