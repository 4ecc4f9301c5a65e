/**
 * The main screens in Firefox's light and dark themes, saved as test artifacts
 * (`test-artifacts/screens/`) to be looked at: the chat with a Markdown answer and an agent's
 * action timeline, the permission dialog, an error with Retry, and the options page. Each is
 * checked to follow the theme, to fit a 300–500 px sidebar without sideways scrolling, and to
 * name every control.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { launchFirefox, setViewport, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { act, finish } from '../support/page-model';
import { configure, SidebarDriver } from '../support/sidebar-driver';

const OUT = path.resolve(__dirname, '../../test-artifacts/screens');
const SCHEMES = {
  // Firefox's own switch for what pages see as prefers-color-scheme: 0 dark, 1 light.
  light: { pref: 1, background: 'rgb(249, 249, 251)' },
  dark: { pref: 0, background: 'rgb(28, 27, 34)' },
} as const;

let llm: LlmServer;
let site: FixtureServer;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  [llm, site] = await Promise.all([
    startLlmServer({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }] }),
    startFixtureServer({ dir: path.resolve(__dirname, '../fixtures/pages') }),
  ]);
});
afterAll(async () => {
  await Promise.all([llm?.close(), site?.close()]);
});

const ANSWER = [
  '## What this page offers',
  '',
  'A **newsletter** sign-up with one field:',
  '',
  '- your name, typed into *Your name*',
  '- a **Subscribe** button',
  '',
  '| Field | Required |',
  '|---|---|',
  '| Name | yes |',
  '',
  '```js',
  "document.querySelector('button').click();",
  '```',
].join('\n');

/** What a screen must be at any sidebar width: in the theme's colours, never wider than the panel, every control named. */
async function checkScreen(ff: FoxAgentBrowser, page: Page, background: string): Promise<void> {
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
  for (const width of [300, 500]) {
    await setViewport(ff.browser, page, width, 760);
    // The innermost elements that stick out, named so that a failure says what to fix.
    const outside = await page.evaluate(() => {
      const limit = document.documentElement.clientWidth + 0.5;
      // Content inside its own scrolling box (a code block, a wide table) does not count.
      const clipped = (e: Element) => {
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true;
        return false;
      };
      const out = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > limit && !clipped(e));
      return out.filter((e) => !out.some((o) => o !== e && e.contains(o))).map((e) => `${e.tagName.toLowerCase()}[${e.getAttribute('data-testid') ?? e.className}] ${(e.textContent ?? '').slice(0, 30)}`);
    });
    expect({ width, outside }).toEqual({ width, outside: [] });
  }
  const unnamed = await page.$$eval('button, select, textarea, input', (els) =>
    els.filter((e) => !((e.getAttribute('aria-label') ?? '').trim() || (e.textContent ?? '').trim() || (e as HTMLInputElement).labels?.length)).map((e) => e.outerHTML.slice(0, 80)),
  );
  expect(unnamed).toEqual([]);
  await setViewport(ff.browser, page, 400, 760);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.bringToFront();
  await page.screenshot({ path: path.join(OUT, `${name}.png`) as `${string}.png` });
}

describe.each(Object.entries(SCHEMES))('%s theme', (scheme, { pref, background }) => {
  let ff: FoxAgentBrowser;
  let sidebar: SidebarDriver;
  beforeAll(async () => {
    ff = await launchFirefox({ prefs: { 'layout.css.prefers-color-scheme.content-override': pref, 'ui.systemUsesDarkTheme': pref === 0 ? 1 : 0 } });
    sidebar = await SidebarDriver.open(ff);
    await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'qwen2.5:3b' });
  });
  afterAll(async () => {
    await ff?.close();
  });
  beforeEach(() => llm.reset());

  test('the chat: a Markdown answer and an agent’s action timeline', async () => {
    const page = await ff.browser.newPage();
    await page.goto(`${site.url}/controlled.html`);
    llm.script({ text: ANSWER, chunkSize: 40 });
    await sidebar.send('What does this page offer?');
    await sidebar.waitForAnswer('Subscribe');
    await sidebar.waitForIdle();
    llm.script(
      act((find) => [{ name: 'fill', arguments: { id: find('textbox', 'Your name'), text: 'Ada', reason: 'your name' } }]),
      act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe'), reason: 'subscribe you' } }]),
      finish('You are subscribed as **Ada**.'),
    );
    const approver = sidebar.allowEverything();
    await sidebar.send('Type Ada into the name field and click Subscribe');
    await sidebar.waitForAnswer('You are subscribed as Ada.');
    await sidebar.waitForIdle();
    await approver.stop();
    expect(await page.$eval('#greeting', (el) => el.textContent)).toBe('Subscribed: Ada');
    await page.close();
    await checkScreen(ff, sidebar.page, background);
    await shoot(sidebar.page, `${scheme}-sidebar-chat`);
  });

  test('the permission dialog', async () => {
    const page = await ff.browser.newPage();
    await page.goto(`${site.url}/login.html`);
    await sidebar.newChat();
    llm.script(act((find) => [{ name: 'fill', arguments: { id: find('textbox', 'Password'), text: 'hunter2', reason: 'sign you in' } }]), finish('Stopped.'));
    await sidebar.send('Sign me in with password hunter2');
    await sidebar.page.waitForSelector(SidebarDriver.question('fill'));
    await checkScreen(ff, sidebar.page, background);
    await shoot(sidebar.page, `${scheme}-permission-dialog`);
    await sidebar.answerPermission('fill', 'deny');
    await sidebar.waitForIdle();
    await page.close();
  });

  test('an error with Retry', async () => {
    await sidebar.newChat();
    llm.script({ fault: 'unauthorized' });
    await sidebar.send('Hello?');
    await sidebar.page.waitForSelector('[data-testid="message-assistant"] [role="alert"]');
    // Even when retrying as such cannot help (a wrong key), Retry is there for after the fix.
    expect(await sidebar.page.$eval('[data-testid="message-assistant"] [role="alert"]', (el) => el.textContent)).toMatch(/API key.*Retry$/s);
    await checkScreen(ff, sidebar.page, background);
    await shoot(sidebar.page, `${scheme}-sidebar-error`);
  });

  test('the options page', async () => {
    const options = await ff.openExtensionPage('options.html');
    await options.waitForSelector('[data-testid="audit-row"]');
    await checkScreen(ff, options, background);
    await setViewport(ff.browser, options, 900, 1400);
    await shoot(options, `${scheme}-options`);
    await options.close();
  });
});
