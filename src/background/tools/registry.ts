import { z } from 'zod';
import type { Localized } from '../../shared/i18n';
import { english } from '../english';
import type { Risk } from '../../shared/permissions';
import type { ToolCall, ToolSpec } from '../llm/types';

/** How much harm a tool can do; the permission engine starts from this. */
export type { Risk };

/** What a task carries from one tool call to the next. */
export interface TaskState {
  /** The tab the task is working in: the active tab when it started, then wherever it switched. */
  tabId?: number;
  /** The tab the task started on. */
  startTabId?: number;
  /** Tabs this task opened; the only ones it may close. */
  openedTabs: Set<number>;
  /** For each tab this task opened, the tab it was working in before: where closing it returns. */
  openedFrom?: Map<number, number>;
}

export interface ToolContext {
  signal: AbortSignal;
  conversationId: string;
  task: TaskState;
}

export interface ToolResult {
  ok: boolean;
  /** What the model reads. */
  content: string;
  /** A short line for the action timeline. */
  preview?: string;
  /** The same line as a catalogue key, when FoxAgent words it (shown in the user's language). */
  previewText?: Localized;
  /** Ends the task (the `done` tool). */
  final?: boolean;
  /** Pauses the task for the user (the `ask_user` tool). */
  question?: string;
}

/** A timeline line FoxAgent words itself: English in `preview`, the key for the user's language. */
export function previewOf(text: Localized): { preview: string; previewText: Localized } {
  return { preview: english(text), previewText: text };
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition<I extends AnyObject = AnyObject> {
  name: string;
  description: string;
  input: I;
  risk: Risk;
  timeoutMs: number;
  /**
   * Calling it again right away can make progress (scrolling an endless list, pressing ArrowDown):
   * such a repeat is not skipped, and only counts as going round in circles when its result
   * stops changing.
   */
  repeatable?: boolean;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolResult>;
}

/** Ties a tool's schema to its handler, so the handler's arguments are typed by the schema. */
export function defineTool<I extends AnyObject>(definition: ToolDefinition<I>): ToolDefinition<I> {
  return definition;
}

export type Validation = { ok: true; tool: ToolDefinition; args: Record<string, unknown> } | { ok: false; error: string };

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();

  constructor(tools: readonly ToolDefinition<AnyObject>[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`Two tools are named ${tool.name}.`);
      this.tools.set(tool.name, tool as unknown as ToolDefinition);
    }
  }

  get names(): string[] {
    return [...this.tools.keys()];
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  all(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  /** JSON Schema for native tool calling; the text protocol's catalogue is built from the same. */
  specs(): ToolSpec[] {
    return this.all().map((tool) => ({ name: tool.name, description: tool.description, parameters: toJsonSchema(tool.input) }));
  }

  /** Checks a call against its tool's schema; the error is worded for the model to fix its call. */
  validate(call: ToolCall): Validation {
    const tool = this.tools.get(call.name);
    if (!tool) return { ok: false, error: `There is no tool named "${call.name}". Available tools: ${this.names.join(', ')}.` };
    if (call.argumentsError) return { ok: false, error: `${call.argumentsError} Call ${call.name} again with a JSON object of arguments.` };
    const parsed = tool.input.safeParse(call.arguments);
    if (parsed.success) return { ok: true, tool, args: parsed.data };
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
    return { ok: false, error: `Invalid arguments for ${call.name}: ${problems}. Fix them and call ${call.name} again.` };
  }
}

export function toJsonSchema(schema: AnyObject): Record<string, unknown> {
  // Input side: coerced fields accept what the model sends (e.g. "3" for a number).
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
