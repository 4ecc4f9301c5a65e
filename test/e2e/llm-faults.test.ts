/**
 * The LLM layer's hard cases in real Firefox, through the real `openai` and `ollama` clients and
 * the scripted server: a model whose server rejects tools and reply schemas finishes the task
 * through text tool calls on the same turn, and each provider fault gives its own actionable message while the
 * conversation and the user's text survive.
 */
import { waitFor } from '../support/firefox';
import { agentHarness } from '../support/agent-harness';
import { elementId } from '../support/page-model';
import { configure } from '../support/sidebar-driver';

const h = agentHarness({
  models: [{ name: 'llama3.2:3b', tools: true, contextLength: 8192 }, { name: 'qwen2.5:7b', tools: true }, { name: 'phi3:mini', tools: false, schema: false, contextLength: 4096 }],
});
const openPage = h.openPage;

test('auto mode: a server that rejects tools and reply schemas does the task through text tool calls on the same turn, without an error', async () => {
  await configure(h.sidebar.page, { kind: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, model: 'phi3:mini', toolCallMode: 'auto' });
  const page = await openPage('/login.html');
  h.llm.script(
    (r) => ({ text: `I will fill in the email and password.\n<fill id="${elementId(r, 'textbox', 'Email address')}" text="ada@example.com" />\n<fill>\n<id>${elementId(r, 'textbox', 'Password')}</id>\n<text>pw</text>\n</fill>` }),
    (r) => ({ text: `<tool_call>\n{"name": "click", "arguments": {"id": ${elementId(r, 'button', 'Sign in')}}}\n</tool_call>` }),
    { text: '```json\n{"name": "done", "arguments": {"summary": "You are signed in."}}\n```' },
  );
  const approver = h.sidebar.allowEverything();
  try {
    await h.sidebar.send('Fill in ada@example.com and click sign in');
    await h.sidebar.waitForAnswer('You are signed in.');
    await h.sidebar.waitForIdle();
  } finally {
    await approver.stop();
  }

  expect(await page.$eval('#status', (el) => el.textContent)).toBe('Signed in as ada@example.com');
  const requests = h.llm.chatRequests();
  // First the native attempt, refused; then a reply schema, refused; then the same turn again as text, with the catalogue.
  expect(requests[0]!.body.tools?.length).toBeGreaterThan(0);
  expect(requests[1]!.body.tools).toBeUndefined();
  expect(requests[1]!.body.response_format?.type).toBe('json_schema');
  expect(requests[2]!.body.tools).toBeUndefined();
  expect(requests[2]!.body.response_format).toBeUndefined();
  expect(requests[2]!.body.messages[0].content).toMatch(/### fill[\s\S]*<tool_call>/);
  expect(await h.sidebar.page.$('[role="alert"]')).toBeNull();
  expect(await h.sidebar.page.$eval('body', (el) => (el as HTMLElement).innerText)).toContain('This model uses text tool calls.');
  // No markup reached the chat: only the prose and the summary.
  const texts = (await h.sidebar.assistantTexts()).join('\n');
  expect(texts).toContain('I will fill in the email and password.');
  expect(texts).not.toMatch(/<fill|tool_call|"arguments"/);
});

describe('each fault gives its own message and keeps the conversation', () => {
  const cases: { name: string; setup: () => Promise<void>; expected: RegExp[] }[] = [
    {
      name: 'a wrong API key (401)',
      setup: async () => {
        await configure(h.sidebar.page, { kind: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, apiKey: 'sk-wrong', model: 'qwen2.5:7b' });
        h.llm.setFallback({ fault: 'unauthorized' });
      },
      expected: [/rejected the API key \(401\)/, /Check the API key/],
    },
    {
      name: 'an unknown model, listing the ones that exist',
      setup: async () => {
        await configure(h.sidebar.page, { kind: 'ollama', baseUrl: h.llm.url, model: 'mistral:7b' });
      },
      expected: [/“mistral:7b” was not found/, /Models on this server: llama3\.2:3b, qwen2\.5:7b, phi3:mini/, /ollama pull mistral:7b/],
    },
    {
      name: 'a server error that does not go away (500)',
      setup: async () => {
        await configure(h.sidebar.page, { kind: 'ollama', baseUrl: h.llm.url, model: 'llama3.2:3b' });
        h.llm.setFallback({ fault: 'server_error' });
      },
      expected: [/500/],
    },
    {
      name: 'a reply that is not valid JSON',
      setup: async () => {
        await configure(h.sidebar.page, { kind: 'ollama', baseUrl: h.llm.url, model: 'llama3.2:3b' });
        h.llm.setFallback({ fault: 'malformed_json' });
      },
      expected: [/not valid JSON|could not be read|malformed/i],
    },
    {
      name: 'a server that stops answering (timeout)',
      setup: async () => {
        await configure(h.sidebar.page, { kind: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, model: 'qwen2.5:7b', requestTimeoutMs: 1500 });
        h.llm.setFallback({ fault: 'hang' });
      },
      expected: [/did not answer|timed out|time/i],
    },
  ];

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.setup();
    await h.sidebar.send('Hello there');
    const error = await h.sidebar.errorText();
    for (const pattern of c.expected) expect(error).toMatch(pattern);
    expect(await h.sidebar.userTexts()).toEqual(['Hello there']);
    // The user can go on: the composer is free and the Retry button is there where it helps.
    await h.sidebar.waitForIdle();
  });
});

test('rate limiting (429) is retried after Retry-After, and the answer arrives', async () => {
  await configure(h.sidebar.page, { kind: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, model: 'qwen2.5:7b' });
  h.llm.script({ fault: 'rate_limited', retryAfterSec: 1 }, { text: 'Answered after waiting.' });
  await h.sidebar.send('Hello');
  await h.sidebar.waitForAnswer('Answered after waiting.');
  const [first, second] = h.llm.chatRequests();
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  expect(await h.sidebar.page.$('[role="alert"]')).toBeNull();
});

test('a server error that passes is retried, and the answer arrives', async () => {
  await configure(h.sidebar.page, { kind: 'ollama', baseUrl: h.llm.url, model: 'llama3.2:3b' });
  h.llm.script({ fault: 'server_error' }, { text: 'Recovered.' });
  await h.sidebar.send('Hello');
  await h.sidebar.waitForAnswer('Recovered.');
  expect(h.llm.chatRequests()).toHaveLength(2);
});

test('a stream cut half way keeps the partial answer, marked as cut off', async () => {
  await configure(h.sidebar.page, { kind: 'openai-compatible', baseUrl: `${h.llm.url}/v1`, model: 'qwen2.5:7b' });
  h.llm.script({ text: 'The first half of a long answer arrives, and then', chunkSize: 6, fault: 'cut_stream' });
  await h.sidebar.send('Tell me a story');
  await waitFor(async () => (await h.sidebar.page.$eval('body', (el) => (el as HTMLElement).innerText)).includes('The answer was cut off.'), { what: 'the cut-off marker' });
  const [answer] = await h.sidebar.assistantTexts();
  expect(answer).toContain('The first half of a long');
  expect(await h.sidebar.userTexts()).toEqual(['Tell me a story']);
});
