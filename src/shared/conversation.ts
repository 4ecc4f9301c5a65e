import { z } from 'zod';
import { LocalizedSchema } from './i18n';
import { ToolTierSchema } from './settings';
import { ResultPartSchema } from './tool-parts';

/**
 * The message and hint as catalogue keys, shown in the user's language; `message` and `hint`
 * keep the English words (errors saved before keys existed have only those).
 */
export const ErrorTextSchema = z.object({ message: LocalizedSchema, hint: z.union([LocalizedSchema, z.array(LocalizedSchema)]).optional() });
export type ErrorText = z.infer<typeof ErrorTextSchema>;

/** An error as the user sees it: what happened, and what to do about it. */
export const UserErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
  text: ErrorTextSchema.optional(),
  retryable: z.boolean().default(true),
});
export type UserError = z.infer<typeof UserErrorSchema>;

/** `interrupted`: the background restarted before the answer finished (offered again with Retry). */
export const MessageStatusSchema = z.enum(['streaming', 'complete', 'incomplete', 'stopped', 'error', 'interrupted']);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

export const IntentKindSchema = z.enum(['action', 'summarize', 'question', 'follow_up', 'chat', 'plan']);
export type IntentKind = z.infer<typeof IntentKindSchema>;

export const IntentSchema = z.object({ kind: IntentKindSchema, reason: z.string(), by: z.enum(['rules', 'model']) });
export type Intent = z.infer<typeof IntentSchema>;

/** `interrupted`: the background restarted while the call was asked about or running. */
export const ToolCallStatusSchema = z.enum(['pending', 'waiting_permission', 'running', 'done', 'failed', 'denied', 'skipped', 'interrupted']);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

const base = { id: z.string(), createdAt: z.number() };

/**
 * Where on a long page a message asks the reader to look: from a section on (`from`, a section
 * index: "Read on" from the first section not yet sent), or the section under a heading ("Pick a section").
 */
export const PageFocusSchema = z.object({ from: z.number().int().min(0).optional(), heading: z.string().max(500).optional() });
export type PageFocus = z.infer<typeof PageFocusSchema>;

/** A tab a message is about: attached with @ in the composer, or meant by "these two tabs". */
export const TabRefSchema = z.object({ id: z.number().int(), title: z.string().max(500), url: z.string().max(4000) });
export type TabRef = z.infer<typeof TabRefSchema>;

/** Tabs one message may read or act on, at most. */
export const MAX_MESSAGE_TABS = 10;

export const UserMessageSchema = z.object({
  ...base,
  role: z.literal('user'),
  content: z.string(),
  intent: IntentSchema.optional(),
  focus: PageFocusSchema.optional(),
  /** The tabs the message is about, when not only the active one. */
  tabs: z.array(TabRefSchema).max(MAX_MESSAGE_TABS).optional(),
  /** The user asked for a workflow plan (the Plan toggle or `/plan`). */
  plan: z.boolean().optional(),
});

/** How much of the page an answer was given: shown as "read 34% of this page", with Read on and Pick a section. */
export const PageCoverageSchema = z.object({
  url: z.string(),
  /** Characters of page text the model got, and on the page. */
  sentChars: z.number(),
  totalChars: z.number(),
  /** The first section not sent, where "Read on" continues; unset when the rest was all sent. */
  nextSection: z.number().int().optional(),
  /** The page's headings (paths), for "Pick a section"; bounded. */
  outline: z.array(z.string()).max(200),
});
export type PageCoverage = z.infer<typeof PageCoverageSchema>;

/** Why a turn used the tool-call mode it did (see the router's mode ladder). */
export const ToolModeReasonSchema = z.enum(['configured', 'remembered', 'model_has_no_tools', 'rejected', 'schema_ignored']);
export type ToolModeReason = z.infer<typeof ToolModeReasonSchema>;

export const AssistantMessageSchema = z.object({
  ...base,
  role: z.literal('assistant'),
  content: z.string(),
  status: MessageStatusSchema.default('complete'),
  model: z.string().optional(),
  error: UserErrorSchema.optional(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional(),
  /** Set when the model called tools otherwise than natively this turn (text protocol, or JSON steps constrained by a schema). */
  toolMode: z.enum(['native', 'constrained', 'xml']).optional(),
  /** Why that mode: shown under the message. */
  toolModeReason: ToolModeReasonSchema.optional(),
  /** Set when the page the answer read did not fit whole. */
  page: PageCoverageSchema.optional(),
  /**
   * An answer FoxAgent words itself (not the model), as catalogue keys shown in the user's
   * language, one paragraph each; `content` keeps the English, which history and exports use.
   */
  said: z.array(LocalizedSchema).max(20).optional(),
  /** The tool set this step offered the model (compact for small models). */
  toolTier: ToolTierSchema.optional(),
  /** Set when this step's reply had a call that could not run and the model was asked to correct it: the timeline's row. */
  repair: LocalizedSchema.optional(),
  /** The workflow plan this message shows as a card (its record is kept apart, by id). */
  planId: z.string().max(100).optional(),
  /**
   * The workflow plan whose composed answer this is (written without a model). Only such a
   * message's `foxagent:tab/<id>` links focus tabs: in a model's answer, which a page can steer,
   * they stay text.
   */
  answerOf: z.string().max(100).optional(),
});

/** One tool call and its outcome: a row in the action timeline and a turn the model reads back. */
export const ToolMessageSchema = z.object({
  ...base,
  role: z.literal('tool'),
  toolCallId: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  status: ToolCallStatusSchema,
  /** What the model reads, as text (truncated to a budget; images named in place). */
  content: z.string(),
  /** The result's parts, kept only when it has more than text (images, structured data); older conversations have none. */
  parts: z.array(ResultPartSchema).optional(),
  preview: z.string().optional(),
  /** The preview as a catalogue key, when FoxAgent worded it; `preview` keeps the English. */
  previewText: LocalizedSchema.optional(),
  durationMs: z.number().optional(),
  /** The model's stated reason, when it gave one; shown with permission requests. */
  reason: z.string().optional(),
  /** Arguments whose values are secret (typed into a password field): shown and exported as [redacted]. */
  masked: z.array(z.string()).optional(),
  /** The markup the call was read from, when the model wrote it as text: shown on demand, as text. */
  raw: z.string().optional(),
});

/** A tool call's arguments as the user may see them: secret values replaced. */
export function shownArguments(message: Pick<ToolMessage, 'arguments' | 'masked'>): Record<string, unknown> {
  if (!message.masked?.length) return message.arguments;
  return Object.fromEntries(Object.entries(message.arguments).map(([k, v]) => [k, message.masked!.includes(k) ? '[redacted]' : v]));
}

export const ChatMessageSchema = z.discriminatedUnion('role', [UserMessageSchema, AssistantMessageSchema, ToolMessageSchema]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

export const ConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The model chosen for this chat in the composer; the settings' default when unset. */
  model: z.string().optional(),
  messages: z.array(ChatMessageSchema),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** Whether a turn is still under way in this conversation: an answer streaming, a call not settled. */
export function hasUnfinishedTurn(conversation: Pick<Conversation, 'messages'>): boolean {
  return conversation.messages.some(
    (m) => (m.role === 'assistant' && m.status === 'streaming') || (m.role === 'tool' && (m.status === 'pending' || m.status === 'waiting_permission' || m.status === 'running')),
  );
}

/** Images whose bytes a conversation keeps, newest first; older ones keep only their description. */
export const MAX_KEPT_IMAGES = 3;

/** Drops the bytes of all but the newest `MAX_KEPT_IMAGES` images in tool results, so a stored conversation stays small. */
export function forgetOlderImages(messages: ChatMessage[]): void {
  let kept = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'tool' || !m.parts) continue;
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const part = m.parts[j]!;
      if (part.type !== 'image' || part.data === undefined || ++kept <= MAX_KEPT_IMAGES) continue;
      const { data: _forgotten, ...described } = part;
      m.parts[j] = described;
    }
  }
}

export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export function emptyConversation(now: number, id = newId('conv')): Conversation {
  return { id, title: '', createdAt: now, updatedAt: now, messages: [] };
}

/** A title from the first user message: short, single line. */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
