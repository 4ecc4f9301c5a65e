import { forgetOlderImages, newId, type AssistantMessage, type Conversation, type PageCoverage, type ToolMessage, type UserError } from '../shared/conversation';
import type { Localized } from '../shared/i18n';
import type { AgentStatus, BgToUiEvent } from '../shared/protocol';
import type { AgentEvent } from './agent/events';
import type { ConversationStore } from './conversations';

export interface RecorderDeps {
  store: ConversationStore;
  emit(event: BgToUiEvent): void;
  now(): number;
  saveIntervalMs: number;
}

/**
 * Writes one turn into its conversation as it happens: streamed text into the current assistant
 * message, one tool message per call (updated through its states), and the agent's status. It
 * saves as it goes, so a closed sidebar or a crash loses at most the last half second.
 */
export class TurnRecorder {
  private current: AssistantMessage | undefined;
  private lastSave = 0;
  readonly status: AgentStatus;

  constructor(
    private readonly conversation: Conversation,
    private readonly deps: RecorderDeps,
    private model: string,
  ) {
    this.status = { conversationId: conversation.id, running: true, step: 0, stepLimit: 0 };
  }

  setModel(model: string): void {
    this.model = model;
    if (this.current) this.current.model = model;
  }

  /** How much of a long page the answer was given. */
  setPage(coverage: PageCoverage): void {
    const message = this.current ?? this.openAssistant();
    message.page = coverage;
  }

  /** Work before the answer, in steps (the parts of a long page being read): shown in the status bar. */
  progress(step: number, of: number): void {
    Object.assign(this.status, { step, stepLimit: of, lastAction: 'read_page' });
    this.emitStatus();
  }

  hasText(): boolean {
    return Boolean(this.current?.content);
  }

  /** The id of the assistant message the turn's next words go into (opened now when none is). */
  assistantId(): string {
    return (this.current ?? this.openAssistant()).id;
  }

  /** The workflow plan the turn's message shows as a card. */
  setPlan(planId: string): void {
    (this.current ?? this.openAssistant()).planId = planId;
  }

  /** Opens the assistant message the next text goes into. */
  async begin(): Promise<void> {
    this.openAssistant();
    await this.publish();
  }

  async apply(event: AgentEvent): Promise<void> {
    switch (event.type) {
      case 'step':
        Object.assign(this.status, { step: event.step, stepLimit: event.limit });
        if (!this.current || this.current.content || this.current.toolCalls?.length || this.current.repair) this.openAssistant();
        this.emitStatus();
        return this.publish();
      case 'tool_mode':
        this.status.toolMode = event.mode;
        if (this.current) Object.assign(this.current, { toolMode: event.mode, toolModeReason: event.reason });
        this.emitStatus();
        return;
      case 'tool_tier':
        this.status.toolTier = event.tier;
        if (this.current) this.current.toolTier = event.tier;
        this.emitStatus();
        return;
      case 'repair': {
        const message = this.current ?? this.openAssistant();
        message.repair = event.text;
        return this.publish();
      }
      case 'retrying':
        this.status.lastAction = `Retrying in ${Math.round(event.delayMs / 1000)} s: ${event.reason}`;
        this.emitStatus();
        return;
      case 'text':
        return this.appendText(event.delta, event.reset);
      case 'assistant': {
        const message = this.current ?? this.openAssistant();
        message.content = event.content;
        message.toolCalls = event.toolCalls.length ? event.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) : undefined;
        message.status = 'complete';
        return this.publish();
      }
      case 'tool':
        this.upsertTool(event);
        if (event.parts) forgetOlderImages(this.conversation.messages);
        if (event.status === 'running' || event.status === 'waiting_permission') this.status.lastAction = `${event.call.name}`;
        this.emitStatus();
        return this.publish();
    }
  }

  /** Streams text into the open reply; `reset` replaces what it showed so far. */
  async appendText(delta: string, reset = false): Promise<void> {
    const message = this.current ?? this.openAssistant();
    message.content = reset ? delta : message.content + delta;
    this.deps.emit({ type: 'chat/delta', conversationId: this.conversation.id, messageId: message.id, delta, ...(reset ? { reset } : {}) });
    if (this.deps.now() - this.lastSave > this.deps.saveIntervalMs) await this.save();
  }

  /** A closing message from FoxAgent itself (the done summary, or why the task stopped). */
  async finish(result: { text?: string; said?: Localized[]; error?: UserError; status?: AssistantMessage['status'] }): Promise<void> {
    const open = this.current && !this.current.content && !this.current.toolCalls?.length ? this.current : undefined;
    if (result.text !== undefined || result.error) {
      const message = open ?? this.openAssistant();
      if (result.text !== undefined) message.content = result.text;
      if (result.said) message.said = result.said;
      message.error = result.error;
      message.status = result.status ?? (result.error ? 'error' : 'complete');
    } else if (this.current) {
      this.current.status = result.status ?? (this.current.status === 'streaming' ? 'complete' : this.current.status);
    }
    this.dropEmptyAssistants();
    this.status.running = false;
    this.emitStatus();
    await this.publish();
  }

  /** Marks the streaming answer as ended by the user, keeping what was written. */
  markCurrent(status: AssistantMessage['status'], error?: UserError): void {
    if (this.current) Object.assign(this.current, { status, error });
  }

  private openAssistant(): AssistantMessage {
    const message: AssistantMessage = { id: newId('msg'), role: 'assistant', content: '', createdAt: this.deps.now(), status: 'streaming', model: this.model };
    this.conversation.messages.push(message);
    this.current = message;
    return message;
  }

  private upsertTool(event: Extract<AgentEvent, { type: 'tool' }>): void {
    const existing = this.conversation.messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === event.call.id);
    const patch = {
      status: event.status,
      ...(event.content !== undefined ? { content: event.content } : {}),
      ...(event.parts ? { parts: event.parts } : {}),
      ...(event.preview !== undefined ? { preview: event.preview, previewText: event.previewText } : {}),
      ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
      ...(event.masked?.length ? { masked: event.masked } : {}),
    };
    if (existing) {
      Object.assign(existing, patch);
      return;
    }
    const reason = typeof event.call.arguments.reason === 'string' ? event.call.arguments.reason : undefined;
    this.conversation.messages.push({
      id: newId('tool'),
      role: 'tool',
      createdAt: this.deps.now(),
      toolCallId: event.call.id,
      name: event.call.name,
      arguments: event.call.arguments,
      content: '',
      ...(reason ? { reason } : {}),
      ...(event.call.raw ? { raw: event.call.raw } : {}),
      ...patch,
    });
  }

  /** Steps that produced neither text nor calls leave no empty bubble behind. */
  private dropEmptyAssistants(): void {
    const keep = this.conversation.messages.filter((m) => !(m.role === 'assistant' && !m.content && !m.toolCalls?.length && !m.error && !m.repair && !m.planId));
    this.conversation.messages.splice(0, this.conversation.messages.length, ...keep);
  }

  private emitStatus(): void {
    this.deps.emit({ type: 'agent/status', status: { ...this.status } });
  }

  private async save(): Promise<void> {
    this.lastSave = this.deps.now();
    await this.deps.store.save(this.conversation);
  }

  async publish(): Promise<void> {
    await this.save();
    this.deps.emit({ type: 'conversation/updated', conversation: this.conversation });
  }
}
