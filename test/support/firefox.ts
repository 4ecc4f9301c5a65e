/**
 * Real headless Firefox ESR with the built extension installed, driven by puppeteer-core over
 * WebDriver BiDi. One browser per test file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const ADDON_ID = 'foxagent@foxagent.dev';
/** Pinned so tests know the extension's moz-extension:// origin in advance. */
export const EXTENSION_UUID = '5e5e0a9e-f0a4-4a6e-9c55-f0a9e17a0001';
export const EXTENSION_ORIGIN = `moz-extension://${EXTENSION_UUID}`;
/** The built extension: dist/, or FOXAGENT_DIST when builds are kept apart. */
export const DIST_DIR = path.resolve(__dirname, '../..', process.env.FOXAGENT_DIST || 'dist');

export function firefoxBinary(): string {
  const candidates = [process.env.FIREFOX_BIN, '/usr/bin/firefox-esr', '/usr/bin/firefox'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'Firefox ESR is needed for the end-to-end tests and was not found. Install it with ' +
        '`sudo apt-get install firefox-esr` (Debian/Ubuntu), or set FIREFOX_BIN to a Firefox binary.',
    );
  }
  return found;
}

/** The raw WebDriver BiDi connection puppeteer keeps (not in its public types). */
interface BidiConnection {
  send(method: string, params: object): Promise<Record<string, unknown>>;
}

export function bidi(browser: Browser): BidiConnection {
  return (browser as unknown as { connection: BidiConnection }).connection;
}

function contextOf(page: Page): string {
  return (page.mainFrame() as unknown as { _id: string })._id;
}

export interface FoxAgentBrowser {
  browser: Browser;
  /** Opens the real sidebar panel of the browser window. */
  openSidebarPanel(): Promise<void>;
  /** Opens an extension page (e.g. 'sidebar.html') in a new tab and waits until it is ready. */
  openExtensionPage(file: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Starts headless Firefox ESR with the built extension (or another build of it) installed;
 * with `locale`, Firefox runs in that language first, so the extension loads that locale.
 */
export async function launchFirefox({
  extensionDir = DIST_DIR,
  prefs = {},
  locale,
}: { extensionDir?: string; prefs?: Record<string, string | number | boolean>; locale?: string } = {}): Promise<FoxAgentBrowser> {
  if (!existsSync(path.join(extensionDir, 'manifest.json'))) throw new Error(`${extensionDir} has no manifest.json: run \`npm run build\` first.`);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxBinary(),
    headless: true,
    protocolTimeout: 60_000,
    args: ['--remote-allow-system-access'],
    env: { ...process.env, MOZ_DISABLE_NONLOCAL_CONNECTIONS: '1' },
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [ADDON_ID]: EXTENSION_UUID }),
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      'services.settings.server': 'data:,#none',
      'browser.shell.checkDefaultBrowser': false,
      'datareporting.policy.dataSubmissionEnabled': false,
      // Hermetic: anything not on 127.0.0.1 goes to a proxy port where nothing listens, so a
      // saved real-world page's ads and images fail at once instead of waiting on DNS.
      'network.proxy.type': 1,
      'network.proxy.http': '127.0.0.1',
      'network.proxy.http_port': 9,
      'network.proxy.ssl': '127.0.0.1',
      'network.proxy.ssl_port': 9,
      'network.proxy.no_proxies_on': 'localhost, 127.0.0.1',
      ...prefs,
    },
  });
  if (locale) await useLocale(browser, locale);
  await browser.installExtension(extensionDir);

  const openExtensionPage = async (file: string) => {
    const url = `${EXTENSION_ORIGIN}/${file}`;
    const page = await browser.newPage();
    // Firefox sends no load events for extension pages over BiDi: navigate without waiting, then poll.
    await bidi(browser).send('browsingContext.navigate', { context: contextOf(page), url, wait: 'none' });
    await waitFor(() => page.evaluate((u) => location.href === u && document.readyState === 'complete', url), { what: `${file} to load` });
    return page;
  };

  /**
   * Opens the real sidebar panel. `sidebarAction.open()` needs a user action, so an extension page
   * listens for one click, and the click comes from the real (BiDi) mouse. This works on every
   * Firefox ESR, unlike reaching the browser chrome, which needs system access a release may not
   * grant.
   */
  const openSidebarPanel = async () => {
    const page = await openExtensionPage('options.html');
    try {
      await page.evaluate(() => {
        const api = (globalThis as unknown as { browser: { sidebarAction: { open(): Promise<void> } } }).browser;
        const state = window as unknown as { sidebarOpen?: string };
        document.addEventListener('click', () => void api.sidebarAction.open().then(() => (state.sidebarOpen = 'yes'), (e: unknown) => (state.sidebarOpen = String(e))), { once: true });
      });
      await page.mouse.click(4, 4);
      const outcome = await waitFor(() => page.evaluate(() => (window as unknown as { sidebarOpen?: string }).sidebarOpen), { what: 'sidebarAction.open()' });
      if (outcome !== 'yes') throw new Error(`The sidebar did not open: ${outcome}`);
    } finally {
      await page.close();
    }
  };

  return { browser, openExtensionPage, openSidebarPanel, close: () => browser.close() };
}

/**
 * Makes `locale` Firefox's language. A stock Firefox ships English only and would negotiate any
 * requested language back to it; the browser chrome can declare the locale available (as
 * Firefox's own tests do), and an extension installed after that loads its `_locales/<locale>`.
 */
async function useLocale(browser: Browser, locale: string): Promise<void> {
  const tree = (await bidi(browser).send('browsingContext.getTree', { 'moz:scope': 'chrome' })) as { result: { contexts: { context: string }[] } };
  const chrome = tree.result.contexts[0]?.context;
  if (!chrome) throw new Error('No browser window to set the locale in.');
  const reply = (await bidi(browser).send('script.evaluate', {
    target: { context: chrome },
    awaitPromise: false,
    expression: `Services.locale.availableLocales = [${JSON.stringify(locale)}, 'en-US']; Services.locale.requestedLocales = [${JSON.stringify(locale)}]; Services.locale.appLocaleAsBCP47`,
  })) as { result: { result?: { value?: unknown } } };
  if (reply.result.result?.value !== locale) throw new Error(`Firefox did not switch to ${locale}: ${JSON.stringify(reply)}`);
}

/**
 * Sets a page's viewport through BiDi directly (puppeteer's setViewport also sends a screen
 * orientation command that Firefox ESR does not know).
 */
export async function setViewport(browser: Browser, page: Page, width: number, height: number): Promise<void> {
  await bidi(browser).send('browsingContext.setViewport', { context: contextOf(page), viewport: { width, height } });
}

/** Polls until `check` returns something truthy; fails with what it was waiting for. */
export async function waitFor<T>(check: () => Promise<T> | T, { timeoutMs = 15_000, intervalMs = 50, what = 'condition' } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
}
