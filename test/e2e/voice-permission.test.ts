/**
 * The first use of the microphone in real Firefox with its prompts on (as for a user): the
 * sidebar cannot show the prompt, so it opens the permission page; once the microphone is
 * allowed there, the sidebar's fault clears and it records directly. A blocked microphone says
 * where to allow it, and opens nothing. The global shortcut opens the real sidebar panel, which
 * records with the same grant.
 */
import type { Page } from 'puppeteer-core';
import { EXTENSION_ORIGIN, launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { configure, SidebarDriver } from '../support/sidebar-driver';
import { allowInFirefoxPrompt, configureVoice, pressVoiceShortcut, setMicrophonePermission, speak, voiceError, voiceState } from '../support/voice-driver';

let ff: FoxAgentBrowser;
let llm: LlmServer;
let sidebar: SidebarDriver;

beforeAll(async () => {
  // Prompts on: what a user's Firefox does (the other voice tests turn them off).
  [ff, llm] = await Promise.all([launchFirefox({ prefs: { 'media.navigator.permission.disabled': false } }), startLlmServer({ models: [{ name: 'qwen2.5:3b', tools: true }] })]);
  sidebar = await SidebarDriver.open(ff);
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'qwen2.5:3b' });
  await configureVoice(sidebar.page, { provider: 'openai-compatible', baseUrl: `${llm.url}/v1`, model: 'whisper-1' });
});
afterAll(async () => {
  await ff?.close();
  await llm?.close();
});

/** The open permission pages, with the step each shows. */
async function permissionPages(): Promise<{ page: Page; step: string }[]> {
  const found: { page: Page; step: string }[] = [];
  for (const page of await ff.browser.pages()) {
    // A tab that closed a moment ago no longer answers.
    const step = await Promise.resolve()
      .then(() => page.evaluate((url) => (location.href === url ? (document.querySelector('[data-testid="voice-permission"]')?.getAttribute('data-step') ?? 'loading') : null), `${EXTENSION_ORIGIN}/voice-permission.html`))
      .catch(() => null);
    if (step) found.push({ page, step });
  }
  return found;
}

test('first use: the permission page opens; allowed there, the sidebar records directly and the words are sent', async () => {
  expect(await permissionPages()).toEqual([]);
  await sidebar.press('[data-testid="voice"]');
  const fault = await voiceError(sidebar);
  expect(fault).toMatchObject({ code: 'mic_needs_permission', kept: false, retry: false });
  expect(fault.text).toContain('Allow the microphone in the tab that just opened.');
  const [opened] = await waitFor(async () => ((await permissionPages()).length ? permissionPages() : undefined), { what: 'the permission page' });
  // It is asking: Firefox shows its prompt in that tab.
  expect(opened!.step).toBe('asking');

  expect(await opened!.page.$eval('[data-testid="voice-permission-status"]', (el) => el.textContent)).toContain('Remember this decision');
  // The user ticks "Remember this decision" and presses Allow in Firefox's prompt.
  await allowInFirefoxPrompt(ff.browser);
  await waitFor(() => opened!.page.$eval('[data-testid="voice-permission"]', (el) => el.getAttribute('data-step') === 'granted'), { what: 'the grant on the page' });
  // The sidebar heard of it: the fault is gone.
  await waitFor(() => sidebar.page.$('[data-testid="voice-error"]').then((el) => !el), { what: 'the sidebar’s fault to clear' });
  expect(await voiceState(sidebar)).toBe('idle');
  await opened!.page.$eval('[data-testid="voice-permission-close"]', (el) => (el as HTMLElement).click());
  await waitFor(async () => (await permissionPages()).length === 0, { what: 'the permission page to close' });

  llm.scriptTranscription({ text: 'What is on this page?' });
  llm.script({ text: 'Nothing much.' });
  await speak(sidebar, 1000);
  await sidebar.waitForAnswer('Nothing much.');
  expect(await sidebar.userTexts()).toEqual(['What is on this page?']);
  expect(llm.uploads).toHaveLength(1);
  expect(llm.uploads[0]!.problems).toEqual([]);
  expect(await permissionPages()).toEqual([]); // no second trip to the page

  // The grant is FoxAgent's own: a web page still has to ask for the microphone itself.
  const web = await ff.browser.newPage();
  try {
    await web.goto(`${llm.url}/api/tags`);
    expect(await web.evaluate(() => navigator.permissions.query({ name: 'microphone' as PermissionName }).then((s) => s.state))).toBe('prompt');
  } finally {
    await web.close();
  }
});

test('a blocked microphone says where to allow it, and opens no page', async () => {
  await sidebar.newChat();
  await setMicrophonePermission(ff.browser, EXTENSION_ORIGIN, 'block');
  await sidebar.press('[data-testid="voice"]');
  const fault = await voiceError(sidebar);
  expect(fault).toMatchObject({ code: 'mic_denied', kept: false });
  expect(fault.text).toContain('FoxAgent may not use the microphone.');
  expect(fault.text).toContain('Privacy & Security → Permissions → Microphone');
  await new Promise((r) => setTimeout(r, 500));
  expect(await permissionPages()).toEqual([]);
});

test('the shortcut pressed with the sidebar closed opens the real sidebar, which records; pressed again, the words are sent', async () => {
  await setMicrophonePermission(ff.browser, EXTENSION_ORIGIN, 'allow');
  await sidebar.page.close();
  llm.reset();
  llm.scriptTranscription({ text: 'Hello from the sidebar panel' });
  llm.script({ text: 'Hello, panel.' });
  await pressVoiceShortcut(ff.browser);
  // The real sidebar panel opens, claims the press as it loads, and records for a while.
  await new Promise((r) => setTimeout(r, 2500));
  await pressVoiceShortcut(ff.browser);
  await waitFor(() => llm.uploads.length === 1 && llm.chatRequests().length > 0, { what: 'the recording uploaded and the words sent' });
  expect(llm.uploads[0]!.problems).toEqual([]);
  expect(llm.uploads[0]!.container!.durationSec).toBeGreaterThan(0.5);
  // The panel sent it: a sidebar opened now shows the message in the chat.
  sidebar = await SidebarDriver.open(ff);
  expect(await sidebar.page.evaluate(() => (globalThis as unknown as { browser: { sidebarAction: { isOpen(o: object): Promise<boolean> } } }).browser.sidebarAction.isOpen({}))).toBe(true);
  await waitFor(async () => (await sidebar.userTexts()).includes('Hello from the sidebar panel'), { what: 'the spoken message in the chat' });
  await sidebar.waitForAnswer('Hello, panel.');
});
