/**
 * Schema-constrained tool calls in real Firefox, with a scripted model on the real Ollama and
 * OpenAI wire protocols. The scripted server refuses any reply that does not validate against the
 * schema the request carried, so every step below is one a constraining server could produce.
 * Checked on the page: the fields hold the text and the sign-in ran.
 */
import type { Page } from 'puppeteer-core';
import { agentHarness } from '../support/agent-harness';
import type { RecordedRequest, ScriptedReply } from '../support/llm-server';
import { elementId } from '../support/page-model';
import { configure } from '../support/sidebar-driver';

const h = agentHarness({ models: [{ name: 'gemma3:1b', tools: false, contextLength: 32768 }] });

const step = (value: object): ScriptedReply => ({ text: JSON.stringify(value) });
const call = (tool: string, build: (r: RecordedRequest) => Record<string, unknown>) => (r: RecordedRequest) => step({ tool, arguments: build(r) });
const status = (page: Page) => page.$eval('#status', (el) => el.textContent);

const cases = [
  // Auto on Ollama: /api/show lists no tools for the model, so constrained mode is chosen up front.
  { api: 'ollama', provider: { kind: 'ollama', baseUrl: '', toolCallMode: 'auto' }, schemaOf: (r: RecordedRequest) => r.body.format, why: ['The server lists no native tool calls for this model.'] },
  { api: 'openai', provider: { kind: 'openai-compatible', baseUrl: '/v1', toolCallMode: 'constrained' }, schemaOf: (r: RecordedRequest) => r.body.response_format?.json_schema?.schema, why: [] },
] as const;

test.each(cases)('over the $api wire protocol: sign in through JSON steps; the answer is shown, no JSON is', async ({ provider, schemaOf, why }) => {
  await configure(h.sidebar.page, { ...provider, baseUrl: `${h.llm.url}${provider.baseUrl}`, model: 'gemma3:1b' });
  const page = await h.openPage('/login.html');
  h.llm.script(
    call('fill', (r) => ({ id: elementId(r, 'textbox', 'Email address'), text: 'ada@example.com' })),
    call('fill', (r) => ({ id: elementId(r, 'textbox', 'Password'), text: 'pw' })),
    call('click', (r) => ({ id: elementId(r, 'button', 'Sign in') })),
    { ...step({ answer: 'You are signed in as **ada@example.com**.' }), chunkSize: 6 },
  );
  const answers = await h.sidebar.runTask('Sign in with ada@example.com and the password pw');

  expect(await status(page)).toBe('Signed in as ada@example.com');
  expect(await page.$eval('#email', (el) => (el as HTMLInputElement).value)).toBe('ada@example.com');
  expect(await h.sidebar.toolRows()).toEqual([
    { tool: 'fill', status: 'done' },
    { tool: 'fill', status: 'done' },
    { tool: 'click', status: 'done' },
  ]);
  expect(answers.join('\n')).toContain('You are signed in as ada@example.com.');
  expect(answers.join('\n')).not.toMatch(/"tool"|"answer"|"arguments"/);
  expect(await h.sidebar.page.$eval('body', (el) => (el as HTMLElement).innerText)).toContain('This model answers in schema-constrained JSON.');
  // Why this mode, when the user did not choose it: said under the turn's messages.
  expect(await h.sidebar.page.$$eval('[data-testid="tool-mode-why"]', (els) => [...new Set(els.map((e) => e.textContent))])).toEqual(why);

  // Every request carried the reply schema and no tools; no scripted reply was refused.
  const requests = h.llm.chatRequests();
  expect(requests).toHaveLength(4);
  for (const r of requests) {
    expect(r.body.tools).toBeUndefined();
    expect(schemaOf(r)?.anyOf?.map((branch: { properties: { tool?: { const: string } } }) => branch.properties.tool?.const ?? 'answer')).toEqual(expect.arrayContaining(['fill', 'click', 'answer']));
  }
  expect(h.llm.schemaViolations).toEqual([]);
});
