/**
 * The LLM layer's hard cases in real Firefox, through the real `openai` and `ollama` clients and
 * the scripted server: a model that rejects tools finishes the task through text tool calls on
 * the same turn, and each provider fault gives its own actionable message while the
 * conversation and the user's text survive.
 */
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server';
import { launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { startLlmServer, type LlmServer } from '../support/llm-server';
import { elementId } from '../support/page-model';
import { configure, SidebarDriver } from '../support/sidebar-driver';

let ff: FoxAgentBrowser;
let llm: LlmServer;
let site: FixtureServer;
let sidebar: SidebarDriver;

beforeAll(async () => {
  [ff, llm, site] = await Promise.all([
    launchFirefox(),
    startLlmServer({ models: [{ name: 'llama3.2:3b', tools: true, contextLength: 8192 }, { name: 'qwen2.5:7b', tools: true }, { name: 'phi3:mini', tools: false, contextLength: 4096 }] }),
    startFixtureServer({ dir: path.resolve(__dirname, '../fixtures/pages') }),
  ]);
  sidebar = await SidebarDriver.open(ff);
});
afterAll(async () => {
  await ff?.close();
  await Promise.all([llm?.close(), site?.close()]);
});
beforeEach(async () => {
  llm.reset();
  await sidebar.newChat();
});

let tab: Page | undefined;
afterEach(async () => {
  await tab?.close().catch(() => undefined);
  tab = undefined;
});

async function openPage(route: string): Promise<Page> {
  tab = await ff.browser.newPage();
  await tab.goto(`${site.url}${route}`);
  return tab;
}

test('auto mode: a model that rejects tools does the task through text tool calls on the same turn, without an error', async () => {
  await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${llm.url}/v1`, model: 'phi3:mini', toolCallMode: 'auto' });
  const page = await openPage('/login.html');
  llm.script(
    (r) => ({ text: `I will fill in the email and password.\n<fill id="${elementId(r, 'textbox', 'Email address')}" text="ada@example.com" />\n<fill>\n<id>${elementId(r, 'textbox', 'Password')}</id>\n<text>pw</text>\n</fill>` }),
    (r) => ({ text: `<tool_call>\n{"name": "click", "arguments": {"id": ${elementId(r, 'button', 'Sign in')}}}\n</tool_call>` }),
    { text: '```json\n{"name": "done", "arguments": {"summary": "You are signed in."}}\n```' },
  );
  const approver = sidebar.allowEverything();
  try {
    await sidebar.send('Fill in ada@example.com and click sign in');
    await sidebar.waitForAnswer('You are signed in.');
    await sidebar.waitForIdle();
  } finally {
    await approver.stop();
  }

  expect(await page.$eval('#status', (el) => el.textContent)).toBe('Signed in as ada@example.com');
  const requests = llm.chatRequests();
  // First the native attempt, refused; then the same turn again as text, with the catalogue.
  expect(requests[0]!.body.tools?.length).toBeGreaterThan(0);
  expect(requests[1]!.body.tools).toBeUndefined();
  expect(requests[1]!.body.messages[0].content).toMatch(/### fill[\s\S]*<tool_call>/);
  expect(await sidebar.page.$('[role="alert"]')).toBeNull();
  expect(await sidebar.page.$eval('body', (el) => (el as HTMLElement).innerText)).toContain('This model uses text tool calls.');
  // No markup reached the chat: only the prose and the summary.
  const texts = (await sidebar.assistantTexts()).join('\n');
  expect(texts).toContain('I will fill in the email and password.');
  expect(texts).not.toMatch(/<fill|tool_call|"arguments"/);
});

describe('each fault gives its own message and keeps the conversation', () => {
  const cases: { name: string; setup: () => Promise<void>; expected: RegExp[] }[] = [
    {
      name: 'a wrong API key (401)',
      setup: async () => {
        await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${llm.url}/v1`, apiKey: 'sk-wrong', model: 'qwen2.5:7b' });
        llm.setFallback({ fault: 'unauthorized' });
      },
      expected: [/rejected the API key \(401\)/, /Check the API key/],
    },
    {
      name: 'an unknown model, listing the ones that exist',
      setup: async () => {
        await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'mistral:7b' });
      },
      expected: [/“mistral:7b” was not found/, /Models on this server: llama3\.2:3b, qwen2\.5:7b, phi3:mini/, /ollama pull mistral:7b/],
    },
    {
      name: 'a server error that does not go away (500)',
      setup: async () => {
        await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
        llm.setFallback({ fault: 'server_error' });
      },
      expected: [/500/],
    },
    {
      name: 'a reply that is not valid JSON',
      setup: async () => {
        await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
        llm.setFallback({ fault: 'malformed_json' });
      },
      expected: [/not valid JSON|could not be read|malformed/i],
    },
    {
      name: 'a server that stops answering (timeout)',
      setup: async () => {
        await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${llm.url}/v1`, model: 'qwen2.5:7b', requestTimeoutMs: 1500 });
        llm.setFallback({ fault: 'hang' });
      },
      expected: [/did not answer|timed out|time/i],
    },
  ];

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.setup();
    await sidebar.send('Hello there');
    const error = await sidebar.errorText();
    for (const pattern of c.expected) expect(error).toMatch(pattern);
    expect(await sidebar.userTexts()).toEqual(['Hello there']);
    // The user can go on: the composer is free and the Retry button is there where it helps.
    await sidebar.waitForIdle();
  });
});

test('rate limiting (429) is retried after Retry-After, and the answer arrives', async () => {
  await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${llm.url}/v1`, model: 'qwen2.5:7b' });
  llm.script({ fault: 'rate_limited', retryAfterSec: 1 }, { text: 'Answered after waiting.' });
  await sidebar.send('Hello');
  await sidebar.waitForAnswer('Answered after waiting.');
  const [first, second] = llm.chatRequests();
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  expect(await sidebar.page.$('[role="alert"]')).toBeNull();
});

test('a server error that passes is retried, and the answer arrives', async () => {
  await configure(sidebar.page, { kind: 'ollama', baseUrl: llm.url, model: 'llama3.2:3b' });
  llm.script({ fault: 'server_error' }, { text: 'Recovered.' });
  await sidebar.send('Hello');
  await sidebar.waitForAnswer('Recovered.');
  expect(llm.chatRequests()).toHaveLength(2);
});

test('a stream cut half way keeps the partial answer, marked as cut off', async () => {
  await configure(sidebar.page, { kind: 'openai-compatible', baseUrl: `${llm.url}/v1`, model: 'qwen2.5:7b' });
  llm.script({ text: 'The first half of a long answer arrives, and then', chunkSize: 6, fault: 'cut_stream' });
  await sidebar.send('Tell me a story');
  await waitFor(async () => (await sidebar.page.$eval('body', (el) => (el as HTMLElement).innerText)).includes('The answer was cut off.'), { what: 'the cut-off marker' });
  const [answer] = await sidebar.assistantTexts();
  expect(answer).toContain('The first half of a long');
  expect(await sidebar.userTexts()).toEqual(['Tell me a story']);
});
