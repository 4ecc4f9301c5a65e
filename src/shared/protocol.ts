/**
 * Every message that crosses a context boundary, declared once.
 *
 * Sidebar ⇄ background talk over one runtime Port named {@link SIDEBAR_PORT}. The sidebar sends
 * requests; the background answers each with one {@link Reply} envelope and pushes events. The
 * receiver validates with these schemas: it does not trust the sender.
 */
import { z } from 'zod';
import { ConversationSchema, ErrorTextSchema, MAX_MESSAGE_TABS, PageFocusSchema, TabRefSchema, UserErrorSchema } from './conversation';
import { LocalizedSchema } from './i18n';
import { SettingsSchema } from './settings';
import { PlanRecordSchema, PlanSchema, StepIdSchema, type PlanRecord } from './plan';
import { RecordingSchema, VoiceSettingsSchema } from './voice';
import { PolicySchema, RiskSchema, type AuditEntry, type PolicyRule, type Risk } from './permissions';

export const SIDEBAR_PORT = 'sidebar';

// ── Shared shapes ───────────────────────────────────────────────────────────────────────────

/** What the agent is doing now, for the state bar. */
export const AgentStatusSchema = z.object({
  conversationId: z.string(),
  running: z.boolean(),
  step: z.number().int(),
  stepLimit: z.number().int(),
  toolMode: z.enum(['native', 'constrained', 'xml']).optional(),
  lastAction: z.string().optional(),
  toolTier: z.enum(['compact', 'full']).optional(),
});
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

export const PermissionRequestSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  tool: z.string(),
  risk: RiskSchema,
  args: z.record(z.string(), z.unknown()),
  reason: z.string().optional(),
  origin: z.string().optional(),
  /**
   * What exactly the call acts on, in words the user can check: the element (role, name, the form
   * it belongs to), the tab (title and site) or the destination. Shown in the question.
   */
  target: z.string().optional(),
  /** The same target as catalogue keys (an element's role, the form, a tab), shown in the user's language. */
  targetText: LocalizedSchema.optional(),
  /** Why the engine asks: its rule, or what it escalated (English). */
  why: z.string().optional(),
  /** The same reasons as catalogue keys, shown in the user's language, one after the other. */
  whyText: z.array(LocalizedSchema).optional(),
  /** Whether "always allow on this site" may be offered (never for sensitive actions). */
  canAllowAlways: z.boolean(),
  /** Whether "allow <tool> on <site> for this task" may be offered (interactions only). */
  canAllowTask: z.boolean().optional(),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/**
 * The user's answer. `allow_once`: this one call. `allow_task`: this tool on this site until the
 * task ends. `allow_always` / `reject_always`: a stored rule for this site and tool.
 */
export const DecisionSchema = z.enum(['allow_once', 'allow_task', 'allow_always', 'reject_once', 'reject_always']);
export type Decision = z.infer<typeof DecisionSchema>;

/** The page the chat is about now (the active tab), and why FoxAgent cannot read or act on it, if it cannot. */
export const CurrentPageSchema = z.object({
  url: z.string().optional(),
  title: z.string().optional(),
  /** The reason, in English. */
  restriction: z.string().optional(),
  /** The same reason as a catalogue key, shown in the user's language. */
  restrictionText: LocalizedSchema.optional(),
});
export type CurrentPage = z.infer<typeof CurrentPageSchema>;

/** An open tab as the composer's @ menu lists it. */
export const OpenTabSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  url: z.string(),
  active: z.boolean(),
  /** Selected together with others in the tab strip (Ctrl+click). */
  highlighted: z.boolean().optional(),
  /** Why FoxAgent cannot read it, if it cannot. */
  restriction: z.string().optional(),
});
export type OpenTab = z.infer<typeof OpenTabSchema>;

/**
 * A task handed over to the user: it met a login, a captcha or a choice only the user can make.
 * It waits, its tab in front, until the user presses Continue. `need` is the model's words: text, never markup.
 */
export const HandOverSchema = z.object({
  id: z.string(),
  runId: z.string(),
  conversationId: z.string(),
  planId: z.string().optional(),
  stepId: StepIdSchema.optional(),
  tabId: z.number().int().optional(),
  /** The site (origin) of that tab when the task handed over: the need is the model's words, a page may have steered them. */
  site: z.string().max(500).optional(),
  need: z.string().max(500),
});
export type HandOver = z.infer<typeof HandOverSchema>;

export const ConversationSummarySchema = z.object({ id: z.string(), title: z.string(), updatedAt: z.number(), messageCount: z.number() });
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

// ── Sidebar → background requests ───────────────────────────────────────────────────────────

export const UiToBgRequestSchema = z.discriminatedUnion('type', [
  /** `focus`: read on in a long page, or read one of its sections (the answer's Read on / Pick a section). */
  /** `tabs`: the tabs attached with @ (the message is about them rather than the active tab). */
  z.object({
    type: z.literal('chat/send'),
    conversationId: z.string(),
    text: z.string().min(1).max(100_000),
    focus: PageFocusSchema.optional(),
    tabs: z.array(TabRefSchema).max(MAX_MESSAGE_TABS).optional(),
    /** The user asked for a plan (the composer's Plan toggle or `/plan`). */
    plan: z.boolean().optional(),
    /** Spoken, then transcribed: the run's origin is `voice`. */
    spoken: z.boolean().optional(),
  }),
  /**
   * The runs under way (sidebar turns now; workflow steps, voice and bridge tasks later), and
   * stopping one: the sidebar's Stop goes through here too.
   */
  z.object({ type: z.literal('runs/list') }),
  z.object({ type: z.literal('runs/stop'), runId: z.string() }),
  z.object({ type: z.literal('chat/retry'), conversationId: z.string() }),
  /** Replaces a user message with new text, drops everything after it, and answers again. */
  z.object({ type: z.literal('chat/edit'), conversationId: z.string(), messageId: z.string(), text: z.string().min(1).max(100_000) }),
  z.object({ type: z.literal('conversation/get'), conversationId: z.string().optional() }),
  z.object({ type: z.literal('conversation/new') }),
  z.object({ type: z.literal('conversation/list'), query: z.string().max(500).optional() }),
  z.object({ type: z.literal('conversation/rename'), conversationId: z.string(), title: z.string().max(500) }),
  z.object({ type: z.literal('conversation/delete'), conversationId: z.string() }),
  /** The model for this chat ('' goes back to the settings' default). */
  z.object({ type: z.literal('conversation/set-model'), conversationId: z.string(), model: z.string().max(300) }),
  z.object({ type: z.literal('tools/list') }),
  z.object({ type: z.literal('page/current') }),
  /** The tabs of the sidebar's window, for the composer's @ menu. */
  z.object({ type: z.literal('tabs/list') }),
  z.object({ type: z.literal('settings/get') }),
  z.object({ type: z.literal('settings/save'), settings: SettingsSchema }),
  z.object({ type: z.literal('models/list') }),
  z.object({ type: z.literal('permission/pending') }),
  z.object({ type: z.literal('permission/answer'), id: z.string(), decision: DecisionSchema }),
  z.object({ type: z.literal('policies/list') }),
  z.object({ type: z.literal('policies/set'), origin: z.string().min(1).max(500), subject: z.string().min(1).max(100), policy: PolicySchema }),
  z.object({ type: z.literal('policies/remove'), origin: z.string(), subject: z.string() }),
  z.object({ type: z.literal('sensitive-sites/get') }),
  z.object({ type: z.literal('sensitive-sites/set'), origins: z.array(z.string().max(500)).max(500) }),
  z.object({
    type: z.literal('audit/list'),
    filter: z.object({ tool: z.string().optional(), origin: z.string().optional(), decision: z.enum(['allowed', 'denied']).optional() }).optional(),
  }),
  z.object({ type: z.literal('audit/clear') }),
  /** Workflow plans: the conversation's plans; approve (with the user's edits), cancel, stop, retry a step, resume. */
  z.object({ type: z.literal('plan/list'), conversationId: z.string() }),
  z.object({ type: z.literal('plan/run'), planId: z.string(), plan: PlanSchema.optional() }),
  z.object({ type: z.literal('plan/cancel'), planId: z.string() }),
  z.object({ type: z.literal('plan/stop'), planId: z.string() }),
  z.object({ type: z.literal('plan/retry-step'), planId: z.string(), stepId: StepIdSchema }),
  z.object({ type: z.literal('plan/resume'), planId: z.string() }),
  /** A task handed over to the user (login, captcha, a choice) goes on: the user pressed Continue. */
  z.object({ type: z.literal('handover/pending') }),
  z.object({ type: z.literal('handover/continue'), id: z.string() }),
  /** Brings a tab to the front (a link in a plan's answer table). */
  z.object({ type: z.literal('tabs/focus'), tabId: z.number().int() }),
  /** Voice: a recording to transcribe with the configured server; the options page's Test. */
  z.object({ type: z.literal('voice/transcribe'), recording: RecordingSchema }),
  z.object({ type: z.literal('voice/test'), voice: VoiceSettingsSchema }),
  /**
   * The global voice shortcut's request, taken by one sidebar of the window it was pressed in:
   * `toggle` true for the first to ask within a few seconds (a sidebar that just opened asks on load).
   */
  z.object({ type: z.literal('voice/claim-toggle'), windowId: z.number().int().optional() }),
]);
export type UiToBgRequest = z.infer<typeof UiToBgRequestSchema>;
export type UiRequestType = UiToBgRequest['type'];

export const ModelInfoSchema = z.object({
  id: z.string(),
  tools: z.boolean().optional(),
  vision: z.boolean().optional(),
  contextLength: z.number().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfoSchema>;

export const RunInfoSchema = z.object({
  id: z.string(),
  origin: z.enum(['sidebar', 'workflow_step', 'voice', 'bridge', 'procedure']),
  conversationId: z.string(),
  startedAt: z.number(),
});
export type RunInfo = z.infer<typeof RunInfoSchema>;

/** What each request answers with. The compiler checks handlers against this map. */
export interface UiReplyMap {
  'chat/send': { messageId: string };
  'runs/list': RunInfo[];
  'runs/stop': { stopped: boolean };
  'chat/retry': { messageId: string };
  'chat/edit': { messageId: string };
  'conversation/get': z.infer<typeof ConversationSchema>;
  'conversation/new': z.infer<typeof ConversationSchema>;
  'conversation/list': ConversationSummary[];
  'conversation/rename': { renamed: boolean };
  'conversation/delete': z.infer<typeof ConversationSchema>;
  'conversation/set-model': z.infer<typeof ConversationSchema>;
  'tools/list': { name: string; risk: Risk }[];
  'page/current': CurrentPage;
  'tabs/list': OpenTab[];
  'settings/get': z.infer<typeof SettingsSchema>;
  'settings/save': z.infer<typeof SettingsSchema>;
  'models/list': ModelInfo[];
  'permission/pending': PermissionRequest[];
  'permission/answer': { accepted: boolean };
  'policies/list': PolicyRule[];
  'policies/set': PolicyRule[];
  'policies/remove': PolicyRule[];
  'sensitive-sites/get': string[];
  'sensitive-sites/set': string[];
  'audit/list': AuditEntry[];
  'audit/clear': { cleared: true };
  'plan/list': PlanRecord[];
  'plan/run': PlanRecord;
  'plan/cancel': PlanRecord;
  'plan/stop': PlanRecord;
  'plan/retry-step': PlanRecord;
  'plan/resume': PlanRecord;
  'handover/pending': HandOver[];
  'handover/continue': { continued: boolean };
  'tabs/focus': { focused: boolean };
  'voice/transcribe': { text: string };
  /** `text`: what the server made of the test sound. */
  'voice/test': { text: string; ms: number };
  'voice/claim-toggle': { toggle: boolean };
}

// ── Background → sidebar events ─────────────────────────────────────────────────────────────


export const BgToUiEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('conversation/updated'), conversation: ConversationSchema }),
  z.object({
    type: z.literal('chat/delta'),
    conversationId: z.string(),
    messageId: z.string(),
    delta: z.string(),
    /** The message's text so far was reasoning: `delta` replaces it. */
    reset: z.boolean().optional(),
  }),
  z.object({ type: z.literal('agent/status'), status: AgentStatusSchema }),
  /** The active tab changed, or its page did: what the chat is about now. */
  z.object({ type: z.literal('page/current'), page: CurrentPageSchema }),
  /** The whole list of runs, each time one starts or ends. */
  z.object({ type: z.literal('runs/changed'), runs: z.array(RunInfoSchema) }),
  z.object({ type: z.literal('permission/requested'), request: PermissionRequestSchema }),
  z.object({ type: z.literal('permission/resolved'), id: z.string() }),
  /** A plan's whole record, each time it or one of its steps changes. */
  z.object({ type: z.literal('plan/updated'), plan: PlanRecordSchema }),
  z.object({ type: z.literal('handover/requested'), request: HandOverSchema }),
  z.object({ type: z.literal('handover/resolved'), id: z.string() }),
  /** The global voice shortcut was pressed in this window: its sidebar claims it and starts or stops recording. */
  z.object({ type: z.literal('voice/toggle'), windowId: z.number().int().optional() }),
  z.object({
    type: z.literal('chat/error'),
    conversationId: z.string(),
    error: UserErrorSchema,
    /** The user's text that did not get an answer, so the composer can offer it again. */
    unsentText: z.string().optional(),
  }),
]);
export type BgToUiEvent = z.infer<typeof BgToUiEventSchema>;

// ── Envelopes on the port ───────────────────────────────────────────────────────────────────

export const SerializedErrorSchema = z.object({ code: z.string(), message: z.string(), hint: z.string().optional(), text: ErrorTextSchema.optional() });
export type SerializedError = z.infer<typeof SerializedErrorSchema>;

export const RequestEnvelopeSchema = z.object({ kind: z.literal('request'), id: z.number().int(), body: UiToBgRequestSchema });
export type RequestEnvelope = z.infer<typeof RequestEnvelopeSchema>;

export const ReplyEnvelopeSchema = z.union([
  z.object({ kind: z.literal('reply'), id: z.number().int(), value: z.unknown() }),
  z.object({ kind: z.literal('reply'), id: z.number().int(), error: SerializedErrorSchema }),
]);
export type ReplyEnvelope = z.infer<typeof ReplyEnvelopeSchema>;

export const EventEnvelopeSchema = z.object({ kind: z.literal('event'), body: BgToUiEventSchema });
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

export const BgToUiEnvelopeSchema = z.union([ReplyEnvelopeSchema, EventEnvelopeSchema]);
export type BgToUiEnvelope = z.infer<typeof BgToUiEnvelopeSchema>;
