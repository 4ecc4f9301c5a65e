import { create } from 'zustand';
import type { Conversation, UserError } from '../../shared/conversation';
import type { AgentStatus, BgToUiEvent, Decision, PermissionRequest } from '../../shared/protocol';
import { backgroundPort, RequestError, type BackgroundPort } from '../lib/port';

export interface ChatState {
  conversation: Conversation | undefined;
  /** A failure that is not tied to one answer (e.g. the background could not be reached). */
  notice: UserError | undefined;
  running: boolean;
  status: AgentStatus | undefined;
  permissions: PermissionRequest[];
  load(): Promise<void>;
  answerPermission(id: string, decision: Decision): Promise<void>;
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  retry(): Promise<void>;
  newChat(): Promise<void>;
  apply(event: BgToUiEvent): void;
}

function isRunning(conversation: Conversation | undefined): boolean {
  return Boolean(conversation?.messages.some((m) => (m.role === 'assistant' && m.status === 'streaming') || (m.role === 'tool' && ['pending', 'waiting_permission', 'running'].includes(m.status))));
}

function toNotice(error: unknown): UserError {
  if (error instanceof RequestError) return { ...error.detail, retryable: true };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error), retryable: true };
}

export function createChatStore(port: BackgroundPort = backgroundPort) {
  return create<ChatState>((set, get) => ({
    conversation: undefined,
    notice: undefined,
    running: false,
    status: undefined,
    permissions: [],

    async load() {
      try {
        const conversation = await port.request({ type: 'conversation/get' });
        const permissions = await port.request({ type: 'permission/pending' });
        set({ conversation, permissions, running: isRunning(conversation), notice: undefined });
      } catch (error) {
        set({ notice: toNotice(error) });
      }
    },

    async send(text) {
      const conversation = get().conversation;
      if (!conversation || !text.trim()) return false;
      try {
        await port.request({ type: 'chat/send', conversationId: conversation.id, text });
        set({ notice: undefined });
        return true;
      } catch (error) {
        set({ notice: toNotice(error) });
        return false;
      }
    },

    async stop() {
      const conversation = get().conversation;
      if (conversation) await port.request({ type: 'chat/stop', conversationId: conversation.id }).catch(() => undefined);
    },

    async retry() {
      const conversation = get().conversation;
      if (!conversation) return;
      try {
        await port.request({ type: 'chat/retry', conversationId: conversation.id });
        set({ notice: undefined });
      } catch (error) {
        set({ notice: toNotice(error) });
      }
    },

    async answerPermission(id, decision) {
      set({ permissions: get().permissions.filter((p) => p.id !== id) });
      await port.request({ type: 'permission/answer', id, decision }).catch((error: unknown) => set({ notice: toNotice(error) }));
    },

    async newChat() {
      try {
        const conversation = await port.request({ type: 'conversation/new' });
        set({ conversation, running: false, notice: undefined });
      } catch (error) {
        set({ notice: toNotice(error) });
      }
    },

    apply(event) {
      const current = get().conversation;
      switch (event.type) {
        case 'conversation/updated':
          if (!current || current.id === event.conversation.id) {
            set({ conversation: event.conversation, running: isRunning(event.conversation) });
          }
          return;
        case 'chat/delta': {
          if (current?.id !== event.conversationId) return;
          const messages = current.messages.map((m) => (m.id === event.messageId ? { ...m, content: event.reset ? event.delta : m.content + event.delta } : m));
          set({ conversation: { ...current, messages } });
          return;
        }
        case 'agent/status':
          if (current?.id === event.status.conversationId) set({ status: event.status, running: event.status.running || isRunning(current) });
          return;
        case 'permission/requested':
          set({ permissions: [...get().permissions.filter((p) => p.id !== event.request.id), event.request] });
          return;
        case 'permission/resolved':
          set({ permissions: get().permissions.filter((p) => p.id !== event.id) });
          return;
        case 'chat/error':
          // The failed answer carries the error; the conversation update that follows shows it.
          return;
      }
    },
  }));
}

export const useChat = createChatStore();
