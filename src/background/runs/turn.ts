/**
 * One turn of a conversation, run as a run: classify the message, route it (turn-router.ts), then
 * answer on the fast path (one streamed call, no tools) or run the agent loop in the run's
 * permission scope, recording everything in the conversation; failures become chat errors that
 * keep the user's text.
 */
import type { Conversation, Intent, UserMessage } from '../../shared/conversation';
import type { BgToUiEvent } from '../../shared/protocol';
import type { Settings } from '../../shared/settings';
import type { AgentOutcome } from '../agent/events';
import { toLlmHistory } from '../agent/history';
import { runAgentLoop } from '../agent/loop';
import { AGENT_PROMPT, BASE_PROMPT, systemPrompt, type PageContext } from '../agent/prompts';
import { classifyIntent } from '../intent';
import { LlmError } from '../llm/errors';
import type { LlmRouter } from '../llm/router';
import type { PermissionGate } from '../permissions/gate';
import type { ToolRegistry } from '../tools/registry';
import type { TurnRecorder } from '../turn-recorder';
import type { Run } from './registry';
import { routeTurn } from './turn-router';

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

export interface TurnDeps {
  emit(event: BgToUiEvent): void;
  /** The provider, settings and model for a turn: `model` when the chat chose one. */
  session(model?: string): Promise<Session>;
  tools: ToolRegistry;
  gate: PermissionGate;
  page?: PageAccess;
  now: () => number;
}

const INTENT_TIMEOUT_MS = 20_000;

export class TurnRunner {
  constructor(private readonly deps: TurnDeps) {}

  async run(run: Run, conversation: Conversation, message: UserMessage, recorder: TurnRecorder): Promise<void> {
    const signal = run.signal;
    const history = toLlmHistory(conversation.messages.slice(0, conversation.messages.indexOf(message)));
    try {
      const session = await this.deps.session(conversation.model);
      recorder.setModel(session.model);
      message.intent = await this.classify(session, message.content, history.length > 0, signal);
      await recorder.publish();
      if (routeTurn(message.intent) === 'agent') await this.act(session, run, conversation, message, history, recorder);
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
  private async act(session: Session, run: Run, conversation: Conversation, message: UserMessage, history: ReturnType<typeof toLlmHistory>, recorder: TurnRecorder) {
    const signal = run.signal;
    const page = await this.readPage(true, signal, conversation.id);
    // The run's permission scope starts on the page it reads.
    run.scope.tabId ??= page?.tabId;
    run.scope.startTabId ??= page?.tabId;
    const outcome = await runAgentLoop(
      {
        conversationId: conversation.id,
        model: session.model,
        mode: session.settings.toolCallMode,
        messages: [{ role: 'system', content: systemPrompt(AGENT_PROMPT, page?.page) }, ...history, { role: 'user', content: message.content }],
        scope: run.scope,
        limits: { stepLimit: run.budget.steps ?? session.settings.stepLimit, ...(run.budget.wallClockMs ? { wallClockMs: run.budget.wallClockMs } : {}) },
      },
      {
        router: session.router,
        tools: this.deps.tools,
        gate: this.deps.gate,
        // A save that fails mid-task is not lost: the conversation stays in memory and the closing
        // save writes it again (and reports a failure then).
        emit: (event) => void recorder.apply(event).catch(() => undefined),
        now: this.deps.now,
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
      return { error: { code: outcome.kind, message: outcome.message, text: { message: outcome.text }, retryable: true } };
  }
}
