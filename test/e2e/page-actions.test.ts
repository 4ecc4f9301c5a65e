/**
 * The page layer in real Firefox: the agent reads fixture pages and acts on them through the
 * content scripts, driven by a scripted model over the real Ollama wire protocol. Every action is
 * checked by its effect on the page, never by the tool's own answer.
 */
import type { Page } from 'puppeteer-core';
import { waitFor } from '../support/firefox';
import { agentHarness } from '../support/agent-harness';
import { SidebarDriver } from '../support/sidebar-driver';
import { act, finish, transcript } from '../support/page-model';

const h = agentHarness({
  models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }],
  provider: { kind: 'ollama', model: 'qwen2.5:3b', stepLimit: 12 },
});
const openPage = h.openPage;

/** Sends a task, allows what the agent asks for, and waits until it has finished. */
const runTask = (task: string) => h.sidebar.runTask(task);

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

test('fills a login form, ticks a checkbox and clicks the button: the page signs in', async () => {
  const page = await openPage('/login.html');
  h.llm.script(
    act((find) => [
      { name: 'fill', arguments: { id: find('textbox', 'Email address'), text: 'ada@example.com' } },
      { name: 'fill', arguments: { id: find('textbox', 'Password'), text: 'correct horse' } },
      { name: 'set_checked', arguments: { id: find('checkbox', 'Remember me'), checked: true } },
    ]),
    act((find) => [{ name: 'click', arguments: { id: find('button', 'Sign in') } }]),
    finish('Signed in as ada@example.com.'),
  );
  const answers = await runTask('Fill in the login form with ada@example.com and sign me in');

  expect(await text(page, '#status')).toBe('Signed in as ada@example.com (remembered)');
  expect(await page.$eval('#password', (el) => (el as HTMLInputElement).value)).toBe('correct horse');
  expect(answers.at(-1)).toContain('Signed in as ada@example.com.');
  expect((await h.sidebar.toolRows()).map((r) => [r.tool, r.status])).toEqual([
    ['fill', 'done'],
    ['fill', 'done'],
    ['set_checked', 'done'],
    ['click', 'done'],
    ['done', 'done'],
  ]);
  // The model saw the page as a snapshot with the form's fields, and never the typed password.
  const firstRequest = transcript(h.llm.chatRequests()[0]!);
  expect(firstRequest).toMatch(/textbox "Email address"/);
  expect(firstRequest).not.toContain('correct horse');
});

test('the task, its tool calls and their results are still there when the sidebar is opened again', async () => {
  await openPage('/navigate.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('link', 'Continue to the welcome page') } }]), finish('You are on the welcome page.'));
  await runTask('Click continue to the welcome page');
  const second = await SidebarDriver.open(h.ff);
  try {
    await waitFor(async () => (await second.toolRows()).length === 2, { what: 'the tool rows in a second sidebar' });
    expect(await second.toolRows()).toEqual(await h.sidebar.toolRows());
    expect((await second.assistantTexts()).at(-1)).toContain('You are on the welcome page.');
  } finally {
    await second.page.close();
  }
});

test('a denied action is not done, the model is told, and it changes course', async () => {
  const page = await openPage('/controlled.html');
  h.llm.script(
    act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe'), reason: 'subscribe you' } }]),
    (r) => ({ text: /did not allow/.test(transcript(r)) ? 'Understood: I did not subscribe you.' : 'I subscribed you.' }),
  );
  await h.sidebar.send('Click subscribe');
  await h.sidebar.answerPermission('click', 'deny');
  await h.sidebar.waitForAnswer('Understood: I did not subscribe you.');
  await h.sidebar.waitForIdle();
  expect(await text(page, '#greeting')).toBe('Type your name');
  expect(await h.sidebar.toolRows()).toEqual([{ tool: 'click', status: 'denied' }]);
  expect(h.llm.chatRequests()).toHaveLength(2);
});

test('opens a tab, lists the tabs, and closes only the tab it opened', async () => {
  const page = await openPage('/navigate.html');
  const opened = `${h.site.url}/welcome.html?from=tab`;
  const tabIdOf = (r: Parameters<typeof transcript>[0], pattern: RegExp) => Number(transcript(r).match(pattern)?.[1]);
  h.llm.script(
    { toolCalls: [{ name: 'open_tab', arguments: { url: opened } }] },
    { toolCalls: [{ name: 'list_tabs', arguments: {} }], delayMs: 1500 },
    (r) => ({
      toolCalls: [
        { name: 'close_tab', arguments: { tab_id: tabIdOf(r, /tab_id=(\d+) "Start page"/) } },
        { name: 'close_tab', arguments: { tab_id: tabIdOf(r, /Opened tab_id=(\d+)/) } },
      ],
    }),
    { toolCalls: [{ name: 'read_page', arguments: {} }] },
    finish('Opened and closed the welcome page.'),
  );
  const task = runTask('Open the welcome page in a new tab, then close it');
  const urls = async () => Promise.all((await h.ff.browser.pages()).map((p) => p.url()));
  await waitFor(async () => (await urls()).includes(opened), { what: 'the new tab' });
  await task;
  expect(await urls()).not.toContain(opened);
  expect(page.isClosed()).toBe(false);
  expect(await urls()).toContain(`${h.site.url}/navigate.html`);
  const rows = await h.sidebar.toolRows();
  expect(rows.filter((r) => r.tool === 'close_tab').map((r) => r.status)).toEqual(['failed', 'done']);
  // Closing the tab it worked in brought the agent back to the page it started on.
  const last = transcript(h.llm.chatRequests().at(-1)!);
  expect(last).toMatch(/back on tab_id=\d+ "Start page"/);
  expect(last.slice(last.lastIndexOf('back on tab_id='))).toContain('button "Go by script"');
});

test('goes back after a link click, to the page it came from', async () => {
  const page = await openPage('/navigate.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('link', 'Continue to the welcome page') } }]), { toolCalls: [{ name: 'go_back', arguments: {} }] }, finish('Back at the start.'));
  await runTask('Click continue, then go back');
  // Read the tab's own location: history traversal does not always update puppeteer's cached URL.
  await waitFor(async () => (await page.evaluate(() => location.pathname).catch(() => '')) === '/navigate.html', { what: 'the start page again' });
  expect(await text(page, 'h1')).toBe('Start');
});

test('a click on a form the browser will not send says which field is missing', async () => {
  const page = await openPage('/login.html');
  h.llm.script(
    act((find) => [
      { name: 'fill', arguments: { id: find('textbox', 'Email address'), text: 'ada@example.com' } },
      { name: 'click', arguments: { id: find('button', 'Sign in') } },
    ]),
    (r) => ({ text: /did not send the form: Password/.test(transcript(r)) ? 'The password is missing: what is it?' : 'Signed in.' }),
  );
  await runTask('Sign in with ada@example.com');
  expect(await text(page, '#status')).toBe('');
  expect((await h.sidebar.assistantTexts()).at(-1)).toContain('The password is missing');
});

test('types into a framework-controlled input so the framework sees it', async () => {
  const page = await openPage('/controlled.html');
  h.llm.script(
    { text: 'Let me look at the page first.', toolCalls: [{ name: 'read_page', arguments: {} }] },
    act((find) => [{ name: 'fill', arguments: { id: find('textbox', 'Your name'), text: 'Ada' } }]),
    act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe') } }]),
    finish('Subscribed Ada.'),
  );
  const answers = await runTask('Fill in my name Ada and subscribe');
  // The page's own state took the value: a bare .value assignment would have left it empty.
  expect(await text(page, '#greeting')).toBe('Subscribed: Ada');
  // The chat showed each step: the model's words, each tool call with its outcome, the summary.
  expect(answers[0]).toContain('Let me look at the page first.');
  expect(answers.at(-1)).toContain('Subscribed Ada.');
  expect((await h.sidebar.toolRows()).map((r) => `${r.tool}:${r.status}`)).toEqual(['read_page:done', 'fill:done', 'click:done', 'done:done']);
  // read_page's result went back to the model, with the field it then filled.
  expect(transcript(h.llm.chatRequests()[1]!)).toMatch(/textbox "Your name"/);
});

test('selects an option, checks and unchecks boxes, picks a radio and flips a switch', async () => {
  const page = await openPage('/choices.html');
  h.llm.script(
    act((find) => [
      { name: 'select_option', arguments: { id: find('combobox', 'Size'), option: 'Large' } },
      { name: 'set_checked', arguments: { id: find('checkbox', 'Olives'), checked: true } },
      { name: 'set_checked', arguments: { id: find('checkbox', 'Mushrooms'), checked: 'false' } },
      { name: 'set_checked', arguments: { id: find('radio', 'Thin'), checked: true } },
      { name: 'set_checked', arguments: { id: find('switch', 'Extra cheese'), checked: true } },
    ]),
    finish('Large, thin, olives, extra cheese.'),
  );
  await runTask('Select a large thin pizza with olives instead of mushrooms, and extra cheese');
  expect(await text(page, '#summary')).toBe('l,olives,thin,cheese');
});

test('reads and acts inside an open shadow root and a same-origin iframe', async () => {
  const page = await openPage('/shadow-iframe.html');
  await page.waitForFunction(() => (document.getElementById('same') as HTMLIFrameElement).contentDocument?.getElementById('save'));
  h.llm.script(
    act((find) => [{ name: 'click', arguments: { id: find('button', 'Upgrade plan') } }]),
    act((find) => [
      { name: 'fill', arguments: { id: find('textbox', 'Nickname'), text: 'ada' } },
      { name: 'click', arguments: { id: find('button', 'Save nickname') } },
    ]),
    finish('Upgraded and saved.'),
  );
  await runTask('Click upgrade plan, then set my nickname to ada and save it');
  expect(await text(page, '#log')).toBe('saved ada');
  const prompt = transcript(h.llm.chatRequests()[0]!);
  expect(prompt).toContain('Shadow text: your plan is Premium.');
  expect(prompt).toContain('Frame text: notifications are off.');
  // The upgrade click happened (its log line was then replaced by the save).
  const second = transcript(h.llm.chatRequests()[1]!);
  expect(second).toContain('upgrade clicked');
});

test('scrolls an endless list until more items load', async () => {
  const page = await openPage('/infinite.html');
  expect(await page.$$eval('#feed li', (els) => els.length)).toBe(20);
  h.llm.script({ toolCalls: [{ name: 'scroll', arguments: { direction: 'bottom' } }] }, { toolCalls: [{ name: 'scroll', arguments: { direction: 'bottom' } }] }, finish('Loaded more items.'));
  await runTask('Scroll down to load more items');
  expect(await page.$$eval('#feed li', (els) => els.length)).toBeGreaterThanOrEqual(60);
});

test('a click that navigates waits for the new page and reports it', async () => {
  const page = await openPage('/navigate.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Go by script') } }]), finish('Arrived.'));
  await runTask('Click the go by script button');
  await waitFor(() => page.url().includes('/welcome.html?from=button'), { what: 'the welcome page' });
  expect(await text(page, '#from')).toBe('Arrived ?from=button');
  // The tool result showed the model the page it landed on.
  expect(transcript(h.llm.chatRequests()[1]!)).toContain('Welcome aboard');
});

test('an unknown element id is refused with a fresh snapshot, and nothing is clicked', async () => {
  const page = await openPage('/large.html');
  h.llm.script({ toolCalls: [{ name: 'click', arguments: { id: 987654 } }] }, finish('Could not find it.'));
  await runTask('Click the buy button');
  expect(await text(page, '#top-action')).toBe('Buy the featured item');
  const result = transcript(h.llm.chatRequests()[1]!);
  expect(result).toMatch(/no element \[987654\]|987654/i);
  expect(result).toContain('Buy the featured item'); // the fresh snapshot came with the error
  // Refused by the permission engine with the reason, before any question.
  expect((await h.sidebar.toolRows())[0]).toEqual({ tool: 'click', status: 'denied' });
});

test('a 50,000-element page gives a snapshot within budget, and its first button works', async () => {
  const page = await openPage('/large.html');
  await page.waitForFunction(() => document.getElementsByTagName('*').length > 50_000);
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Buy the featured item') } }]), finish('Bought.'));
  await runTask('Click buy the featured item');
  expect(await text(page, '#top-action')).toBe('Clicked!');
  const prompt = transcript(h.llm.chatRequests()[0]!);
  expect(prompt).toMatch(/Showing \d+ of \d+ elements/);
  expect(prompt.length).toBeLessThan(40_000);
});

test('a restricted page gets a clear "cannot act" answer and nothing runs', async () => {
  // Firefox lets no extension script data: pages, as with about: pages and the add-ons h.site.
  const tab = h.track(await h.ff.browser.newPage());
  await tab.goto('data:text/html,<title>Local note</title><button onclick="this.textContent=1">Press</button>');
  h.llm.script({ toolCalls: [{ name: 'click', arguments: { id: 1 } }] }, finish('I cannot act on this page.'));
  await runTask('Click the first button');
  expect(await text(tab, 'button')).toBe('Press');
  expect(transcript(h.llm.chatRequests()[0]!)).toMatch(/cannot read or act on data: pages/);
  // Refused by the permission engine with the reason, before any question.
  expect((await h.sidebar.toolRows())[0]).toEqual({ tool: 'click', status: 'denied' });
  expect(transcript(h.llm.chatRequests()[1]!)).toMatch(/cannot (read or )?act/i);
});
