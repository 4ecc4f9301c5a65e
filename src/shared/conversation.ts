import { z } from 'zod';

/** An error as the user sees it: what happened, and what to do about it. */
export const UserErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
  retryable: z.boolean().default(true),
});
export type UserError = z.infer<typeof UserErrorSchema>;

export const MessageStatusSchema = z.enum(['streaming', 'complete', 'incomplete', 'stopped', 'error']);
export type MessageStatus = z.infer<typeof MessageStatusSchema>;

export const ChatMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.number(),
  status: MessageStatusSchema.default('complete'),
  model: z.string().optional(),
  error: UserErrorSchema.optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messages: z.array(ChatMessageSchema),
});
export type Conversation = z.infer<typeof ConversationSchema>;

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
