import type { UiReplyMap, UiRequestType, UiToBgRequest } from '../shared/protocol';
import { loadSettings, saveSettings, type KeyValueStore } from '../shared/settings';
import type { ChatService } from './chat-service';
import type { ConversationStore } from './conversations';
import type { LlmProvider } from './llm/types';

export interface HandlerDeps {
  chat: ChatService;
  conversations: ConversationStore;
  settingsStore: KeyValueStore;
  currentProvider(): Promise<LlmProvider>;
  onSettingsSaved?(): void;
}

type RequestOf<T extends UiRequestType> = Extract<UiToBgRequest, { type: T }>;
type Handlers = { [T in UiRequestType]: (request: RequestOf<T>) => Promise<UiReplyMap[T]> };

/** One handler per request type; the compiler flags a request type without one. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    'chat/send': (r) => deps.chat.send(r.conversationId, r.text),
    'chat/retry': (r) => deps.chat.retry(r.conversationId),
    'chat/stop': async (r) => ({ stopped: deps.chat.stop(r.conversationId) }),
    'conversation/get': async (r) => (r.conversationId && (await deps.conversations.get(r.conversationId))) || deps.conversations.active(),
    'conversation/new': () => deps.conversations.create(),
    'settings/get': () => loadSettings(deps.settingsStore),
    'settings/save': async (r) => {
      const saved = await saveSettings(deps.settingsStore, r.settings);
      deps.onSettingsSaved?.();
      return saved;
    },
    'models/list': async () => (await deps.currentProvider()).listModels(),
  };
}

export async function dispatch(handlers: Handlers, request: UiToBgRequest): Promise<unknown> {
  const handler = handlers[request.type] as (r: UiToBgRequest) => Promise<unknown>;
  return handler(request);
}
