/**
 * The typed records: every value FoxAgent keeps, its key, its schema and what it reads as when
 * absent or unreadable. Version 1 of the layout (see `migrations.ts`).
 */
import { z } from 'zod';
import { ConversationSchema } from '../conversation';
import { PlanRecordSchema, PlanStatusSchema } from '../plan';
import { PolicyRuleSchema, RiskSchema, type AuditEntry } from '../permissions';
import { ConversationSummarySchema } from '../protocol';
import { DEFAULT_SETTINGS, StoredSettingsSchema } from '../settings';
import { RecordingSchema } from '../voice';
import { KEYS } from './keys';
import { family, list, optional, single } from './record';

/** Old conversations roll off past this many, so storage stays bounded. */
export const MAX_CONVERSATIONS = 200;
/** The audit log's bounds: entries, and bytes as stored (JSON). */
export const MAX_AUDIT_ENTRIES = 2000;
export const MAX_AUDIT_BYTES = 1024 * 1024;
/** Models remembered with a learnt tool-call mode; the least recently added roll off past this many. */
export const MAX_TEXT_MODE_MODELS = 500;
/** Workflow plans kept; the oldest roll off past this many, with their records. */
export const MAX_PLANS = 200;

export const PlanIndexEntrySchema = z.object({ id: z.string(), conversationId: z.string(), status: PlanStatusSchema, updatedAt: z.number() });
export type PlanIndexEntry = z.infer<typeof PlanIndexEntrySchema>;

/** A recording the transcription server did not take, and its fault as the user read it. */
export const KeptRecordingSchema = z.object({
  recording: RecordingSchema,
  fault: z.object({ code: z.string().max(100), message: z.string().max(2000), hint: z.string().max(2000).optional() }),
});

const AuditSegmentInfoSchema = z.object({ id: z.number().int().min(0), count: z.number().min(0), bytes: z.number().min(0) });
/** The audit log's segments, oldest first; each segment's entries are under their own key. */
export const AuditIndexSchema = z.object({ next: z.number().int().min(0), segments: z.array(AuditSegmentInfoSchema) });
export type AuditIndex = z.infer<typeof AuditIndexSchema>;

export const AuditEntrySchema: z.ZodType<AuditEntry> = z.object({
  id: z.string(),
  time: z.number(),
  conversationId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  origin: z.string(),
  tier: RiskSchema,
  decision: z.enum(['allowed', 'denied']),
  decidedBy: z.enum(['policy', 'user', 'timeout']),
  why: z.string().optional(),
  durationMs: z.number().optional(),
  outcome: z.enum(['done', 'failed', 'denied', 'skipped']),
  summary: z.string().optional(),
  planId: z.string().optional(),
  stepId: z.string().optional(),
});

export const RECORDS = {
  schemaVersion: single(KEYS.schemaVersion, z.number().int().min(0), () => 0),
  settings: single(KEYS.settings, StoredSettingsSchema, () => DEFAULT_SETTINGS),
  /** Summaries, newest first; at most `MAX_CONVERSATIONS`. */
  conversationIndex: list(KEYS.conversationIndex, ConversationSummarySchema),
  activeConversation: optional(KEYS.activeConversation, z.string()),
  unfinishedConversations: list(KEYS.unfinishedConversations, z.string()),
  conversation: family(KEYS.conversation, (key) => optional(key, ConversationSchema)),
  auditIndex: optional(KEYS.auditIndex, AuditIndexSchema),
  auditSegment: family(KEYS.auditSegment, (key) => list(key, AuditEntrySchema)),
  /** Entries as the old single-array log kept them: bounded again as they are imported. */
  auditLegacy: list(KEYS.auditLegacy, AuditEntrySchema),
  policies: list(KEYS.policies, PolicyRuleSchema),
  sensitiveSites: list(KEYS.sensitiveSites, z.string()),
  /**
   * Model cache key → the tool-call mode `auto` fell back to, and when. A bare time is an entry
   * from before constrained mode: the model was found to refuse native tools (text mode).
   */
  textToolModels: single(KEYS.textToolModels, z.record(z.string(), z.union([z.number(), z.object({ mode: z.enum(['constrained', 'xml']), at: z.number() })])), () => ({})),
  draft: single(KEYS.draft, z.string(), () => ''),
  /** Plans, newest first; at most `MAX_PLANS`. */
  planIndex: list(KEYS.planIndex, PlanIndexEntrySchema),
  plan: family(KEYS.plan, (key) => optional(key, PlanRecordSchema)),
  keptRecording: optional(KEYS.keptRecording, KeptRecordingSchema),
};
