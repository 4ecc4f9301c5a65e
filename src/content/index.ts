/**
 * The content script injected into every page. It stays tiny — no libraries, nothing running
 * until asked — because it costs every page load. Page reading and actions are injected on demand.
 */
import type { Browser, Runtime } from 'webextension-polyfill';

declare const browser: Browser; // Firefox's own WebExtension API: no polyfill needed here

function isPing(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'content/ping';
}

browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
  // Only the extension's background talks to content scripts; pages cannot reach this listener.
  if (sender.id !== browser.runtime.id || sender.tab || !isPing(message)) return undefined;
  return Promise.resolve({ value: { ready: true, url: location.href } });
});
