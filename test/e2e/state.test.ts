/**
 * State that must survive failures, in real Firefox: a background restart in the middle of an
 * answer, storage refusing the first write of a turn, and the API key when the server changes.
 */
import { launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { configure, portRequest, SidebarDriver } from '../support/sidebar-driver';

let ff: FoxAgentBrowser;
let llm: LlmServer;
let sidebar: SidebarDriver;

beforeAll(async () => {
  [ff, llm] = await Promise.all([launchFirefox(), startLlmServer({ models: [{ name: 'llama3.2:3b', tools: true, contextLength: 8192 }] })]);
  sidebar = await SidebarDriver.open(ff);
});
afterAll(async () => {
  await ff?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

test('a background restart mid-answer leaves the chat interrupted with Retry; Send works and Retry brings the answer', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
  await sidebar.newChat();
  llm.script({ text: 'word '.repeat(2000), chunkSize: 5, chunkDelayMs: 30 });
  await sidebar.send('Tell me a very long story');
  await sidebar.waitForAnswer(/^word word word/);
  await sidebar.page.waitForSelector('[data-testid="stop"]');
  // Let a save of the streaming answer land, then restart the extension: the background dies mid-answer.
  await new Promise((r) => setTimeout(r, 800));
  await sidebar.page.evaluate(() => void (globalThis as unknown as { browser: { runtime: { reload(): void } } }).browser.runtime.reload());
  await waitFor(async () => sidebar.page.isClosed() || !(await sidebar.page.evaluate(() => document.querySelector('[data-testid="composer"]') !== null).catch(() => false)), { what: 'the old sidebar page to go' });

  sidebar = await SidebarDriver.open(ff);
  // The chat shows the answer as interrupted, with what arrived, an explanation and Retry.
  const answer = await sidebar.page.waitForSelector('[data-testid="message-assistant"][data-status="interrupted"]', { timeout: 15_000 });
  expect(await answer!.evaluate((el) => el.querySelector('[data-testid="message-text"]')?.textContent ?? '')).toMatch(/^word word/);
  expect(await sidebar.errorText()).toMatch(/restarted before this finished/);
  expect(await sidebar.userTexts()).toEqual(['Tell me a very long story']);
  // Not running: no Stop, and Send takes text again.
  expect(await sidebar.page.$('[data-testid="stop"]')).toBeNull();
  await sidebar.page.type('[data-testid="composer"]', 'x');
  expect(await sidebar.page.$eval('[data-testid="send"]', (b) => (b as HTMLButtonElement).disabled)).toBe(false);
  await sidebar.page.$eval('[data-testid="composer"]', (el) => {
    const area = el as HTMLTextAreaElement;
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, '');
    area.dispatchEvent(new Event('input', { bubbles: true }));
  });

  llm.reset();
  llm.script({ text: 'Once upon a time, briefly.' });
  await sidebar.press('[data-testid="error"] button');
  await sidebar.waitForAnswer('Once upon a time, briefly.');
  await sidebar.waitForIdle();
  expect(llm.chatRequests().at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Tell me a very long story' });
  expect(await sidebar.page.$('[data-status="interrupted"]')).toBeNull();

  // And an ordinary Send goes through afterwards.
  llm.script({ text: 'The end.' });
  await sidebar.send('And then?');
  await sidebar.waitForAnswer('The end.');
});

test('storage refusing the first write of a turn shows the error in the chat and gives the text back', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
  await sidebar.newChat();
  // Storage fails for conversation writes only (as when it is full): patched in the background page itself.
  const failWrites = (on: boolean) =>
    sidebar.page.evaluate(async (fail) => {
      type Area = { set(items: Record<string, unknown>): Promise<void>; realSet?: Area['set'] };
      const api = (globalThis as unknown as { browser: { runtime: { getBackgroundPage(): Promise<{ browser: { storage: { local: Area } } }> } } }).browser;
      const local = (await api.runtime.getBackgroundPage()).browser.storage.local;
      local.realSet ??= local.set;
      const real = local.realSet;
      local.set = fail
        ? (items) => (Object.keys(items).some((k) => k.startsWith('conversation')) ? Promise.reject(new Error('QuotaExceededError: the storage is full')) : real.call(local, items))
        : real;
    }, on);
  await failWrites(true);
  try {
    await sidebar.send('Book the 9:40 train to Lyon');
    const error = await sidebar.errorText();
    expect(error).toMatch(/could not be saved/);
    expect(error).toMatch(/QuotaExceededError/);
    await waitFor(async () => (await sidebar.composerValue()) === 'Book the 9:40 train to Lyon', { what: 'the text back in the composer' });
    expect(await sidebar.userTexts()).toEqual([]);
    expect(llm.chatRequests()).toHaveLength(0);
  } finally {
    await failWrites(false);
  }
  // Storage works again: the same text, sent as it stands in the composer, is answered.
  llm.script({ text: 'Booked the 9:40.' });
  await sidebar.page.focus('[data-testid="composer"]');
  await sidebar.page.keyboard.press('Enter');
  await sidebar.waitForAnswer('Booked the 9:40.');
  expect(await sidebar.userTexts()).toEqual(['Book the 9:40 train to Lyon']);
});

test('a new base URL in the options page asks before removing the key; the new server never receives it, and the sidebar never does', async () => {
  const OLD_KEY = 'sk-old-server-0123456789';
  const oldServer = await startLlmServer({ apiKey: OLD_KEY, models: [{ name: 'llama3.2:3b', tools: true }] });
  try {
    await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${oldServer.url}/v1`, apiKey: OLD_KEY, model: 'llama3.2:3b' });
    // The sidebar's copy of the settings has no key.
    const forSidebar = await portRequest(sidebar.page, { type: 'settings/get' });
    expect(forSidebar.value).toMatchObject({ provider: { baseUrl: `${oldServer.url}/v1` } });
    expect(JSON.stringify(forSidebar)).not.toContain(OLD_KEY);

    const options = await ff.openExtensionPage('options.html');
    try {
      await options.waitForSelector('[data-testid="base-url"]');
      // The options page shows it, masked.
      expect(await options.$eval('[data-testid="api-key"]', (el) => [(el as HTMLInputElement).value, (el as HTMLInputElement).type])).toEqual([OLD_KEY, 'password']);
      await options.$eval('[data-testid="base-url"]', (el) => ((el as HTMLInputElement).value = ''));
      await options.click('[data-testid="base-url"]', { count: 3 });
      await options.keyboard.press('Backspace');
      await options.type('[data-testid="base-url"]', `${llm.url}/v1`);
      await options.click('[data-testid="save"]');
      const question = await options.waitForSelector('[data-testid="key-removal"]');
      expect(await question!.evaluate((el) => [el.getAttribute('role'), el.textContent])).toEqual(['alertdialog', expect.stringContaining('The API key will be removed.')]);
      expect(await question!.evaluate((el) => el.textContent)).toContain(`${oldServer.url}/v1`);
      // Nothing is saved while the question is open.
      expect(JSON.stringify((await portRequest(options, { type: 'settings/get' })).value)).toContain(oldServer.url);
      await options.click('[data-testid="key-removal-confirm"]');
      await waitFor(async () => (await options.$eval('[data-testid="settings-status"]', (el) => el.textContent)) === 'Settings saved.', { what: 'the save confirmation' });
      expect(await options.$eval('[data-testid="api-key"]', (el) => (el as HTMLInputElement).value)).toBe('');
    } finally {
      await options.close();
    }
    const stored = await sidebar.page.evaluate(async () => JSON.stringify(await (globalThis as unknown as { browser: { storage: { local: { get(k: string): Promise<unknown> } } } }).browser.storage.local.get('settings')));
    expect(stored).not.toContain(OLD_KEY);
    expect(stored).toContain(`${llm.url}/v1`);

    // The next message goes to the new server, without the old key.
    await sidebar.newChat();
    llm.script({ text: 'Hello from the new server.' });
    await sidebar.send('Hello!');
    await sidebar.waitForAnswer('Hello from the new server.');
    expect(llm.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(llm.requests.map((r) => r.headers))).not.toContain(OLD_KEY);
    expect(llm.chatRequests().every((r) => r.headers.authorization === undefined || !String(r.headers.authorization).includes('sk-old'))).toBe(true);
  } finally {
    await oldServer.close();
  }
});
