import type { CurrentPage, OpenTab, UiReplyMap, UiRequestType, UiToBgRequest } from '../shared/protocol';
import { withoutKey, type Settings } from '../shared/settings';
import { loadSettings, saveSettings } from '../shared/settings-store';
import type { StoreOrArea } from '../shared/store';
import type { ChatService } from './chat-service';
import type { ConversationStore } from './conversations';
import type { LlmProvider } from './llm/types';
import type { AuditLog } from './permissions/audit-log';
import type { ToolRegistry } from './tools/registry';
import type { PolicyStore } from './permissions/policies';
import type { PermissionPrompter } from './permissions/prompter';
import type { HandOverControl, PlanControl } from './plans/control';
import type { VoiceControl } from './voice/control';
import type { VoiceShortcut } from './voice/shortcut';

export interface HandlerDeps {
  chat: ChatService;
  conversations: ConversationStore;
  settingsStore: StoreOrArea;
  currentProvider(): Promise<LlmProvider>;
  prompter: PermissionPrompter;
  policies: PolicyStore;
  tools: Pick<ToolRegistry, 'all'>;
  audit: AuditLog;
  /** The page the chat is about now. */
  currentPage(): Promise<CurrentPage>;
  /** The tabs of the chat's window, for the composer's @ menu. */
  openTabs(): Promise<OpenTab[]>;
  /** A deleted conversation's pages stop being recallable. */
  forgetPages?(conversationId: string): void;
  plans?: PlanControl;
  handovers?: HandOverControl;
  voice?: VoiceControl;
  /** The global voice shortcut's request, claimed by a sidebar. */
  voiceShortcut?: VoiceShortcut;
  /** Brings a tab to the front, in its window. */
  focusTab?(tabId: number): Promise<boolean>;
}

/** A request for a part this background was built without (a test's handler table). */
function missing(part: string): never {
  throw new Error(`${part} is not available.`);
}

/** Where a request came from: the path of the extension page that sent it (`/options.html`). */
export interface RequestContext {
  page: string;
}

/** The only page that may see the API key. */
const OPTIONS_PAGE = '/options.html';
/** A request that does not say where it is from is treated as not from the options page. */
const UNKNOWN_PAGE: RequestContext = { page: '' };

type RequestOf<T extends UiRequestType> = Extract<UiToBgRequest, { type: T }>;
type Handlers = { [T in UiRequestType]: (request: RequestOf<T>, from?: RequestContext) => Promise<UiReplyMap[T]> };

/** Settings as the requesting page may see them: the key only for the options page. */
function settingsFor(from: RequestContext, settings: Settings): Settings {
  return from.page === OPTIONS_PAGE ? settings : withoutKey(settings);
}

/** One handler per request type; the compiler flags a request type without one. */
export function createHandlers(deps: HandlerDeps): Handlers {
  return {
    'chat/send': (r) => deps.chat.send(r.conversationId, r.text, r.spoken ? 'voice' : 'sidebar', { focus: r.focus, tabs: r.tabs, ...(r.plan ? { plan: true } : {}) }),
    'chat/retry': (r) => deps.chat.retry(r.conversationId),
    'chat/edit': (r) => deps.chat.edit(r.conversationId, r.messageId, r.text),
    'runs/list': async () => deps.chat.runs.list(),
    'runs/stop': async (r) => ({ stopped: deps.chat.runs.stop(r.runId) }),
    'conversation/get': async (r) => (r.conversationId && (await deps.conversations.open(r.conversationId))) || deps.conversations.active(),
    'conversation/new': () => deps.conversations.create(),
    'conversation/list': (r) => deps.conversations.search(r.query ?? ''),
    'conversation/rename': async (r) => ({ renamed: Boolean(await deps.conversations.rename(r.conversationId, r.title)) }),
    'conversation/delete': async (r) => {
      deps.chat.stop(r.conversationId);
      await deps.conversations.remove(r.conversationId);
      deps.forgetPages?.(r.conversationId);
      // The user lands on the most recent remaining chat, or a fresh one.
      const [next] = await deps.conversations.list();
      return (next && (await deps.conversations.open(next.id))) || deps.conversations.create();
    },
    'conversation/set-model': (r) => deps.chat.setModel(r.conversationId, r.model),
    'tools/list': async () => deps.tools.all().map((tool) => ({ name: tool.name, risk: tool.risk })),
    'page/current': () => deps.currentPage(),
    'tabs/list': () => deps.openTabs(),
    'settings/get': async (_r, from = UNKNOWN_PAGE) => settingsFor(from, await loadSettings(deps.settingsStore)),
    'settings/save': async (r, from = UNKNOWN_PAGE) => settingsFor(from, await saveSettings(deps.settingsStore, r.settings, { fromOptionsPage: from.page === OPTIONS_PAGE })),
    'models/list': async () => (await deps.currentProvider()).listModels(),
    'permission/pending': async () => deps.prompter.list(),
    'permission/answer': async (r) => ({ accepted: deps.prompter.answer(r.id, r.decision) }),
    'policies/list': () => deps.policies.list(),
    'policies/set': async (r) => {
      await deps.policies.set({ origin: r.origin, subject: r.subject, policy: r.policy });
      return deps.policies.list();
    },
    'policies/remove': async (r) => {
      await deps.policies.remove(r.origin, r.subject);
      return deps.policies.list();
    },
    'sensitive-sites/get': () => deps.policies.sensitiveSites(),
    'sensitive-sites/set': async (r) => {
      await deps.policies.setSensitiveSites(r.origins);
      return deps.policies.sensitiveSites();
    },
    'audit/list': async (r) => (await deps.audit.list(r.filter ?? {})).slice(-500).reverse(),
    'audit/clear': async () => {
      await deps.audit.clear();
      return { cleared: true as const };
    },
    'plan/list': (r) => (deps.plans ?? missing('Plans')).list(r.conversationId),
    'plan/run': (r) => (deps.plans ?? missing('Plans')).run(r.planId, r.plan),
    'plan/cancel': (r) => (deps.plans ?? missing('Plans')).cancel(r.planId),
    'plan/stop': (r) => (deps.plans ?? missing('Plans')).stop(r.planId),
    'plan/retry-step': (r) => (deps.plans ?? missing('Plans')).retryStep(r.planId, r.stepId),
    'plan/resume': (r) => (deps.plans ?? missing('Plans')).resume(r.planId),
    'handover/pending': async () => deps.handovers?.pending() ?? [],
    'handover/continue': async (r) => ({ continued: deps.handovers?.continue(r.id) ?? false }),
    'tabs/focus': async (r) => ({ focused: (await deps.focusTab?.(r.tabId)) ?? false }),
    'voice/transcribe': (r) => (deps.voice ?? missing('Voice')).transcribe(r.recording),
    'voice/test': (r) => (deps.voice ?? missing('Voice')).test(r.voice),
    'voice/claim-toggle': async (r) => ({ toggle: deps.voiceShortcut?.claim(r.windowId) ?? false }),
  };
}

export async function dispatch(handlers: Handlers, request: UiToBgRequest, from: RequestContext = UNKNOWN_PAGE): Promise<unknown> {
  const handler = handlers[request.type] as (r: UiToBgRequest, from: RequestContext) => Promise<unknown>;
  return handler(request, from);
}
