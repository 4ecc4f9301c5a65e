import { say } from '../shared/i18n';
import { titleFrom, newId, type Conversation, type PageFocus, type TabRef, type UserMessage } from '../shared/conversation';
import type { BgToUiEvent } from '../shared/protocol';
import type { ConversationStore } from './conversations';
import { LlmError } from './llm/errors';
import type { PermissionGate } from './permissions/gate';
import type { PlanStarter } from './plans/control';
import { RunConflict, RunRegistry, type RunOrigin } from './runs/registry';
import { TurnRunner, type PageAccess, type Session } from './runs/turn';
import type { ToolRegistry } from './tools/registry';
import { TurnRecorder } from './turn-recorder';
import type { PageLooker } from './vision/fallback';

export type { PageAccess, PageRead, PageRequest, Session } from './runs/turn';

export interface ChatServiceDeps {
  store: ConversationStore;
  emit(event: BgToUiEvent): void;
  /** The provider, settings and model for a turn: `model` when the chat chose one. */
  session(model?: string): Promise<Session>;
  tools: ToolRegistry;
  gate: PermissionGate;
  page?: PageAccess;
  /** The page's layout facts, for the vision fallback. */
  vision?: PageLooker;
  /** Where plans a turn makes go (the plans service). */
  plans?: PlanStarter;
  /** Where runs are registered; one is made when none is given. */
  runs?: RunRegistry;
  now?: () => number;
  saveIntervalMs?: number;
}

/**
 * The conversation's messages: send, retry and edit change them and start the turn that answers
 * as a run in the run registry (runs/turn.ts does the turn); Stop stops the conversation's run.
 */
export class ChatService {
  readonly runs: RunRegistry;
  private readonly now: () => number;
  private readonly turns: TurnRunner;

  constructor(private readonly deps: ChatServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.runs = deps.runs ?? new RunRegistry(this.now);
    // Every open sidebar keeps the list of runs: which chats are working, and what Stop stops.
    this.runs.subscribe((runs) => deps.emit({ type: 'runs/changed', runs }));
    this.turns = new TurnRunner({ emit: deps.emit, session: deps.session, tools: deps.tools, gate: deps.gate, page: deps.page, vision: deps.vision, plans: deps.plans, now: this.now });
  }

  isRunning(conversationId: string): boolean {
    return this.runs.busy(conversationId);
  }

  /**
   * `origin`: where the message came from (typed in the sidebar, spoken…); `focus`: where on a
   * long page to read; `tabs`: the tabs the message is about (attached with @); `plan`: the user asked for a workflow plan.
   */
  async send(conversationId: string, text: string, origin: RunOrigin = 'sidebar', about: { focus?: PageFocus; tabs?: TabRef[]; plan?: boolean } = {}): Promise<{ messageId: string }> {
    const conversation = await this.idle(conversationId);
    const message: UserMessage = { id: newId('msg'), role: 'user', content: text, createdAt: this.now(), ...(about.focus ? { focus: about.focus } : {}), ...(about.tabs?.length ? { tabs: about.tabs } : {}), ...(about.plan ? { plan: true } : {}) };
    await this.start(conversation, message, origin, () => {
      conversation.messages.push(message);
      if (!conversation.title) conversation.title = titleFrom(text);
    });
    return { messageId: message.id };
  }

  /** Runs the last user message again, replacing whatever answered it. */
  async retry(conversationId: string): Promise<{ messageId: string }> {
    const conversation = await this.idle(conversationId);
    const lastUser = conversation.messages.map((m) => m.role).lastIndexOf('user');
    const message = conversation.messages[lastUser];
    if (!message || message.role !== 'user') throw new LlmError('bad_request', say('errorNothingToRetry'), { retryable: false });
    await this.start(conversation, message, 'sidebar', () => void conversation.messages.splice(lastUser + 1));
    return { messageId: message.id };
  }

  /** Replaces a user message with `text`, drops what followed it, and answers the new text. */
  async edit(conversationId: string, messageId: string, text: string): Promise<{ messageId: string }> {
    const conversation = await this.idle(conversationId);
    const index = conversation.messages.findIndex((m) => m.id === messageId && m.role === 'user');
    if (index < 0) throw new LlmError('bad_request', say('errorMessageGone'), { retryable: false });
    const message: UserMessage = { id: newId('msg'), role: 'user', content: text, createdAt: this.now() };
    await this.start(conversation, message, 'sidebar', () => {
      conversation.messages.splice(index, conversation.messages.length - index, message);
      if (index === 0) conversation.title = titleFrom(text);
    });
    return { messageId: message.id };
  }

  /** Chooses the model for this chat ('' for the settings' default); every open sidebar sees it. */
  async setModel(conversationId: string, model: string): Promise<Conversation> {
    const conversation = await this.deps.store.get(conversationId);
    if (!conversation) throw new LlmError('bad_request', say('errorConversationGone'), { retryable: false });
    conversation.model = model.trim() || undefined;
    await this.deps.store.save(conversation);
    this.deps.emit({ type: 'conversation/updated', conversation });
    return conversation;
  }

  stop(conversationId: string): boolean {
    return this.runs.stopConversation(conversationId);
  }

  private async idle(conversationId: string): Promise<Conversation> {
    const conversation = await this.deps.store.get(conversationId);
    if (!conversation) throw new LlmError('bad_request', say('errorConversationGone'), { retryable: false });
    if (this.isRunning(conversationId)) throw new LlmError('bad_request', new RunConflict(conversationId).message, { retryable: false });
    return conversation;
  }

  /**
   * Applies `change` (the user's message added, or what followed it dropped) and stores it with
   * the answer about to come, before replying: if storage refuses, the change is undone, the chat
   * is told, and the request fails with the text, so the composer gets it back and nothing is lost.
   */
  private async start(conversation: Conversation, message: UserMessage, origin: RunOrigin, change: () => void): Promise<void> {
    const run = (() => {
      try {
        // A message about chosen tabs is a run that may act in those tabs (and tabs it opens) only.
        return this.runs.open({ origin, conversationId: conversation.id, ...(message.tabs?.length ? { tabs: message.tabs.map((t) => t.id) } : {}) });
      } catch (error) {
        if (error instanceof RunConflict) throw new LlmError('bad_request', error.message, { retryable: false });
        throw error;
      }
    })();
    const before = { messages: [...conversation.messages], title: conversation.title };
    change();
    const recorder = new TurnRecorder(conversation, { store: this.deps.store, emit: this.deps.emit, now: this.now, saveIntervalMs: this.deps.saveIntervalMs ?? 500 }, '');
    try {
      await recorder.begin();
    } catch (cause) {
      this.runs.close(run.id);
      conversation.messages.splice(0, conversation.messages.length, ...before.messages);
      conversation.title = before.title;
      const error = new LlmError('storage_failed', say('errorNotSaved'), {
        hint: say('hintStorageRefused', cause instanceof Error ? cause.message : String(cause)),
        retryable: true,
      });
      this.deps.emit({ type: 'chat/error', conversationId: conversation.id, error: error.toUserError(), unsentText: message.content });
      throw error;
    }
    void this.turns.run(run, conversation, message, recorder).finally(() => this.runs.close(run.id));
  }
}
