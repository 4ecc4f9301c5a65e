/**
 * Multi-tab workflow plans: one request across several tabs, planned by one model call, approved
 * by the user, run step by step (each step a run of the agent loop scoped to its tab), shown live
 * and stored so it can be resumed. These are the shapes the background and the sidebar share.
 */
import { z } from 'zod';
import { LocalizedSchema } from './i18n';

/** A plan has at most this many steps. */
export const MAX_PLAN_STEPS = 12;
/** A step returns at most this many named fields. */
export const MAX_STEP_FIELDS = 20;

export const StepIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,24}$/);
/** A field's name: `price`, `delivery_days`. */
export const FieldNameSchema = z.string().regex(/^[a-z][a-z0-9_]{0,39}$/);
export const FieldTypeSchema = z.enum(['string', 'number', 'boolean', 'url', 'date']);
export type FieldType = z.infer<typeof FieldTypeSchema>;

export const FieldSpecSchema = z.object({
  name: FieldNameSchema,
  type: FieldTypeSchema,
  description: z.string().max(200).optional(),
});
export type FieldSpec = z.infer<typeof FieldSpecSchema>;

/** A field's value as a step returned it; `null`: the step could not find it (shown as missing, never invented). */
export const FieldValueSchema = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);
export type FieldValue = z.infer<typeof FieldValueSchema>;
export const FieldRecordSchema = z.record(FieldNameSchema, FieldValueSchema);
export type FieldRecord = z.infer<typeof FieldRecordSchema>;

/** Where a step works: an open tab, a URL to open, or a URL field an earlier step returned. */
export const StepTabSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tab'), tabId: z.number().int().min(0) }),
  z.object({ kind: z.literal('url'), url: z.string().max(2000) }),
  z.object({ kind: z.literal('from_step'), stepId: StepIdSchema, field: FieldNameSchema }),
]);
export type StepTab = z.infer<typeof StepTabSchema>;

/**
 * What a step may do besides reading: `interact` (click, fill, select… on its site), `navigate`
 * (load other pages of its site). A step that lists neither is read-only.
 */
export const StepActionSchema = z.enum(['interact', 'navigate']);
export type StepAction = z.infer<typeof StepActionSchema>;

export const PlanStepSchema = z.object({
  id: StepIdSchema,
  /** What the step does, in words (shown on the plan card, given to the step's agent). */
  goal: z.string().min(1).max(500),
  tab: StepTabSchema,
  dependsOn: z.array(StepIdSchema).max(MAX_PLAN_STEPS).default([]),
  fields: z.array(FieldSpecSchema).max(MAX_STEP_FIELDS).default([]),
  may: z.array(StepActionSchema).max(2).default([]),
});
export type PlanStep = z.infer<typeof PlanStepSchema>;

/**
 * A plan as the planner writes it and the user approves it. The cross-step rules (unique ids,
 * dependencies that exist and form no cycle, `from_step` naming a dependency's URL field) are
 * checked by `checkPlan` in the background's planner, which reports each problem in words.
 */
export const PlanSchema = z.object({
  /** A short title for the card: "Compare the kettle on three shops". */
  title: z.string().min(1).max(200),
  steps: z.array(PlanStepSchema).min(1).max(MAX_PLAN_STEPS),
});
export type Plan = z.infer<typeof PlanSchema>;

/** `asking`: waiting for a permission answer; `paused`: handed over to the user (login, captcha, a choice). */
export const StepStateSchema = z.enum(['waiting', 'running', 'asking', 'paused', 'done', 'failed', 'skipped']);
export type StepState = z.infer<typeof StepStateSchema>;

export const StepStatusSchema = z.object({
  id: StepIdSchema,
  state: StepStateSchema,
  /** The tab the step works in, once known; its site (origin) for the card. */
  tabId: z.number().int().optional(),
  site: z.string().max(500).optional(),
  /** The step's current action, in English, and as catalogue keys for the user's language. */
  action: z.string().max(300).optional(),
  actionText: LocalizedSchema.optional(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  fields: FieldRecordSchema.optional(),
  /** A one-line outcome the step's agent gave (its `done` summary). */
  summary: z.string().max(1000).optional(),
  /** Why it failed or was skipped, or what the user must do while it is paused: English, and as keys. */
  reason: z.string().max(500).optional(),
  reasonText: LocalizedSchema.optional(),
  attempts: z.number().int().min(0).default(0),
});
export type StepStatus = z.infer<typeof StepStatusSchema>;

/** `proposed`: waiting for approval. `interrupted`: cut off by an extension reload, with Resume. */
export const PlanStatusSchema = z.enum(['proposed', 'running', 'done', 'failed', 'stopped', 'cancelled', 'interrupted']);
export type PlanStatus = z.infer<typeof PlanStatusSchema>;

export const PlanRecordSchema = z.object({
  id: z.string().max(100),
  conversationId: z.string(),
  /** The assistant message the plan card belongs to. */
  messageId: z.string(),
  /** The user's request, as typed or spoken. */
  request: z.string().max(100_000),
  plan: PlanSchema,
  status: PlanStatusSchema,
  steps: z.array(StepStatusSchema).max(MAX_PLAN_STEPS),
  /** The plan only reads: no step may interact or navigate. */
  readOnly: z.boolean(),
  /**
   * While proposed: the sites (origins) of its open tabs and addresses as the plan was made. From
   * Run on: the sites the user's consent covers — those the steps are on when the user pressed Run
   * (an open tab only on the site it had at the proposal, unless the user chose it in an edit);
   * none when it started without asking (read-only, by the setting). Resume and Retry keep them: a
   * tab that moved to another site since does not take the consent along.
   */
  sites: z.array(z.string().max(500)).max(MAX_PLAN_STEPS).optional(),
  /** Tabs the plan opened (closed or kept at the end, per the settings). */
  openedTabs: z.array(z.number().int()).default([]),
  /** The composed answer (Markdown), once the plan ended. */
  answer: z.string().max(200_000).optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type PlanRecord = z.infer<typeof PlanRecordSchema>;
