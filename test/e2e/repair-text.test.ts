/**
 * The repair turn for calls written as text, in real Firefox over the Ollama wire in text mode:
 * a call whose JSON cannot be read gets one repair message, and the corrected call ticks the box.
 */
import type { Page } from 'puppeteer-core';
import { agentHarness } from '../support/agent-harness';
import { elementId } from '../support/page-model';
import type { RecordedRequest } from '../support/llm-server';

const h = agentHarness({
  models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }],
  provider: { kind: 'ollama', model: 'qwen2.5:3b', toolCallMode: 'xml', stepLimit: 6 },
});

const rememberChecked = (page: Page) => page.$eval('#remember', (el) => (el as HTMLInputElement).checked);
const box = (r: RecordedRequest) => elementId(r, 'checkbox', 'Remember me');

test('an unreadable text call is repaired: the corrected call ticks the box', async () => {
  const page = await h.openPage('/login.html');
  let repair = '';
  h.llm.script(
    (r) => ({ text: `I will tick it.\n<tool_call>{"name": "click", "arguments": {"id": ${box(r)} "reason": "tick"}}</tool_call>` }),
    (r) => {
      repair = r.body.messages.at(-1).content;
      return { text: `<tool_call>{"name": "click", "arguments": {"id": ${box(r)}}}</tool_call>` };
    },
    { text: '<tool_call>{"name": "done", "arguments": {"summary": "Ticked."}}</tool_call>' },
  );
  await h.sidebar.runTask('Tick the Remember me box');

  expect(await rememberChecked(page)).toBe(true);
  expect(repair).toMatch(/^Your tool call was not run\. .+\nclick takes click\(id: .+\)\. Call it again with fixed arguments\.\nWrite the call as <tool_call>/);
  expect(await h.sidebar.page.$$eval('[data-testid="repair-note"]', (els) => els.map((e) => e.textContent))).toEqual([expect.stringContaining('wrote the call in a form that cannot be read')]);
  expect((await h.sidebar.assistantTexts()).join('\n')).toContain('I will tick it.');
});

test('a text call the token limit left open is not run: the repair asks for the whole call, which fills the field', async () => {
  const page = await h.openPage('/login.html');
  // Every value the field takes, in order: the cut call must never have set one.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    document.querySelector('#email')!.addEventListener('input', (e) => seen.push((e.target as HTMLInputElement).value));
  });
  const email = (r: RecordedRequest) => elementId(r, 'textbox', 'Email address');
  let repair = '';
  h.llm.script(
    (r) => ({ text: `<tool_call>{"name": "fill", "arguments": {"id": ${email(r)}, "text": "ada"}`, finishReason: 'length' }),
    (r) => {
      repair = r.body.messages.at(-1).content;
      return { text: `<tool_call>{"name": "fill", "arguments": {"id": ${email(r)}, "text": "ada@example.com"}}</tool_call>` };
    },
    { text: '<tool_call>{"name": "done", "arguments": {"summary": "Filled in."}}</tool_call>' },
  );
  await h.sidebar.runTask('Fill in my email ada@example.com');

  expect(await page.$eval('#email', (el) => (el as HTMLInputElement).value)).toBe('ada@example.com');
  expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).not.toContain('ada');
  expect(repair).toMatch(/^Your tool call was not run\. The reply ended inside the arguments of the tool call to "fill"/);
  expect(await h.sidebar.page.$$eval('[data-testid="repair-note"]', (els) => els.map((e) => e.textContent))).toEqual([expect.stringContaining('was cut off before it ended')]);
});
