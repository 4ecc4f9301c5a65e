/**
 * Questions over long real pages (from the shared real-page corpus), in real Firefox against the
 * scripted model with an 8k context: a question about a sentence near the end of the article gets
 * that sentence into the request, the answer says how much of the page it read, Read on sends the
 * next part, and a summary is made from summaries of all the page's parts, the last included.
 * What the model was sent is checked in the requests the server received.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { readPage } from '../../src/content/dom-reader';
import { agentHarness } from '../support/agent-harness';
import { CORPUS_DIR } from '../support/corpus.cjs';
import { waitFor } from '../support/firefox';

const h = agentHarness({ models: [{ name: 'qwen2.5:3b', tools: true, contextLength: 8192 }], provider: { kind: 'ollama', model: 'qwen2.5:3b' } });

/** A corpus page served by the fixture server, with its readable text as FoxAgent's reader sees it. */
function corpusPage(name: string) {
  const html = readFileSync(path.join(CORPUS_DIR, name, 'source.html'), 'utf8');
  const dom = new JSDOM(html, { url: 'http://fakehost/test/page.html' });
  const text = readPage(dom.window.document, { maxTokens: 200_000, includeInteractive: false }).text;
  dom.window.close();
  h.site.page(`/${name}.html`, html);
  return { route: `/${name}.html`, text };
}

/** A sentence in the last fifth of the text, and a question made of every other long word of it. */
function lateSentence(text: string) {
  const sentence = text
    .slice(Math.floor(text.length * 0.8))
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .find((s) => s.split(/\s+/).length >= 12 && !/[|#*[\]`]/.test(s))!;
  const words = (sentence.match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((_, i) => i % 2 === 1).slice(0, 6);
  return { sentence, middle: sentence.slice(Math.floor(sentence.length / 4), Math.floor((sentence.length * 3) / 4)), question: `What does the page say about ${words.join(' ')}?` };
}

const systemOf = (request: { body: { messages: { content: unknown }[] } }) => String(request.body.messages[0]!.content);

for (const name of ['google-sre-book-1', 'wikipedia']) {
  test(`${name}: a question about the end of the article gets the end into the request; the answer says how much it read; Read on sends the next part`, async () => {
    const page = corpusPage(name);
    expect(page.text.length).toBeGreaterThan(20_000);
    const late = lateSentence(page.text);
    // Before, a question sent the first 11,500 characters: the sentence was not among them.
    expect(page.text.slice(0, 11_500)).not.toContain(late.middle);
    await h.openPage(page.route);
    h.llm.script({ text: 'It is near the end.' }, { text: 'The next part.' });
    await h.sidebar.send(late.question);
    await h.sidebar.waitForAnswer('It is near the end.');
    const [asked] = h.llm.chatRequests();
    expect(systemOf(asked!)).toContain(late.middle);
    expect(systemOf(asked!)).not.toMatch(/read_page|offset=/);

    const coverage = await h.sidebar.page.waitForSelector('[data-testid="page-coverage"]');
    const shown = await coverage!.evaluate((el) => el.textContent ?? '');
    const percent = Number(/Read (\d+)% of this page/.exec(shown)?.[1]);
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThan(100);
    expect(await h.sidebar.page.$$eval('[data-testid="pick-section"] option', (options) => options.length)).toBeGreaterThan(2);

    await h.sidebar.press('[data-testid="read-on"]');
    await h.sidebar.waitForAnswer('The next part.');
    const readOn = systemOf(h.llm.chatRequests().at(-1)!);
    const [, from] = /Below is the part from “(.+?)” on/.exec(readOn) ?? [];
    expect(from).toBeTruthy();
    expect(systemOf(asked!)).not.toContain(`## ${from}\n`);
    expect(await h.sidebar.page.$$eval('[data-testid="message-user"]', (els) => els.map((el) => el.textContent ?? ''))).toEqual([expect.stringContaining(late.question), expect.stringContaining('Read on in the page.')]);
  });
}

test('a summary of a long article is written from summaries of all its parts, the last part included', async () => {
  const page = corpusPage('wikipedia');
  const ending = lateSentence(page.text.slice(Math.floor(page.text.length * 0.5)));
  await h.openPage(page.route);
  let parts = 0;
  h.llm.setFallback((request) => {
    const system = systemOf(request);
    if (/read in \d+ parts/.test(system)) return { text: `The whole article, from ${parts} parts.` };
    parts++;
    return { text: `- gist of part ${parts}` };
  });
  try {
    await h.sidebar.send('Summarise this page');
    await h.sidebar.waitForAnswer(/The whole article, from \d+ parts\./, 60_000);
  } finally {
    h.llm.setFallback({ text: 'OK' });
  }
  const requests = h.llm.chatRequests();
  expect(parts).toBeGreaterThan(1);
  expect(requests).toHaveLength(parts + 1);
  expect(requests.slice(0, -1).some((r) => systemOf(r).includes(ending.middle))).toBe(true);
  const final = systemOf(requests.at(-1)!);
  for (let i = 1; i <= parts; i++) expect(final).toContain(`- gist of part ${i}`);
  await waitFor(async () => (await h.sidebar.assistantTexts()).at(-1)?.includes(`from ${parts} parts`), { what: 'the summary in the chat' });
});
