import { z } from 'zod';
import type { Localized } from '../../shared/i18n';
import { english } from '../english';
import type { Risk } from '../../shared/permissions';
import type { ToolCall, ToolSpec } from '../llm/types';
import { describeIssues, jsonSchemaChecker, SchemaError } from './json-schema';
import type { ToolReply } from './parts';

/** How much harm a tool can do; the permission engine starts from this. */
export type { Risk };
export type { ToolPart, ToolReply, ToolResult } from './parts';

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
  /**
   * The tabs a run was given to work in (a plan's step, a task from an outside client), besides
   * those it opens itself; undefined: any tab of the window, as for a sidebar chat.
   */
  allowedTabs?: ReadonlySet<number>;
  /**
   * The task began because the model, having read the page, chose to act on a message no rule
   * classified: a page could have steered that, so no stored "always allow" rule lets an action
   * through without asking (deny rules and grants "for this task" still apply).
   */
  confirmActions?: boolean;
  /** The run the task belongs to (set by the run registry). */
  runId?: string;
  /** The workflow plan step this run is: the audit log names the plan and the step of each call. */
  planStep?: { planId: string; stepId: string };
  /** What approving the step's plan lets through without asking (see `PlanGrant`). */
  planGrant?: PlanGrant;
}

/**
 * A scoped consent: approving a plan allows, for that plan's steps only, the kinds of action the
 * step listed on the sites the plan listed. Sensitive actions, other sites, other kinds of action
 * and tab tools still ask; deny rules and the engine's escalations still apply.
 */
export interface PlanGrant {
  sites: ReadonlySet<string>;
  may: ReadonlySet<'interact' | 'navigate'>;
}

export interface ToolContext {
  signal: AbortSignal;
  conversationId: string;
  task: TaskState;
}

/** A timeline line FoxAgent words itself: English in `preview`, the key for the user's language. */
export function previewOf(text: Localized): { preview: string; previewText: Localized } {
  return { preview: english(text), previewText: text };
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

interface ToolBase {
  name: string;
  description: string;
  risk: Risk;
  timeoutMs: number;
  /**
   * Calling it again right away can make progress (scrolling an endless list, pressing ArrowDown):
   * such a repeat is not skipped, and only counts as going round in circles when its result
   * stops changing.
   */
  repeatable?: boolean;
  /** Offered only in the full tool set: a small model's compact set leaves it out until it asks for more tools. */
  fullOnly?: boolean;
  /** A shorter description, for the compact tool set. */
  brief?: string;
  /**
   * A successful call ends the task (`done`, a plan step's `return_fields`), its text the task's
   * summary; such a call is never skipped as a repeat.
   */
  ends?: boolean;
}

/** A tool whose input is a zod schema: the handler's arguments are typed by it. */
export interface ToolDefinition<I extends AnyObject = AnyObject> extends ToolBase {
  input: I;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolReply>;
}

/** A tool whose input is a JSON Schema object, as an MCP server's `tools/list` gives it. */
export interface JsonSchemaToolDefinition extends ToolBase {
  inputSchema: Record<string, unknown>;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolReply>;
}

type Checked = { ok: true; args: Record<string, unknown> } | { ok: false; problems: string };

/** A tool as the registry holds it, however it was defined. */
export interface RegisteredTool extends ToolBase {
  /** JSON Schema of the arguments: native calls and the text protocol's catalogue show this. */
  parameters: Record<string, unknown>;
  /** Validates and normalises arguments. */
  check(args: unknown): Checked;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolReply>;
}

/** Ties a tool's schema to its handler, so the handler's arguments are typed by the schema. */
export function defineTool<I extends AnyObject>(definition: ToolDefinition<I>): ToolDefinition<I> {
  return definition;
}

/**
 * A tool described by a JSON Schema. Throws, naming the tool and the reason, when the schema
 * uses what FoxAgent cannot check (the caller leaves that tool out and says so).
 */
export function defineJsonSchemaTool(definition: JsonSchemaToolDefinition): RegisteredTool {
  const { inputSchema, ...rest } = definition;
  let checker: z.ZodType;
  try {
    checker = jsonSchemaChecker(inputSchema);
  } catch (error) {
    if (error instanceof SchemaError) throw new Error(`Tool "${definition.name}" cannot be offered: ${error.message}.`);
    throw error;
  }
  const { $schema: _version, ...parameters } = inputSchema;
  return { ...rest, parameters: { type: 'object', ...parameters }, check: (args) => checkWith(checker, args) };
}

function fromZod(tool: ToolDefinition): RegisteredTool {
  const { input, ...rest } = tool;
  return { ...rest, parameters: toJsonSchema(input), check: (args) => checkWith(input, args), run: (args, ctx) => tool.run(args, ctx) };
}

function checkWith(schema: z.ZodType, args: unknown): Checked {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  return { ok: false, problems: describeIssues(parsed.error.issues) };
}

export type Validation = { ok: true; tool: RegisteredTool; args: Record<string, unknown> } | { ok: false; error: string };

type AnyTool = ToolDefinition<AnyObject> | RegisteredTool;

/** What a registry view takes from the registry under it: its tools but `hide`. */
interface Underlying {
  base: ToolRegistry;
  hide: ReadonlySet<string>;
}

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  constructor(
    tools: readonly AnyTool[],
    private readonly under?: Underlying,
  ) {
    for (const tool of tools) {
      if (this.tools.has(tool.name) || this.inherited(tool.name)) throw new Error(`Two tools are named ${tool.name}.`);
      this.tools.set(tool.name, 'input' in tool ? fromZod(tool as unknown as ToolDefinition) : tool);
    }
  }

  /**
   * A view of these tools with `extra` added and `hide` left out (a plan step's `return_fields`
   * in place of `done`): it looks tools up here, so nothing is copied.
   */
  extend(extra: readonly AnyTool[], hide: ReadonlySet<string> = new Set()): ToolRegistry {
    return new ToolRegistry(extra, { base: this, hide });
  }

  get names(): string[] {
    return this.all().map((tool) => tool.name);
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name) ?? this.inherited(name);
  }

  all(): RegisteredTool[] {
    const below = this.under ? this.under.base.all().filter((tool) => !this.under!.hide.has(tool.name)) : [];
    return [...below, ...this.tools.values()];
  }

  private inherited(name: string): RegisteredTool | undefined {
    return this.under && !this.under.hide.has(name) ? this.under.base.get(name) : undefined;
  }

  /** The same tools but `names`: what a model is not offered, it cannot call either. */
  without(names: ReadonlySet<string>): ToolRegistry {
    return new ToolRegistry(this.all().filter((tool) => !names.has(tool.name)));
  }

  /** JSON Schema for native tool calling; the text protocol's catalogue is built from the same. */
  specs(): ToolSpec[] {
    return this.all().map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
  }

  /** Checks a call against its tool's schema; the error is worded for the model to fix its call. */
  validate(call: ToolCall): Validation {
    const tool = this.get(call.name);
    if (!tool) return { ok: false, error: `There is no tool named "${call.name}". Available tools: ${this.names.join(', ')}.` };
    if (call.argumentsError) return { ok: false, error: `${call.argumentsError} Call ${call.name} again with a JSON object of arguments.` };
    const checked = tool.check(call.arguments);
    if (checked.ok) return { ok: true, tool, args: checked.args };
    return { ok: false, error: `Invalid arguments for ${call.name}: ${checked.problems}. Fix them and call ${call.name} again.` };
  }
}

export function toJsonSchema(schema: AnyObject): Record<string, unknown> {
  // Input side: coerced fields accept what the model sends (e.g. "3" for a number).
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
