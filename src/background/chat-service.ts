import { titleFrom, newId, type Conversation, type Intent, type UserMessage } from '../shared/conversation';
import type { BgToUiEvent } from '../shared/protocol';
import type { Settings } from '../shared/settings';
import type { AgentOutcome } from './agent/events';
import { toLlmHistory } from './agent/history';
import { runAgentLoop } from './agent/loop';
import type { PermissionGate } from './permissions/gate';
import { AGENT_PROMPT, BASE_PROMPT, systemPrompt, type PageContext } from './agent/prompts';
import type { ConversationStore } from './conversations';
import { classifyIntent } from './intent';
import { LlmError } from './llm/errors';
import type { LlmRouter } from './llm/router';
import type { ToolRegistry } from './tools/registry';
import { TurnRecorder } from './turn-recorder';

export interface Session {
  router: LlmRouter;
  settings: Settings;
  model: string;
}

/** The page the user is on, read for the prompt: text only, or with the element index. */
export interface PageAccess {
  /** `conversationId`: the conversation reading it, which alone may recall the page later. */
  context(forAction: boolean, signal: AbortSignal, conversationId?: string): Promise<{ page: PageContext; tabId: number } | undefined>;
}

export interface ChatServiceDeps {
  store: ConversationStore;
  emit(event: BgToUiEvent): void;
  /** The provider, settings and model for a turn: `model` when the chat chose one. */
  session(model?: string): Promise<Session>;
  tools: ToolRegistry;
  gate: PermissionGate;
  page?: PageAccess;
  now?: () => number;
  saveIntervalMs?: number;
}

const INTENT_TIMEOUT_MS = 20_000;

/**
 * Takes each user message through its turn: classify it, then answer on the fast path (one
 * streamed call, no tools) or run the agent loop, recording everything in the conversation.
 */
export class ChatService {
  private readonly running = new Map<string, AbortController>();
  private readonly now: () => number;

  constructor(private readonly deps: ChatServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  async send(conversationId: string, text: string): Promise<{ messageId: string }> {
    const conversation = await this.idle(conversationId);
    const message: UserMessage = { id: newId('msg'), role: 'user', content: text, createdAt: this.now() };
    await this.start(conversation, message, () => {
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
    if (!message || message.role !== 'user') throw new LlmError('bad_request', 'There is nothing to retry.', { retryable: false });
    await this.start(conversation, message, () => void conversation.messages.splice(lastUser + 1));
    return { messageId: message.id };
  }

  /** Replaces a user message with `text`, drops what followed it, and answers the new text. */
  async edit(conversationId: string, messageId: string, text: string): Promise<{ messageId: string }> {
    const conversation = await this.idle(conversationId);
    const index = conversation.messages.findIndex((m) => m.id === messageId && m.role === 'user');
    if (index < 0) throw new LlmError('bad_request', 'That message is no longer in this chat.', { retryable: false });
    const message: UserMessage = { id: newId('msg'), role: 'user', content: text, createdAt: this.now() };
    await this.start(conversation, message, () => {
      conversation.messages.splice(index, conversation.messages.length - index, message);
      if (index === 0) conversation.title = titleFrom(text);
    });
    return { messageId: message.id };
  }

  /** Chooses the model for this chat ('' for the settings' default); every open sidebar sees it. */
  async setModel(conversationId: string, model: string): Promise<Conversation> {
    const conversation = await this.deps.store.get(conversationId);
    if (!conversation) throw new LlmError('bad_request', 'That conversation no longer exists.', { retryable: false });
    conversation.model = model.trim() || undefined;
    await this.deps.store.save(conversation);
    this.deps.emit({ type: 'conversation/updated', conversation });
    return conversation;
  }

  stop(conversationId: string): boolean {
    const controller = this.running.get(conversationId);
    controller?.abort();
    return Boolean(controller);
  }

  private async idle(conversationId: string): Promise<Conversation> {
    const conversation = await this.deps.store.get(conversationId);
    if (!conversation) throw new LlmError('bad_request', 'That conversation no longer exists.', { retryable: false });
    if (this.isRunning(conversationId)) throw new LlmError('bad_request', 'FoxAgent is still working on this chat. Stop it first.', { retryable: false });
    return conversation;
  }

  /**
   * Applies `change` (the user's message added, or what followed it dropped) and stores it with
   * the answer about to come, before replying: if storage refuses, the change is undone, the chat
   * is told, and the request fails with the text, so the composer gets it back and nothing is lost.
   */
  private async start(conversation: Conversation, message: UserMessage, change: () => void): Promise<void> {
    const controller = new AbortController();
    this.running.set(conversation.id, controller);
    const before = { messages: [...conversation.messages], title: conversation.title };
    change();
    const recorder = new TurnRecorder(conversation, { store: this.deps.store, emit: this.deps.emit, now: this.now, saveIntervalMs: this.deps.saveIntervalMs ?? 500 }, '');
    try {
      await recorder.begin();
    } catch (cause) {
      this.running.delete(conversation.id);
      conversation.messages.splice(0, conversation.messages.length, ...before.messages);
      conversation.title = before.title;
      const error = new LlmError('storage_failed', 'Your message could not be saved, so FoxAgent did not send it.', {
        hint: `Firefox’s extension storage refused the write (${cause instanceof Error ? cause.message : String(cause)}). Free some space, e.g. delete old chats or clear the audit log, then send again: your text is back in the box.`,
        retryable: true,
      });
      this.deps.emit({ type: 'chat/error', conversationId: conversation.id, error: error.toUserError(), unsentText: message.content });
      throw error;
    }
    void this.runTurn(conversation, message, recorder, controller.signal).finally(() => this.running.delete(conversation.id));
  }

  private async runTurn(conversation: Conversation, message: UserMessage, recorder: TurnRecorder, signal: AbortSignal): Promise<void> {
    const history = toLlmHistory(conversation.messages.slice(0, conversation.messages.indexOf(message)));
    try {
      const session = await this.deps.session(conversation.model);
      recorder.setModel(session.model);
      message.intent = await this.classify(session, message.content, history.length > 0, signal);
      await recorder.publish();
      if (message.intent.kind === 'action') await this.act(session, conversation, message, history, recorder, signal);
      else await this.answer(session, message.intent, conversation.id, message, history, recorder, signal);
    } catch (error) {
      await this.fail(conversation, message, recorder, error, signal);
    }
  }

  private async classify(session: Session, text: string, hasHistory: boolean, signal: AbortSignal): Promise<Intent> {
    return classifyIntent(text, hasHistory, async (system, user) => {
      let reply = '';
      const limited = AbortSignal.any([signal, AbortSignal.timeout(INTENT_TIMEOUT_MS)]);
      for await (const event of session.router.chat({ model: session.model, temperature: 0, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] }, 'native', limited)) {
        if (event.type === 'text') reply = event.reset ? event.delta : reply + event.delta;
      }
      return reply;
    });
  }

  /** The fast path: one streamed answer with the page as context, no tools. */
  private async answer(session: Session, intent: Intent, conversationId: string, message: UserMessage, history: ReturnType<typeof toLlmHistory>, recorder: TurnRecorder, signal: AbortSignal) {
    const page = intent.kind === 'chat' ? undefined : await this.readPage(false, signal, conversationId);
    const messages = [{ role: 'system' as const, content: systemPrompt(BASE_PROMPT, page?.page) }, ...history, { role: 'user' as const, content: message.content }];
    for await (const event of session.router.chat({ model: session.model, messages }, session.settings.toolCallMode, signal)) {
      if (event.type === 'text') await recorder.appendText(event.delta, event.reset);
    }
    await recorder.finish({});
  }

  /** The agent loop, with the page's interactive elements in view. */
  private async act(session: Session, conversation: Conversation, message: UserMessage, history: ReturnType<typeof toLlmHistory>, recorder: TurnRecorder, signal: AbortSignal) {
    const page = await this.readPage(true, signal, conversation.id);
    const outcome = await runAgentLoop(
      {
        conversationId: conversation.id,
        model: session.model,
        mode: session.settings.toolCallMode,
        messages: [{ role: 'system', content: systemPrompt(AGENT_PROMPT, page?.page) }, ...history, { role: 'user', content: message.content }],
        tabId: page?.tabId,
        limits: { stepLimit: session.settings.stepLimit },
      },
      {
        router: session.router,
        tools: this.deps.tools,
        gate: this.deps.gate,
        // A save that fails mid-task is not lost: the conversation stays in memory and the closing
        // save writes it again (and reports a failure then).
        emit: (event) => void recorder.apply(event).catch(() => undefined),
        now: this.now,
      },
      signal,
    );
    await recorder.finish(closingOf(outcome));
  }

  private async readPage(forAction: boolean, signal: AbortSignal, conversationId: string) {
    // A page that cannot be read (a restricted page, a closed tab) still gets an answer, without it.
    return this.deps.page?.context(forAction, signal, conversationId).catch(() => undefined);
  }

  private async fail(conversation: Conversation, message: UserMessage, recorder: TurnRecorder, error: unknown, signal: AbortSignal) {
    if (signal.aborted) {
      await recorder.finish({ status: 'stopped' }).catch(() => undefined);
      return;
    }
    const llmError = error instanceof LlmError ? error : new LlmError('bad_response', error instanceof Error ? error.message : String(error));
    const partial = llmError.code === 'stream_cut' && recorder.hasText();
    if (partial) recorder.markCurrent('incomplete', llmError.toUserError());
    // Storage failing too must not hide the failure: the chat hears about it either way.
    await recorder.finish(partial ? { status: 'incomplete' } : { error: llmError.toUserError() }).catch(() => undefined);
    this.deps.emit({ type: 'chat/error', conversationId: conversation.id, error: llmError.toUserError(), unsentText: message.content });
  }
}

function closingOf(outcome: AgentOutcome): Parameters<TurnRecorder['finish']>[0] {
  switch (outcome.kind) {
    case 'answered':
      return {};
    case 'done':
      return { text: outcome.summary };
    case 'asked_user':
      return { text: outcome.question };
    case 'stopped':
      return { status: 'stopped' };
    default:
      return { error: { code: outcome.kind, message: outcome.message, retryable: true } };
  }
}
