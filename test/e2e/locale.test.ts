/**
 * FoxAgent in German: in a Firefox running in German the sidebar loads `_locales/de`, an error
 * the background reports (as catalogue keys) shows in German, also after the sidebar is opened
 * again from the stored chat, and a task's question and timeline name the page's element in German.
 */
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { act, finish } from '../support/page-model';
import { configure, SidebarDriver } from '../support/sidebar-driver';

let ff: FoxAgentBrowser;
let llm: LlmServer;
let site: FixtureServer;
let sidebar: SidebarDriver;

beforeAll(async () => {
  [ff, llm, site] = await Promise.all([
    launchFirefox({ locale: 'de' }),
    startLlmServer({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }] }),
    startFixtureServer({ dir: path.resolve(__dirname, '../fixtures/pages') }),
  ]);
  sidebar = await SidebarDriver.open(ff);
});
afterAll(async () => {
  await ff?.close();
  await Promise.all([llm?.close(), site?.close()]);
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

test('a task’s question names the element in German, and its row says in German what the click did', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'qwen2.5:3b' });
  await sidebar.newChat();
  const page = await ff.browser.newPage();
  try {
    await page.goto(`${site.url}/controlled.html`);
    llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe'), reason: 'anmelden' } }]), finish('Erledigt.'));
    await sidebar.send('Click subscribe');
    const question = await sidebar.readQuestion('click');
    expect(question.target).toBe('Schaltfläche „Subscribe“');
    await sidebar.answerPermission('click', 'allow-once');
    await sidebar.waitForAnswer('Erledigt.');
    await sidebar.waitForIdle();
    expect(await page.$eval('#greeting', (el) => el.textContent)).toBe('Subscribed: ');
    const row = await sidebar.page.$eval('[data-testid="tool-row"][data-tool="click"]', (el) => el.textContent ?? '');
    expect(row).toContain('Schaltfläche „Subscribe“ angeklickt.');
    expect(row).not.toContain('Clicked');
  } finally {
    await page.close();
  }
});
