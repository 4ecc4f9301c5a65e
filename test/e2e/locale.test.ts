/**
 * FoxAgent in German: in a Firefox running in German the sidebar loads `_locales/de`, and an
 * error the background reports (as catalogue keys) shows in German, also after the sidebar is
 * opened again from the stored chat.
 */
import { launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { configure, SidebarDriver } from '../support/sidebar-driver';

let ff: FoxAgentBrowser;
let llm: LlmServer;
let sidebar: SidebarDriver;

beforeAll(async () => {
  [ff, llm] = await Promise.all([launchFirefox({ locale: 'de' }), startLlmServer({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }] })]);
  sidebar = await SidebarDriver.open(ff);
});
afterAll(async () => {
  await ff?.close();
  await llm?.close();
});

test('the sidebar’s own words are German', async () => {
  const texts = await sidebar.page.evaluate(() => ({
    lang: (globalThis as unknown as { browser: { i18n: { getUILanguage(): string } } }).browser.i18n.getUILanguage(),
    newChat: document.querySelector('[data-testid="new-chat"]')?.textContent,
    placeholder: document.querySelector('[data-testid="composer"]')?.getAttribute('placeholder'),
  }));
  expect(texts).toEqual({ lang: 'de', newChat: 'Neuer Chat', placeholder: 'Fragen oder anweisen… (@ fügt Tabs hinzu; Enter zum Senden, Umschalt+Enter für eine neue Zeile)' });
});

test('an error from the background shows in German, and again when the chat is opened anew', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'mistral:7b' });
  await sidebar.send('Hallo');
  const expected = [/Das Modell „mistral:7b“ wurde auf dem Server nicht gefunden\./, /Modelle auf diesem Server: qwen2\.5:3b\./, /Lade es mit `ollama pull mistral:7b` herunter/, /Erneut versuchen/];
  const error = await sidebar.errorText();
  for (const pattern of expected) expect(error).toMatch(pattern);
  expect(error).not.toMatch(/was not found/);

  const again = await SidebarDriver.open(ff);
  const reloaded = await waitFor(async () => {
    const text = await again.page.$$eval('[role="alert"]', (els) => els.map((e) => e.textContent ?? '').join('\n'));
    return text.includes('mistral:7b') ? text : undefined;
  }, { what: 'the stored error in the reopened sidebar' });
  for (const pattern of expected) expect(reloaded).toMatch(pattern);
});
