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
