import { newId, titleFrom, type ChatMessage, type Conversation } from '../shared/conversation';
import type { BgToUiEvent } from '../shared/protocol';
import type { Settings } from '../shared/settings';
import type { ConversationStore } from './conversations';
import { LlmError } from './llm/errors';
import type { LlmMessage, LlmProvider } from './llm/types';

export interface ChatServiceDeps {
  store: ConversationStore;
  /** The provider and settings in force now (settings can change between turns). */
  resolveProvider(): Promise<{ provider: LlmProvider; settings: Settings }>;
  emit(event: BgToUiEvent): void;
  now?: () => number;
  /** How often a streaming answer is written to storage, at most. */
  saveIntervalMs?: number;
}

const SYSTEM_PROMPT =
  'You are FoxAgent, an assistant that lives in the Firefox sidebar. Answer clearly and concisely, using Markdown where it helps.';

/** Runs chat turns: stores the conversation as it goes and streams the answer to the sidebar. */
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
    const conversation = await this.load(conversationId);
    if (this.isRunning(conversationId)) throw new LlmError('bad_request', 'An answer is still being written. Stop it first.', { retryable: false });
    conversation.messages.push({ id: newId('msg'), role: 'user', content: text, createdAt: this.now(), status: 'complete' });
    if (!conversation.title) conversation.title = titleFrom(text);
    return this.startTurn(conversation);
  }

  /** Answers the last user message again, replacing a failed or stopped answer. */
  async retry(conversationId: string): Promise<{ messageId: string }> {
    const conversation = await this.load(conversationId);
    if (this.isRunning(conversationId)) throw new LlmError('bad_request', 'An answer is still being written.', { retryable: false });
    while (conversation.messages.at(-1)?.role === 'assistant') conversation.messages.pop();
    if (!conversation.messages.length) throw new LlmError('bad_request', 'There is nothing to retry.', { retryable: false });
    return this.startTurn(conversation);
  }

  stop(conversationId: string): boolean {
    const controller = this.running.get(conversationId);
    controller?.abort();
    return Boolean(controller);
  }

  private async load(conversationId: string): Promise<Conversation> {
    const conversation = await this.deps.store.get(conversationId);
    if (!conversation) throw new LlmError('bad_request', 'That conversation no longer exists.', { retryable: false });
    return conversation;
  }

  private async startTurn(conversation: Conversation): Promise<{ messageId: string }> {
    const answer: ChatMessage = { id: newId('msg'), role: 'assistant', content: '', createdAt: this.now(), status: 'streaming' };
    conversation.messages.push(answer);
    const controller = new AbortController();
    this.running.set(conversation.id, controller);
    await this.publish(conversation);
    void this.runTurn(conversation, answer, controller.signal).finally(() => this.running.delete(conversation.id));
    return { messageId: answer.id };
  }

  private async runTurn(conversation: Conversation, answer: ChatMessage, signal: AbortSignal): Promise<void> {
    let lastSave = this.now();
    try {
      const { provider, settings } = await this.deps.resolveProvider();
      answer.model = settings.provider.model;
      const history = toLlmHistory(conversation.messages.slice(0, -1));
      for await (const event of provider.chat({ model: settings.provider.model, messages: history }, signal)) {
        if (event.type !== 'text') continue;
        answer.content += event.delta;
        this.deps.emit({ type: 'chat/delta', conversationId: conversation.id, messageId: answer.id, delta: event.delta });
        if (this.now() - lastSave > (this.deps.saveIntervalMs ?? 500)) {
          lastSave = this.now();
          await this.deps.store.save(conversation);
        }
      }
      answer.status = 'complete';
    } catch (error) {
      this.fail(conversation, answer, error, signal);
    }
    await this.publish(conversation);
  }

  private fail(conversation: Conversation, answer: ChatMessage, error: unknown, signal: AbortSignal): void {
    if (signal.aborted) {
      answer.status = 'stopped';
      return;
    }
    const llmError = error instanceof LlmError ? error : new LlmError('bad_response', error instanceof Error ? error.message : String(error));
    // A cut stream keeps what arrived; anything else with no text is an error in place of an answer.
    answer.status = llmError.code === 'stream_cut' && answer.content ? 'incomplete' : 'error';
    answer.error = llmError.toUserError();
    const lastUser = [...conversation.messages].reverse().find((m) => m.role === 'user');
    this.deps.emit({ type: 'chat/error', conversationId: conversation.id, error: answer.error, unsentText: lastUser?.content });
  }

  private async publish(conversation: Conversation): Promise<void> {
    await this.deps.store.save(conversation);
    this.deps.emit({ type: 'conversation/updated', conversation });
  }
}

/** The conversation as the model sees it: finished messages only, failed answers left out. */
export function toLlmHistory(messages: readonly ChatMessage[]): LlmMessage[] {
  const history: LlmMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }];
  for (const m of messages) {
    if (m.role === 'user') history.push({ role: 'user', content: m.content });
    else if (m.content && m.status !== 'error') history.push({ role: 'assistant', content: m.content });
  }
  return history;
}
