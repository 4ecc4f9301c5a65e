/**
 * The first vertical slice, end to end: the sidebar sends a message over the Port, the background
 * calls the configured provider with the real `ollama` / `openai` client, the answer streams back
 * and renders as it arrives. Faults show a clear error and keep the conversation.
 */
import { deadPort } from '../support/dead-port';
import { launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { configure, SidebarDriver } from '../support/sidebar-driver';

let ff: FoxAgentBrowser;
let llm: LlmServer;
let sidebar: SidebarDriver;

beforeAll(async () => {
  [ff, llm] = await Promise.all([launchFirefox(), startLlmServer({ models: [{ name: 'llama3.2:3b', tools: true, contextLength: 8192 }, { name: 'gpt-4o-mini', tools: true }], requireOllamaOrigin: true })]);
  sidebar = await SidebarDriver.open(ff);
});
afterAll(async () => {
  await ff?.close();
  await llm?.close();
});
beforeEach(async () => {
  llm.reset();
  await sidebar.newChat();
});

test('Ollama: the answer streams into the chat as it arrives, rendered as Markdown', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
  llm.script({ text: 'Hello from **Ollama**, streamed in many small pieces so the sidebar shows it growing.', chunkSize: 4, chunkDelayMs: 40 });
  const seen = new Set<number>();
  await sidebar.send('Hello!');
  await waitFor(
    async () => {
      const [text] = await sidebar.assistantTexts();
      if (text) seen.add(text.length);
      return text?.endsWith('growing.');
    },
    { intervalMs: 10, what: 'the whole answer' },
  );
  expect(seen.size).toBeGreaterThan(3); // it grew in front of the user, not all at once
  expect(await sidebar.page.$eval('[data-testid="message-assistant"] strong', (el) => el.textContent)).toBe('Ollama');

  const [request] = llm.chatRequests();
  expect(request).toMatchObject({ api: 'ollama', path: '/api/chat', model: 'llama3.2:3b' });
  expect(request!.body.stream).toBe(true);
  expect(request!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Hello!' });
  // A stock Ollama refuses extension origins; the extension strips the header for this host only.
  expect(request!.headers.origin).toBeUndefined();
});

test('OpenAI-compatible: the answer streams over SSE with the key sent as a bearer token', async () => {
  await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${llm.url}/v1`, apiKey: 'sk-test-123', model: 'gpt-4o-mini' });
  llm.script({ text: 'Hi! I am answering through the OpenAI wire format.', chunkSize: 5, chunkDelayMs: 10 });
  await sidebar.send('Hello!');
  await sidebar.waitForAnswer('OpenAI wire format.');
  const [request] = llm.chatRequests();
  expect(request).toMatchObject({ api: 'openai', path: '/v1/chat/completions', model: 'gpt-4o-mini' });
  expect(request!.headers.authorization).toBe('Bearer sk-test-123');
  expect(request!.body.stream).toBe(true);
});

test('a dead server gives a clear error in the chat, keeps the message, and Retry recovers', async () => {
  const port = await deadPort();
  await configure(sidebar.page, { kind: 'ollama', baseUrl: `http://127.0.0.1:${port}`, model: 'llama3.2:3b' });
  await sidebar.send('Hello!');
  const error = await sidebar.errorText();
  expect(error).toContain(`Cannot reach the Ollama server at http://127.0.0.1:${port}`);
  expect(error).toContain('ollama serve');
  expect(await sidebar.userTexts()).toEqual(['Hello!']);

  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
  llm.script({ text: 'Back online.' });
  await sidebar.page.click('[role="alert"] button');
  await sidebar.waitForAnswer('Back online.');
  expect(await sidebar.userTexts()).toEqual(['Hello!']);
  expect(await sidebar.page.$('[role="alert"]')).toBeNull();
});

test('the conversation is still there when the sidebar is closed and opened again', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
  llm.script({ text: 'Remember me.' });
  await sidebar.send('Hello!');
  await sidebar.waitForAnswer('Remember me.');
  await sidebar.page.close();
  sidebar = await SidebarDriver.open(ff);
  await sidebar.waitForAnswer('Remember me.');
  expect(await sidebar.userTexts()).toEqual(['Hello!']);
});

test('settings entered in the options page pass the connection test, survive a reload and are used for the next message', async () => {
  const options = await ff.openExtensionPage('options.html');
  await options.waitForSelector('[data-testid="provider-kind"]');
  await options.select('[data-testid="provider-kind"]', 'openai-compatible');
  const set = async (selector: string, value: string) => {
    await options.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
    await options.click(selector, { count: 3 });
    await options.keyboard.press('Backspace');
    await options.type(selector, value);
  };
  await set('[data-testid="base-url"]', `${llm.url}/v1`);
  await set('[data-testid="api-key"]', 'sk-from-options');
  await set('[data-testid="model"]', 'gpt-4o-mini');
  expect(await options.$eval('[data-testid="api-key"]', (el) => (el as HTMLInputElement).type)).toBe('password');
  await options.click('[data-testid="toggle-key"]');
  expect(await options.$eval('[data-testid="api-key"]', (el) => (el as HTMLInputElement).type)).toBe('text');
  await options.click('[data-testid="test-connection"]');
  const status = () => options.$eval('[data-testid="settings-status"]', (el) => el.textContent ?? '');
  await waitFor(async () => /2 models found/.test(await status()), { what: 'the connection test result' });
  expect(await status()).toBe('Connected: 2 models found. “gpt-4o-mini” is on the server and supports tools.');
  expect(await options.$$eval('[data-testid="model-choice"] option', (els) => els.map((o) => (o as HTMLOptionElement).value).filter(Boolean))).toEqual(['llama3.2:3b', 'gpt-4o-mini']);

  // Agent settings persist: change them, save, reload the page and read them back.
  await options.select('[data-testid="tool-call-mode"]', 'xml');
  await set('[data-testid="step-limit"]', '7');
  await options.click('[data-testid="save"]');
  await waitFor(async () => (await status()) === 'Settings saved.', { what: 'the save confirmation' });
  // Firefox sends no load events for extension pages over BiDi, so reload from inside and poll.
  await options.evaluate(() => {
    (window as unknown as { beforeReload?: boolean }).beforeReload = true;
    setTimeout(() => location.reload(), 0);
  });
  await waitFor(() => options.evaluate(() => !('beforeReload' in window) && !!document.querySelector('[data-testid="tool-call-mode"]')), { what: 'the reloaded options page' });
  const fields = await options.$$eval('[data-testid="tool-call-mode"], [data-testid="step-limit"], [data-testid="model"], [data-testid="api-key"]', (els) =>
    els.map((el) => [el.getAttribute('data-testid'), (el as HTMLInputElement).value]),
  );
  expect(Object.fromEntries(fields)).toEqual({ 'tool-call-mode': 'xml', 'step-limit': '7', model: 'gpt-4o-mini', 'api-key': 'sk-from-options' });
  expect(await options.$eval('[data-testid="api-key"]', (el) => (el as HTMLInputElement).type)).toBe('password');
  await options.close();

  llm.script({ text: 'Configured from the options page.' });
  await sidebar.send('Hello!');
  await sidebar.waitForAnswer('Configured from the options page.');
  expect(llm.chatRequests()[0]!.headers.authorization).toBe('Bearer sk-from-options');
});
