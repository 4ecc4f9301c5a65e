/**
 * Only FoxAgent's own pages drive the background: a content script's port (it carries the web
 * page's address), or an address that merely begins with the extension's, is disconnected and
 * nothing it sends is handled; the sidebar's requests are answered, each with the page they came from.
 */
import type { Runtime } from 'webextension-polyfill';
import { SidebarHub } from '../../../src/background/sidebar-hub';
import { SIDEBAR_PORT } from '../../../src/shared/protocol';

const ORIGIN = 'moz-extension://3f1c2a9e-0b7d-4c55-9a51-2d9e8f7a6b10';

function port(url: string, tab?: number) {
  const messages: ((m: unknown) => void)[] = [];
  const posted: unknown[] = [];
  let disconnected = false;
  const value = {
    name: SIDEBAR_PORT,
    sender: { url, ...(tab !== undefined ? { tab: { id: tab } } : {}) },
    disconnect: () => void (disconnected = true),
    postMessage: (m: unknown) => void posted.push(m),
    onDisconnect: { addListener: () => undefined },
    onMessage: { addListener: (l: (m: unknown) => void) => void messages.push(l) },
  } as unknown as Runtime.Port;
  return { value, posted, send: (m: unknown) => messages.forEach((l) => l(m)), disconnected: () => disconnected };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

test("a content script's port and a look-alike address are refused; the sidebar is answered, naming its page", async () => {
  const handled: { request: unknown; page: string }[] = [];
  const hub = new SidebarHub(ORIGIN, async (request, from) => (handled.push({ request, page: from.page }), { ok: true }));
  const request = { kind: 'request', id: 1, body: { type: 'handover/continue', id: 'handover-1' } };

  const page = port('https://evil.example/login', 7);
  hub.accept(page.value);
  page.send(request);
  const lookAlike = port(`${ORIGIN}.evil.example/options.html`);
  hub.accept(lookAlike.value);
  lookAlike.send(request);
  await settle();
  expect([page.disconnected(), lookAlike.disconnected()]).toEqual([true, true]);
  expect(handled).toEqual([]);
  hub.broadcast({ type: 'handover/resolved', id: 'handover-1' });
  expect([page.posted, lookAlike.posted]).toEqual([[], []]);

  const sidebar = port(`${ORIGIN}/sidebar.html`);
  hub.accept(sidebar.value);
  sidebar.send(request);
  await settle();
  expect(sidebar.disconnected()).toBe(false);
  expect(handled).toEqual([{ request: request.body, page: '/sidebar.html' }]);
  expect(sidebar.posted).toEqual([{ kind: 'reply', id: 1, value: { ok: true } }]);
});
