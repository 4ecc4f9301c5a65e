/**
 * The sidebar a user lives in, in real Firefox against the scripted model: a tool call's row
 * through its states, the permission dialog (also from a sidebar opened again), Stop for an
 * answer and for a task, editing a message, and the per-chat model picker. Effects are checked
 * on the page and on what the model server received.
 */
import type { Page } from 'puppeteer-core';
import { agentHarness } from '../support/agent-harness';
import { captureDownloads, downloadedFiles } from '../support/downloads';
import { waitFor } from '../support/firefox';
import { act, finish, transcript } from '../support/page-model';
import { SidebarDriver } from '../support/sidebar-driver';

const h = agentHarness({
  models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }, { name: 'llama3.2:3b', tools: true, contextLength: 8192 }],
  provider: { kind: 'ollama', model: 'qwen2.5:3b' },
});

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

/** Records every status each tool row shows, in order, from inside the sidebar page. */
async function recordRowStatuses(): Promise<() => Promise<string[]>> {
  await h.sidebar.page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { rowStatuses: string[] }).rowStatuses = seen;
    // Each row's own last status, so that rows changing in turn do not repeat each other's.
    const last = new Map<number, string>();
    const note = () => {
      for (const [i, row] of [...document.querySelectorAll('[data-testid="tool-row"]')].entries()) {
        const status = `${row.getAttribute('data-tool')}:${row.getAttribute('data-status')}`;
        if (last.get(i) !== status) seen.push(status);
        last.set(i, status);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
  return () => h.sidebar.page.evaluate(() => (window as unknown as { rowStatuses: string[] }).rowStatuses);
}

test('a tool call’s row goes from waiting for permission to running to done, and opens to its arguments and result', async () => {
  const page = await h.openPage('/controlled.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe'), reason: 'subscribe you' } }]), finish('Subscribed.'));
  const statuses = await recordRowStatuses();
  await h.sidebar.send('Click subscribe');
  await h.sidebar.page.waitForSelector(SidebarDriver.question('click'));
  expect(await h.sidebar.toolRows()).toEqual([{ tool: 'click', status: 'waiting_permission' }]);
  await h.sidebar.answerPermission('click', 'allow-once');
  await h.sidebar.waitForAnswer('Subscribed.');
  expect(await text(page, '#greeting')).toBe('Subscribed: ');
  // (A row may show as pending for a moment before the question is put.)
  expect((await statuses()).filter((s) => s.startsWith('click:') && s !== 'click:pending')).toEqual(['click:waiting_permission', 'click:running', 'click:done']);

  const row = '[data-testid="tool-row"][data-tool="click"]';
  expect(await text(h.sidebar.page, row)).toMatch(/done\d+\.\d s/);
  await h.sidebar.press(`${row} button[aria-expanded="false"]`);
  await h.sidebar.page.waitForSelector(`${row} button[aria-expanded="true"]`);
  const details = await h.sidebar.page.$$eval(`${row} pre`, (els) => els.map((e) => e.textContent ?? ''));
  expect(details[0]).toContain('"reason": "subscribe you"');
  expect(details[1]).toMatch(/Clicked button "Subscribe"/);
  // The intent of the message is shown with it.
  expect(await text(h.sidebar.page, '[data-testid="intent"]')).not.toBe('');
});

test('a waiting question is in the dialog of a sidebar opened again, and an answer there is the answer', async () => {
  const page = await h.openPage('/controlled.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe') } }]), finish('Done.'));
  await h.sidebar.send('Click subscribe');
  await h.sidebar.page.waitForSelector(SidebarDriver.question('click'));
  const second = await SidebarDriver.open(h.ff);
  try {
    const dialog = await second.page.waitForSelector(SidebarDriver.question('click'));
    expect(await dialog!.evaluate((el) => [el.getAttribute('role'), el.getAttribute('aria-modal')])).toEqual(['alertdialog', 'true']);
    expect(await dialog!.evaluate((el) => el.querySelector('[data-testid="permission-origin"]')?.textContent)).toBe(h.site.url);
    await second.answerPermission('click', 'allow-once');
    await h.sidebar.waitForAnswer('Done.');
    // Both sidebars let go of the question.
    await waitFor(async () => !(await h.sidebar.page.$('[data-testid="permission-dialog"]')), { what: 'the first sidebar’s dialog to close' });
    expect(await second.page.$('[data-testid="permission-dialog"]')).toBeNull();
    expect(await text(page, '#greeting')).toBe('Subscribed: ');
  } finally {
    await second.page.close();
  }
});

test('Stop ends a streaming answer at once and keeps what was written', async () => {
  h.llm.script({ text: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 30 });
  await h.sidebar.send('Tell me a long story');
  await h.sidebar.waitForAnswer(/word word word/);
  await h.sidebar.press('[data-testid="stop"]');
  await h.sidebar.waitForIdle(5_000);
  const [kept] = await h.sidebar.assistantTexts();
  await new Promise((r) => setTimeout(r, 500));
  expect((await h.sidebar.assistantTexts())[0]).toBe(kept);
  expect(kept!.length).toBeGreaterThan(10);
  expect(kept!.length).toBeLessThan('word '.repeat(400).trim().length);
  expect(await text(h.sidebar.page, '[data-testid="message-assistant"]')).toContain('Stopped.');
});

test('Stop during a task ends it: the waiting question goes away and nothing is done on the page', async () => {
  const page = await h.openPage('/controlled.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe') } }]), finish('Subscribed.'));
  await h.sidebar.send('Click subscribe');
  await h.sidebar.page.waitForSelector(SidebarDriver.question('click'));
  await h.sidebar.press('[data-testid="stop"]');
  await h.sidebar.waitForIdle(5_000);
  await waitFor(async () => !(await h.sidebar.page.$('[data-testid="permission-dialog"]')), { what: 'the question to go' });
  expect((await h.sidebar.toolRows()).map((r) => r.status)).not.toContain('done');
  expect(await text(page, '#greeting')).toBe('Type your name');
  expect(h.llm.chatRequests().length).toBeLessThanOrEqual(2);
});

test('a chat left working shows so in the chats list, and its Stop there stops that chat’s answer, not the open one', async () => {
  h.llm.script({ text: 'word '.repeat(400), chunkSize: 5, chunkDelayMs: 30 });
  await h.sidebar.send('Tell me a long story');
  await h.sidebar.waitForAnswer(/word word word/);
  await h.sidebar.newChat();
  await h.sidebar.press('[data-testid="toggle-chats"]');
  const working = await h.sidebar.page.waitForSelector('[data-testid="conversation-item"]:has([data-testid="conversation-working"])');
  expect(await working!.evaluate((el) => el.textContent)).toContain('Tell me a long story');
  const requestsBefore = h.llm.chatRequests().length;
  await working!.$eval('[data-testid="conversation-stop"]', (el) => (el as HTMLElement).click());
  await waitFor(async () => !(await h.sidebar.page.$('[data-testid="conversation-working"]')), { what: 'the working marker to go', timeoutMs: 5_000 });
  // The stopped chat kept what was written and says it stopped; nothing more was asked of the model.
  await h.sidebar.page.$$eval('[data-testid="conversation-item"]', (items) =>
    (items.find((item) => item.textContent?.includes('Tell me a long story'))?.querySelector('button') as HTMLElement).click(),
  );
  await h.sidebar.waitForAnswer(/word word/);
  const [kept] = await h.sidebar.assistantTexts();
  expect(kept!.length).toBeLessThan('word '.repeat(400).trim().length);
  expect(await text(h.sidebar.page, '[data-testid="message-assistant"]')).toContain('Stopped.');
  expect(h.llm.chatRequests().length).toBe(requestsBefore);
});

test('a question waiting in one chat does not cover a new chat: a notice leads back to it, and the answer acts on the page', async () => {
  const page = await h.openPage('/controlled.html');
  h.llm.script(act((find) => [{ name: 'click', arguments: { id: find('button', 'Subscribe') } }]), finish('Subscribed.'));
  await h.sidebar.send('Click subscribe');
  await h.sidebar.page.waitForSelector(SidebarDriver.question('click'));
  await h.sidebar.newChat();
  await h.sidebar.page.waitForSelector('[data-testid="permission-elsewhere"]');
  expect(await h.sidebar.page.$('[data-testid="permission-dialog"]')).toBeNull();
  await h.sidebar.press('[data-testid="permission-elsewhere-show"]');
  await h.sidebar.answerPermission('click', 'allow-once');
  await h.sidebar.waitForAnswer('Subscribed.');
  expect(await text(page, '#greeting')).toBe('Subscribed: ');
});

test('a message edited and resent replaces the old turn, and the model sees only the new text', async () => {
  h.llm.script({ text: 'Paris.' }, { text: 'Madrid.' });
  await h.sidebar.send('What is the capital of France?');
  await h.sidebar.waitForAnswer('Paris.');
  await h.sidebar.waitForIdle();
  await h.sidebar.press('[data-testid="edit-message"]');
  await h.sidebar.page.$eval(
    '[data-testid="edit-input"]',
    (el, value) => {
      const area = el as HTMLTextAreaElement;
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, value);
      area.dispatchEvent(new Event('input', { bubbles: true }));
    },
    'What is the capital of Spain?',
  );
  await h.sidebar.press('[data-testid="edit-send"]');
  await h.sidebar.waitForAnswer('Madrid.');
  expect(await h.sidebar.userTexts()).toEqual(['What is the capital of Spain?']);
  expect(await h.sidebar.assistantTexts()).toEqual(['Madrid.']);
  const last = transcript(h.llm.chatRequests().at(-1)!);
  expect(last).toContain('capital of Spain');
  expect(last).not.toContain('France');
});

test('the model picker lists the server’s models; the chat uses the one picked, and keeps it', async () => {
  const picker = '[data-testid="model-picker"]';
  await waitFor(() => h.sidebar.page.$$eval(`${picker} option`, (els) => els.map((e) => (e as HTMLOptionElement).value).join(',') === ',qwen2.5:3b,llama3.2:3b'), { what: 'the live model list' });
  expect(await text(h.sidebar.page, '[data-testid="tool-badge"]')).toMatch(/^\d+ tools$/);
  await h.sidebar.page.select(picker, 'llama3.2:3b');
  await waitFor(() => h.sidebar.page.$eval(picker, (el) => (el as HTMLSelectElement).value === 'llama3.2:3b'), { what: 'the pick to stick' });
  h.llm.script({ text: 'Hello from llama.' });
  await h.sidebar.send('Hello');
  await h.sidebar.waitForAnswer('Hello from llama.');
  expect(h.llm.chatRequests().at(-1)).toMatchObject({ model: 'llama3.2:3b' });
  // A sidebar opened again shows this chat with its model.
  const second = await SidebarDriver.open(h.ff);
  try {
    await waitFor(() => second.page.$eval(picker, (el) => (el as HTMLSelectElement).value === 'llama3.2:3b'), { what: 'the chat’s model in a second sidebar' });
  } finally {
    await second.page.close();
  }
  // A new chat starts on the default.
  await h.sidebar.newChat();
  await waitFor(() => h.sidebar.page.$eval(picker, (el) => (el as HTMLSelectElement).value === ''), { what: 'the default model in a new chat' });
});

test('the chats drawer: new chat, search, switch, rename, delete, and export as Markdown and JSON', async () => {
  h.llm.script({ text: 'Bread needs flour, water, salt and yeast.' }, { text: 'Use a pan.' });
  await h.sidebar.send('How do I bake bread?');
  await h.sidebar.waitForAnswer('Bread needs flour');
  await h.sidebar.waitForIdle();
  await h.sidebar.newChat();
  await h.sidebar.send('How do I fry an egg?');
  await h.sidebar.waitForAnswer('Use a pan.');
  await h.sidebar.waitForIdle();

  const page = h.sidebar.page;
  const items = () => page.$$eval('[data-testid="conversation-item"]', (els) => els.map((e) => e.textContent ?? ''));
  await h.sidebar.press('[data-testid="toggle-chats"]');
  await waitFor(async () => (await items()).some((t) => t.includes('bake bread')) && (await items()).some((t) => t.includes('fry an egg')), { what: 'both chats listed' });

  // Search narrows the list.
  const search = '[data-testid="conversation-list"] input[type="search"]';
  await page.$eval(search, (el) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'bread');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await waitFor(async () => (await items()).length === 1 && (await items())[0]!.includes('bake bread'), { what: 'only the bread chat' });

  // Switch to it: its messages come back.
  await page.$eval('[data-testid="conversation-item"] button[aria-current]', (el) => (el as HTMLElement).click());
  await waitFor(async () => (await h.sidebar.userTexts()).join() === 'How do I bake bread?', { what: 'the bread chat to open' });
  // Picking a chat closes the drawer; open it again for the rest.
  await waitFor(async () => !(await page.$('[data-testid="conversation-list"]')), { what: 'the drawer to close' });
  await h.sidebar.press('[data-testid="toggle-chats"]');
  await page.waitForSelector('[data-testid="export-md"]');

  // Export what is open.
  await captureDownloads(page);
  await h.sidebar.press('[data-testid="export-md"]');
  await h.sidebar.press('[data-testid="export-json"]');
  const files = await downloadedFiles(page, 2);
  const markdownName = Object.keys(files).find((n) => n.endsWith('.md'))!;
  expect(markdownName).toMatch(/^foxagent-how-do-i-bake-bread.*\.md$/);
  expect(files[markdownName]).toMatch(/## You\s+How do I bake bread\?[\s\S]*## FoxAgent\s+Bread needs flour/);
  const json = JSON.parse(files[Object.keys(files).find((n) => n.endsWith('.json'))!]!) as { messages: { content: string }[] };
  expect(json.messages.map((m) => m.content)).toEqual(['How do I bake bread?', 'Bread needs flour, water, salt and yeast.']);

  // Rename it.
  await h.sidebar.press('[data-testid="conversation-item"] button[aria-label="Rename chat"]');
  await page.waitForSelector('[data-testid="conversation-list"] form input');
  await page.$eval('[data-testid="conversation-list"] form input', (el) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, 'Bread');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.form!.requestSubmit();
  });
  await waitFor(async () => (await items())[0]?.startsWith('Bread'), { what: 'the new name' });

  // Delete it: the other chat remains, and is what the sidebar shows.
  await page.$eval(search, (el) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await waitFor(async () => (await items()).length >= 2, { what: 'the whole list' });
  await page.$$eval('[data-testid="conversation-item"]', (els) => {
    const bread = els.find((e) => e.textContent?.startsWith('Bread'));
    bread?.querySelector<HTMLButtonElement>('button[aria-label="Delete chat"]')?.click();
  });
  await waitFor(async () => !(await items()).some((t) => t.startsWith('Bread')), { what: 'the bread chat to go' });
  expect((await items()).some((t) => t.includes('fry an egg'))).toBe(true);
  await waitFor(async () => !(await h.sidebar.userTexts()).includes('How do I bake bread?'), { what: 'the deleted chat to leave the view' });
  await h.sidebar.press('[data-testid="toggle-chats"]');
});
