/**
 * The repair turn in real Firefox, with a scripted small model on the real Ollama wire protocol
 * in native tool mode: a call to a tool that does not exist, or with arguments its schema
 * refuses, gets one short corrective message; the corrected call changes the page, and the
 * timeline says what happened. Two broken calls in a row end the task with a clear error, and the
 * user's message stays. A 3B model is offered the compact tool set, and the timeline says so.
 */
import type { Page } from 'puppeteer-core';
import { agentHarness } from '../support/agent-harness';
import { act, elementId, finish } from '../support/page-model';
import type { RecordedRequest } from '../support/llm-server';

const h = agentHarness({
  models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }],
  provider: { kind: 'ollama', model: 'qwen2.5:3b', toolCallMode: 'native', stepLimit: 6 },
});

const rememberChecked = (page: Page) => page.$eval('#remember', (el) => (el as HTMLInputElement).checked);
const lastMessage = (r: RecordedRequest) => r.body.messages.at(-1) as { role: string; content: string; tool_name?: string };
const notes = () => h.sidebar.page.$$eval('[data-testid="repair-note"]', (els) => els.map((e) => e.textContent ?? ''));

test('a call to a tool that does not exist is repaired: the corrected click ticks the box', async () => {
  const page = await h.openPage('/login.html');
  let repair: { role: string; content: string; tool_name?: string } | undefined;
  h.llm.script(
    act((find) => [{ name: 'tick_box', arguments: { id: find('checkbox', 'Remember me') } }]),
    (request) => {
      repair = lastMessage(request);
      return { toolCalls: [{ name: 'click', arguments: { id: elementId(request, 'checkbox', 'Remember me') } }] };
    },
    finish('Ticked Remember me.'),
  );
  const answers = await h.sidebar.runTask('Tick the Remember me box');

  expect(await rememberChecked(page)).toBe(true);
  expect(answers.at(-1)).toContain('Ticked Remember me.');
  // One short message naming the problem and the tools offered (the compact set), as the broken call's result.
  expect(repair).toMatchObject({
    role: 'tool',
    tool_name: 'tick_box',
    content: 'Your tool call was not run. There is no tool named "tick_box".\nThe tools are: read_page, click, fill, select_option, scroll, navigate, done, ask_user, more_tools. Call one of them.',
  });
  expect(await h.sidebar.toolRows()).toEqual([
    { tool: 'tick_box', status: 'failed' },
    { tool: 'click', status: 'done' },
    { tool: 'done', status: 'done' },
  ]);
  expect(await notes()).toEqual(['The model called a tool that does not exist (tick_box); it was asked once to correct the call.']);
  expect(await h.sidebar.page.$$eval('[data-testid="tool-tier"]', (els) => els[0]?.textContent)).toBe('This model is offered a compact set of tools.');
  // The small model was offered the compact set.
  const offered = h.llm.chatRequests()[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
  expect(offered).toEqual(['read_page', 'click', 'fill', 'select_option', 'scroll', 'navigate', 'done', 'ask_user', 'more_tools']);
});

test('arguments the schema refuses are repaired: the corrected fill types the email', async () => {
  const page = await h.openPage('/login.html');
  let repair = '';
  h.llm.script(
    act((find) => [{ name: 'fill', arguments: { id: find('textbox', 'Email address') } }]),
    (request) => {
      repair = lastMessage(request).content;
      return { toolCalls: [{ name: 'fill', arguments: { id: elementId(request, 'textbox', 'Email address'), text: 'ada@example.com' } }] };
    },
    finish('Typed your email.'),
  );
  await h.sidebar.runTask('Type ada@example.com as the email address');

  expect(await page.$eval('#email', (el) => (el as HTMLInputElement).value)).toBe('ada@example.com');
  expect(repair).toMatch(/^Your tool call was not run\. Invalid arguments for fill: text: .+\nfill takes fill\(id: .+, text: string, reason\?: string\)\. Call it again with fixed arguments\.$/);
  expect(await notes()).toEqual(["The model's call to fill had arguments that do not fit; it was asked once to correct the call."]);
});

test('two broken calls in a row end the task with a clear error, and the user\'s message stays', async () => {
  const page = await h.openPage('/login.html');
  h.llm.script(
    act((find) => [{ name: 'tick_box', arguments: { id: find('checkbox', 'Remember me') } }]),
    act((find) => [{ name: 'tick_box', arguments: { id: find('checkbox', 'Remember me') } }]),
    finish('never reached'),
  );
  await h.sidebar.send('Tick the Remember me box');
  await h.sidebar.waitForIdle();

  expect(await h.sidebar.errorText()).toContain('The model made a tool call that could not be used (tick_box) twice in a row, so the task stopped.');
  expect(await h.sidebar.userTexts()).toEqual(['Tick the Remember me box']);
  expect(h.llm.chatRequests()).toHaveLength(2);
  expect(await rememberChecked(page)).toBe(false);
});
