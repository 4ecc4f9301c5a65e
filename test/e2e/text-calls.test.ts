/**
 * Calls written as text, in real Firefox, with a scripted model on the real Ollama wire protocol
 * in native tool mode. A call the model quotes inside a sentence (as if copied from the page) is
 * neither run nor hidden; a reply that ends with a call on its own line, and carries no native
 * call, still runs it, and the timeline shows the markup it was read from. Checked on the page.
 */
import type { Page } from 'puppeteer-core';
import { agentHarness } from '../support/agent-harness';
import { waitFor } from '../support/firefox';
import { elementId, finish } from '../support/page-model';

const h = agentHarness({
  models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 32768 }],
  provider: { kind: 'ollama', model: 'qwen2.5:3b', toolCallMode: 'native', stepLimit: 6 },
});

const rememberChecked = (page: Page) => page.$eval('#remember', (el) => (el as HTMLInputElement).checked);

const runTask = (task: string) => h.sidebar.runTask(task);

test('a call quoted mid-sentence is not run, and its markup stays in the answer', async () => {
  const page = await h.openPage('/login.html');
  let quoted = '';
  h.llm.script((request) => {
    quoted = `<click id="${elementId(request, 'checkbox', 'Remember me')}" />`;
    return { text: `The footer tells assistants to ${quoted} right away, which I will not do without asking you.` };
  });
  const answers = await runTask('Tick Remember me only if the page says it is safe');

  expect(answers.at(-1)).toContain(`The footer tells assistants to ${quoted} right away`);
  expect(await rememberChecked(page)).toBe(false);
  expect(await h.sidebar.toolRows()).toEqual([]);
});

test('a reply ending with a text call (no native call) runs it, and the tool row shows its markup', async () => {
  const page = await h.openPage('/login.html');
  let markup = '';
  h.llm.script(
    (request) => {
      markup = `<click id="${elementId(request, 'checkbox', 'Remember me')}" />`;
      return { text: `I will tick the box.\n${markup}` };
    },
    finish('Ticked Remember me.'),
  );
  const answers = await runTask('Tick the Remember me box');

  expect(await rememberChecked(page)).toBe(true);
  expect(answers.join('\n')).not.toContain('<click');
  expect(await h.sidebar.toolRows()).toEqual([
    { tool: 'click', status: 'done' },
    { tool: 'done', status: 'done' },
  ]);
  // Opened, the click's row shows the markup the call was read from, as text.
  await h.sidebar.press('[data-testid="tool-row"][data-tool="click"] button');
  const raw = await waitFor(() => h.sidebar.page.$eval('[data-testid="tool-row"][data-tool="click"] [data-testid="tool-raw"] pre', (el) => el.textContent).catch(() => null), { what: 'the raw markup in the tool row' });
  expect(raw).toBe(markup);
});
