/** Background composition root: builds the services and wires them to the browser. Nothing else. */
import browser from 'webextension-polyfill';
import type { BgToUiEvent } from '../shared/protocol';
import { loadSettings } from '../shared/settings-store';
import { MIGRATIONS, RECORDS, Store } from '../shared/store';
import { ChatService } from './chat-service';
import { ConversationStore } from './conversations';
import { createHandlers, dispatch } from './message-handler';
import { createOriginGuard } from './ollama-origin';
import { createPageAccess, currentPage, openTabs } from './page/active-page';
import { PageCache } from './page/page-cache';
import { PageReader } from './page/page-reader';
import { TabAgent } from './page/tab-agent';
import { waitForLoad } from './page/wait-for-load';
import { AuditLog } from './permissions/audit-log';
import { PolicyStore } from './permissions/policies';
import { PolicyGate } from './permissions/policy-gate';
import { PermissionPrompter } from './permissions/prompter';
import { createSessionFactory } from './provider-resolver';
import { SidebarHub } from './sidebar-hub';
import { createToolRegistry } from './tools';
import { VoiceShortcut } from './voice/shortcut';
import { createVoiceService } from './voice/service';
import { toWhisperWav } from './voice/wav-convert';
import { HandOverRegistry } from './handover';
import { originOfUrl } from '../shared/permissions';
import { checkPlan, isReadOnly } from './plans/check';
import { composeAnswer } from './plans/compose';
import { PlanService } from './plans/plan-service';
import { PlanStore } from './plans/plan-store';
import { StepTabs, type StepTabsApi } from './plans/step-tab';
import { stepTask } from './plans/step-task';
import { withStepTools } from './plans/step-tools';
import { createStepRunner } from './plans/step-runner';
import { RunRegistry } from './runs/registry';

// The one store over extension storage; its layout is migrated before anything reads it.
const store = new Store(browser.storage.local, { migrations: MIGRATIONS, changes: browser.storage.onChanged });
const extensionOrigin = browser.runtime.getURL('').replace(/\/$/, '');
const emit = (event: BgToUiEvent) => hub.broadcast(event);

/** Brings a tab to the front, in its window (a hand-over, a link in a plan's answer). */
async function focusTab(tabId: number): Promise<boolean> {
  try {
    const tab = await browser.tabs.update(tabId, { active: true });
    if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
    return true;
  } catch {
    return false;
  }
}

const agent = new TabAgent(browser.tabs);
const reader = new PageReader(agent, new PageCache());
/** The page's layout facts, for the vision fallback of a chat's task and of a plan's steps. */
const vision = { look: (tabId: number) => agent.request(tabId, { type: 'page/look' }) };
const handovers = new HandOverRegistry(emit, focusTab, async (tabId) => originOfUrl((await browser.tabs.get(tabId)).url));
const tools = createToolRegistry({ agent, reader, tabs: browser.tabs, waitForLoad: (tabId, ms) => waitForLoad(browser.tabs, tabId, ms), handovers });

const conversations = new ConversationStore(store);
const sessions = createSessionFactory(store);
const prompter = new PermissionPrompter(emit);
const policies = new PolicyStore(store);
const audit = new AuditLog(store);
const gate = new PolicyGate({
  store: policies,
  prompter,
  audit,
  tab: (tabId) => browser.tabs.get(tabId),
  inspect: (tabId, call) => agent.inspect(tabId, call),
});
const runs = new RunRegistry();
const plans = createPlans();
const chat = new ChatService({
  store: conversations,
  emit,
  session: sessions.session,
  tools,
  gate,
  page: createPageAccess(browser.tabs, reader, extensionOrigin),
  vision,
  plans,
  runs,
});
const voiceShortcut = new VoiceShortcut((windowId) => emit({ type: 'voice/toggle', ...(windowId === undefined ? {} : { windowId }) }));
const handlers = createHandlers({
  chat,
  conversations,
  settingsStore: store,
  currentProvider: sessions.provider,
  prompter,
  policies,
  audit,
  tools,
  forgetPages: (conversationId) => reader.forget(conversationId),
  currentPage: () => currentPage(browser.tabs, extensionOrigin),
  openTabs: () => openTabs(browser.tabs, extensionOrigin),
  voiceShortcut,
  voice: createVoiceService({ settings: async () => (await loadSettings(store)).voice, fetch: (...args) => fetch(...args), toWav: toWhisperWav }),
  plans,
  handovers,
  focusTab,
});
const hub = new SidebarHub(extensionOrigin, (request, from) => dispatch(handlers, request, from));

/** The plans service, its steps run by the agent loop in tabs of the user's window. */
function createPlans(): PlanService {
  // Tab groups where the browser has them (Firefox ESR may not): feature-detected.
  const grouping = browser.tabs as unknown as { group?: StepTabsApi['group'] };
  const groups = (browser as unknown as { tabGroups?: { update(id: number, props: { title: string }): Promise<unknown> } }).tabGroups;
  const stepTabs = new StepTabs(
    {
      get: (tabId) => browser.tabs.get(tabId),
      create: (props) => browser.tabs.create(props),
      ...(grouping.group ? { group: (options) => grouping.group!(options) } : {}),
      ...(groups ? { updateGroup: (id, props) => groups.update(id, props) } : {}),
    },
    async () => (await browser.windows.getLastFocused()).id,
  );
  const runStep = createStepRunner({
    runs,
    session: async (conversationId) => sessions.session((await conversations.get(conversationId))?.model),
    tools,
    gate,
    vision,
    tabs: stepTabs,
    waitForLoad: (tabId, ms) => waitForLoad(browser.tabs, tabId, ms),
    onTabRemoved: (listener) => {
      browser.tabs.onRemoved.addListener(listener);
      return () => browser.tabs.onRemoved.removeListener(listener);
    },
    core: { stepTask, withStepTools },
  });
  return new PlanService({
    store: new PlanStore(store),
    conversations,
    emit,
    settings: async () => (await loadSettings(store)).plans,
    runStep,
    core: { checkPlan, isReadOnly, composeAnswer },
    runs,
    tabs: {
      list: () => openTabs(browser.tabs, extensionOrigin),
      close: (tabIds) => browser.tabs.remove([...tabIds]),
    },
  });
}

const guardOllamaOrigin = createOriginGuard(browser.webRequest, extensionOrigin);
async function applySettings() {
  const settings = await loadSettings(store);
  guardOllamaOrigin(settings.provider.kind === 'ollama' ? settings.provider.baseUrl : undefined);
}

// A turn cut off by the last shutdown is marked interrupted, with Retry, before any turn starts;
// a plan cut off is marked interrupted, with Resume (plan/updated tells the sidebars).
void conversations.recoverInterrupted().then((changed) => changed.forEach((conversation) => emit({ type: 'conversation/updated', conversation })), () => undefined);
void plans.recoverInterrupted().catch(() => undefined);

browser.runtime.onConnect.addListener((port) => hub.accept(port));
store.watch(RECORDS.settings, () => void applySettings());
// Every open sidebar knows which page the chat is about, and whether FoxAgent may read it.
const announcePage = () => void currentPage(browser.tabs, extensionOrigin).then((page) => emit({ type: 'page/current', page }), () => undefined);
browser.tabs.onActivated.addListener(announcePage);
browser.windows.onFocusChanged.addListener(announcePage);
browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url || change.status === 'complete') announcePage();
  if (!change.url && change.status !== 'loading') return;
  reader.invalidate(tabId);
  agent.onDocumentChange(tabId);
});
browser.tabs.onRemoved.addListener((tabId) => {
  reader.invalidate(tabId);
  agent.forget(tabId);
});
void applySettings();
// The voice shortcut opens the sidebar (only allowed right in the command's handler) and asks it to record.
browser.commands.onCommand.addListener((command, tab) => {
  if (command !== 'toggle-voice') return;
  void browser.sidebarAction.open().catch(() => undefined);
  voiceShortcut.pressed(tab?.windowId);
});
