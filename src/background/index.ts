/** Background composition root: builds the services and wires them to the browser. Nothing else. */
import browser from 'webextension-polyfill';
import { loadSettings } from '../shared/settings';
import { ChatService } from './chat-service';
import { ConversationStore } from './conversations';
import { createHandlers, dispatch } from './message-handler';
import { createOriginGuard } from './ollama-origin';
import { resolveProvider } from './provider-resolver';
import { SidebarHub } from './sidebar-hub';

const storage = browser.storage.local;
const extensionOrigin = browser.runtime.getURL('').replace(/\/$/, '');
const conversations = new ConversationStore(storage);
const guardOllamaOrigin = createOriginGuard(browser.webRequest, extensionOrigin);
const applySettings = async () => {
  const settings = await loadSettings(storage);
  guardOllamaOrigin(settings.provider.kind === 'ollama' ? settings.provider.baseUrl : undefined);
};

let hub: SidebarHub | undefined;
const chat = new ChatService({
  store: conversations,
  resolveProvider: () => resolveProvider(storage),
  emit: (event) => hub?.broadcast(event),
});
const handlers = createHandlers({
  chat,
  conversations,
  settingsStore: storage,
  currentProvider: async () => (await resolveProvider(storage, { requireModel: false })).provider,
  onSettingsSaved: () => void applySettings(),
});
hub = new SidebarHub(extensionOrigin, (request) => dispatch(handlers, request));

browser.runtime.onConnect.addListener((port) => hub?.accept(port));
void applySettings();
