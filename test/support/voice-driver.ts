/** Voice input in the e2e tests: the transcription settings, and recording with the real sidebar button. */
import type { Browser, Page } from 'puppeteer-core';
import { DEFAULT_SETTINGS, type Settings } from '../../src/shared/settings';
import type { VoiceSettings } from '../../src/shared/voice';
import { bidi, waitFor } from './firefox';
import type { SidebarDriver } from './sidebar-driver';

/** Sets the voice settings the way the options page does (through storage), keeping the rest. */
export async function configureVoice(page: Page, patch: Partial<VoiceSettings>): Promise<void> {
  await page.evaluate(
    async (p, defaults) => {
      const local = (globalThis as unknown as { browser: { storage: { local: { get(k: string): Promise<{ settings?: Settings }>; set(v: object): Promise<void> } } } }).browser.storage.local;
      const settings = (await local.get('settings')).settings ?? defaults;
      await local.set({ settings: { ...settings, voice: { ...defaults.voice, ...settings.voice, ...p } } });
    },
    patch,
    DEFAULT_SETTINGS,
  );
}

export function voiceState(sidebar: SidebarDriver): Promise<string | null> {
  return sidebar.page.$eval('[data-testid="voice"]', (el) => el.getAttribute('data-state'));
}

/**
 * Records for about `ms` with the voice button (a click starts, a second click stops: the fake
 * media stream is a steady tone, so silence never ends it) and waits until it is transcribed or failed.
 */
export function speak(sidebar: SidebarDriver, ms = 1200, attempts = 3): Promise<{ stoppedAt: number }> {
  const click = () => sidebar.press('[data-testid="voice"]');
  return recordWith(sidebar, click, click, ms, attempts);
}

/**
 * Records for about `ms`, started by `start` and stopped by `stop` (the button, the global shortcut), and waits
 * until the recording is in hand. Firefox's fake microphone now and then delivers no samples at all (seen on a
 * loaded machine after many captures). The sidebar then says so (`mic_silent`, unit-tested) and sends nothing.
 * These tests are about what follows a recording, so they record again, a few times at most.
 */
export async function recordWith(sidebar: SidebarDriver, start: () => Promise<unknown>, stop: () => Promise<unknown>, ms = 1200, attempts = 3): Promise<{ stoppedAt: number }> {
  await waitFor(async () => (await voiceState(sidebar)) === 'idle', { what: 'the voice button to be ready' });
  await start();
  await waitFor(async () => (await voiceState(sidebar)) === 'listening', { what: 'recording to start' });
  await new Promise((r) => setTimeout(r, ms));
  const stoppedAt = Date.now();
  await stop();
  // Stopped: the recording is in hand (or found silent), past `stopping`.
  await waitFor(() => sidebar.page.$eval('[data-testid="voice"]', (el) => !['recording', 'requesting', 'stopping'].includes(el.getAttribute('data-kind') ?? '')), { what: 'recording to stop' });
  const silent = await sidebar.page.$('[data-testid="voice-error"][data-code="mic_silent"]');
  if (silent && attempts > 1) {
    await sidebar.page.$eval('[data-testid="voice-dismiss"]', (el) => (el as HTMLElement).click());
    return recordWith(sidebar, start, stop, ms, attempts - 1);
  }
  return { stoppedAt };
}

/** The voice fault shown: its code, its words, and whether the recording is kept with Retry. */
export async function voiceError(sidebar: SidebarDriver): Promise<{ code: string; text: string; kept: boolean; retry: boolean }> {
  await sidebar.page.waitForSelector('[data-testid="voice-error"]', { timeout: 20_000 });
  return sidebar.page.$eval('[data-testid="voice-error"]', (el) => ({
    code: el.getAttribute('data-code') ?? '',
    text: (el as HTMLElement).innerText,
    kept: Boolean(el.querySelector('[data-testid="voice-kept"]')),
    retry: Boolean(el.querySelector('[data-testid="voice-retry"]')),
  }));
}

/** Runs `expression` in the browser chrome (the test browser may: `--remote-allow-system-access`). */
async function inChrome(browser: Browser, expression: string): Promise<unknown> {
  const tree = (await bidi(browser).send('browsingContext.getTree', { 'moz:scope': 'chrome' })) as { result: { contexts: { context: string }[] } };
  const chrome = tree.result.contexts[0]?.context;
  if (!chrome) throw new Error('No browser window.');
  const reply = (await bidi(browser).send('script.evaluate', { target: { context: chrome }, awaitPromise: false, expression })) as { result: { result?: { value?: unknown } } };
  return reply.result.result?.value;
}

/**
 * Answers Firefox's own microphone prompt the way a user does: ticks "Remember this decision"
 * and presses Allow, in the real notification panel of the browser window.
 */
export async function allowInFirefoxPrompt(browser: Browser): Promise<void> {
  const outcome = await waitFor(
    () =>
      inChrome(
        browser,
        `(() => { const n = PopupNotifications.panel.firstElementChild; if (!n || n.id !== 'webRTC-shareDevices-notification') return ''; n.checkbox.checked = true; n.button.click(); return 'allowed'; })()`,
      ),
    { what: 'Firefox’s microphone prompt' },
  );
  if (outcome !== 'allowed') throw new Error(`The prompt was not answered: ${String(outcome)}`);
}

/** Allows or blocks the microphone for `origin` in Firefox's permission manager, as its settings do. */
export async function setMicrophonePermission(browser: Browser, origin: string, choice: 'allow' | 'block'): Promise<void> {
  const action = choice === 'allow' ? 'ALLOW_ACTION' : 'DENY_ACTION';
  const state = await inChrome(
    browser,
    `(() => { const p = Services.scriptSecurityManager.createContentPrincipalFromOrigin(${JSON.stringify(origin)}); Services.perms.addFromPrincipal(p, 'microphone', Services.perms.${action}); return Services.perms.testPermissionFromPrincipal(p, 'microphone'); })()`,
  );
  if (state !== (choice === 'allow' ? 1 : 2)) throw new Error(`The microphone permission was not set: ${String(state)}`);
}

/**
 * Fires the extension's `toggle-voice` shortcut in the browser window: the key element Firefox
 * built for it from the manifest (`Alt+Shift+V`), commanded as a key press does.
 */
export async function pressVoiceShortcut(browser: Browser): Promise<void> {
  const outcome = await inChrome(
    browser,
    `(() => { const keyset = document.getElementById('ext-keyset-id-foxagent_foxagent_dev'); const key = keyset && [...keyset.children].find((k) => k.getAttribute('key') === 'V' && k.getAttribute('modifiers') === 'alt,shift'); if (!key) return 'no key'; key.doCommand(); return 'pressed'; })()`,
  );
  if (outcome !== 'pressed') throw new Error(`The voice shortcut could not be pressed: ${String(outcome)}`);
}
