import { create } from 'zustand';
import { hasUnfinishedTurn, type Conversation, type PageFocus, type TabRef, type UserError } from '../../shared/conversation';
import type { AgentStatus, BgToUiEvent } from '../../shared/protocol';
import { backgroundPort, RequestError, type BackgroundPort } from '../../ui/port';
import { useRuns } from './runs';

export interface ChatState {
  conversation: Conversation | undefined;
  /** A failure that is not tied to one answer (e.g. the background could not be reached). */
  notice: UserError | undefined;
  running: boolean;
  status: AgentStatus | undefined;
  load(): Promise<void>;
  /** Shows this conversation (another chat was picked, or the open one was deleted). */
  show(conversation: Conversation): void;
  /** `focus`: where on a long page to read (Read on, Pick a section); `tabs`: the tabs attached with @; `plan`: make a workflow plan. */
  send(text: string, about?: { focus?: PageFocus; tabs?: TabRef[]; plan?: boolean }): Promise<boolean>;
  /** Replaces one of the user's messages and answers it again. */
  edit(messageId: string, text: string): Promise<boolean>;
  /** The model for this chat ('' for the settings' default). */
  setModel(model: string): Promise<void>;
  stop(): Promise<void>;
  retry(): Promise<void>;
  newChat(): Promise<void>;
  apply(event: BgToUiEvent): void;
}

function isRunning(conversation: Conversation | undefined): boolean {
  return Boolean(conversation && hasUnfinishedTurn(conversation));
}

/** Whether the chat already shows this failure on its last answer. */
function showsError(conversation: Conversation, error: UserError): boolean {
  const last = conversation.messages.at(-1);
  return last?.role === 'assistant' && last.error?.code === error.code;
}

function toNotice(error: unknown): UserError {
  if (error instanceof RequestError) return { ...error.detail, retryable: true };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error), retryable: true };
}

export function createChatStore(port: BackgroundPort = backgroundPort) {
  return create<ChatState>((set, get) => {
    /**
     * Runs a request for the open chat. A failure becomes the notice, with Retry, and the caller
     * learns it did not go through (so the composer can give the text back).
     */
    const attempt = async (run: (conversationId: string) => Promise<void>): Promise<boolean> => {
      const conversation = get().conversation;
      if (!conversation) return false;
      try {
        await run(conversation.id);
        set({ notice: undefined });
        return true;
      } catch (error) {
        set({ notice: toNotice(error) });
        return false;
      }
    };

    /** Shows the conversation the background answers with, or why it could not. */
    const open = async (request: Promise<Conversation>): Promise<void> => {
      try {
        get().show(await request);
      } catch (error) {
        set({ notice: toNotice(error) });
      }
    };

    return {
      conversation: undefined,
      notice: undefined,
      running: false,
      status: undefined,

      load: () => open(port.request({ type: 'conversation/get' })),

      show: (conversation) => set({ conversation, running: isRunning(conversation), status: undefined, notice: undefined }),

      send: (text, about = {}) =>
        text.trim()
          ? attempt(async (conversationId) => void (await port.request({ type: 'chat/send', conversationId, text, ...(about.focus ? { focus: about.focus } : {}), ...(about.tabs?.length ? { tabs: about.tabs } : {}), ...(about.plan ? { plan: true } : {}) })))
          : Promise.resolve(false),

      edit: (messageId, text) =>
        text.trim() ? attempt(async (conversationId) => void (await port.request({ type: 'chat/edit', conversationId, messageId, text }))) : Promise.resolve(false),

      async stop() {
        const conversation = get().conversation;
        if (conversation) await useRuns.getState().stopConversation(conversation.id).catch(() => undefined);
      },

      async retry() {
        await attempt(async (conversationId) => void (await port.request({ type: 'chat/retry', conversationId })));
      },

      async setModel(model) {
        await attempt(async (conversationId) => set({ conversation: await port.request({ type: 'conversation/set-model', conversationId, model }) }));
      },

      newChat: () => open(port.request({ type: 'conversation/new' })),

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
          case 'permission/resolved':
          case 'runs/changed':
          case 'page/current':
            // The permissions, runs and page stores keep those.
            return;
          case 'chat/error':
            // Usually the failed answer carries the error and the chat shows it there. When it
            // could not be stored (storage failing), the failure is shown as the notice instead.
            if (current?.id === event.conversationId && !showsError(current, event.error)) set({ notice: event.error });
            return;
        }
      },
    };
  });
}

export const useChat = createChatStore();
