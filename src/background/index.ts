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

// The one store over extension storage; its layout is migrated before anything reads it.
const store = new Store(browser.storage.local, { migrations: MIGRATIONS, changes: browser.storage.onChanged });
const extensionOrigin = browser.runtime.getURL('').replace(/\/$/, '');
const emit = (event: BgToUiEvent) => hub.broadcast(event);

const agent = new TabAgent(browser.tabs);
const reader = new PageReader(agent, new PageCache());
const tools = createToolRegistry({ agent, reader, tabs: browser.tabs, waitForLoad: (tabId, ms) => waitForLoad(browser.tabs, tabId, ms) });

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
const chat = new ChatService({
  store: conversations,
  emit,
  session: sessions.session,
  tools,
  gate,
  page: createPageAccess(browser.tabs, reader, extensionOrigin),
  vision: { look: (tabId) => agent.request(tabId, { type: 'page/look' }) },
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
});
const hub = new SidebarHub(extensionOrigin, (request, from) => dispatch(handlers, request, from));

const guardOllamaOrigin = createOriginGuard(browser.webRequest, extensionOrigin);
async function applySettings() {
  const settings = await loadSettings(store);
  guardOllamaOrigin(settings.provider.kind === 'ollama' ? settings.provider.baseUrl : undefined);
}

// A turn cut off by the last shutdown is marked interrupted, with Retry, before any turn starts.
void conversations.recoverInterrupted().then((changed) => changed.forEach((conversation) => emit({ type: 'conversation/updated', conversation })), () => undefined);

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
