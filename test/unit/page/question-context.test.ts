/**
 * Questions over long pages, through the real page access, chat service, router and provider
 * against the scripted model server: what the model is sent of a page that does not fit, how a
 * summary covers all of it, what the answer records of its coverage, and Read on / Pick a section.
 */
import { MAX_SUMMARY_PARTS, pageBudgetChars, pageForQuestion, summaryParts } from '../../../src/background/page/question-context';
import type { AssistantMessage } from '../../../src/shared/conversation';
import { chatOverPages, settled, snapshotOf as pageSnapshotOf } from '../../support/chat-over-pages';
import { startLlmServer, type LlmServer } from '../../support/llm-server';

const chapter = (n: number, fact: string) =>
  [`## Chapter ${n}`, ...Array.from({ length: 6 }, (_, i) => `Chapter ${n} paragraph ${i} tells of roads, rivers and towns in ordinary words that fill the page.`), fact].join('\n\n');
const LONG_TEXT = ['# The long report', 'This report walks through twenty chapters.', ...Array.from({ length: 20 }, (_, i) => chapter(i + 1, i === 18 ? 'The lighthouse keeper counted 4,812 gulls in the last winter.' : `Chapter ${i + 1} ends here.`))].join('\n\n');

const snapshotOf = (text: string) => pageSnapshotOf({ url: 'https://news.example/report', title: 'The long report', text });

test('a page that fits goes whole, with no coverage note; one that does not sends the matching sections, the outline, and says how much', () => {
  const short = pageForQuestion(snapshotOf('A short page.'), 'anything', 5_000);
  expect(short).toEqual({ body: 'A short page.' });
  const long = pageForQuestion(snapshotOf(LONG_TEXT), 'How many gulls did the lighthouse keeper count?', 3_000);
  expect(long.body).toContain('4,812 gulls');
  expect(long.body).toContain('Outline of the page:');
  expect(long.body).toContain('  - Chapter 20');
  expect(long.body).toContain('## The long report › Chapter 19');
  expect(long.body).not.toMatch(/read_page|call .*tool/i);
  expect(long.coverage).toMatchObject({ url: 'https://news.example/report', totalChars: LONG_TEXT.length });
  expect(long.coverage!.sentChars).toBeLessThan(3_000);
  expect(long.coverage!.outline).toContain('The long report › Chapter 19');
});

test('Read on sends the sections after the last one sent, in order; Pick a section sends from that heading', () => {
  const first = pageForQuestion(snapshotOf(LONG_TEXT), 'What are the towns like?', 2_500);
  const from = first.coverage!.nextSection!;
  const next = pageForQuestion(snapshotOf(LONG_TEXT), 'Read on', 2_500, { from });
  expect(next.coverage!.nextSection).toBeGreaterThan(from);
  expect(next.body).toMatch(/the part from “.+” on/);
  const picked = pageForQuestion(snapshotOf(LONG_TEXT), 'Read this section', 2_500, { heading: 'The long report › Chapter 19' });
  expect(picked.body).toContain('4,812 gulls');
  expect(picked.body.indexOf('## The long report › Chapter 19')).toBeLessThan(picked.body.indexOf('## The long report › Chapter 20'));
});

test('a summary of a page that does not fit is in parts that cover it all, each within the budget, never more than the cap', () => {
  const parts = summaryParts(snapshotOf(LONG_TEXT), 3_000);
  expect(parts.length).toBeGreaterThan(1);
  for (const part of parts) expect(part.length).toBeLessThanOrEqual(3_200);
  expect(parts.join('\n')).toContain('4,812 gulls');
  expect(parts.at(-1)).toContain('Chapter 20');
  const huge = `${LONG_TEXT}\n\n${Array.from({ length: 60 }, (_, i) => `## More ${i}\n\n${'Filler words about nothing much. '.repeat(60)}`).join('\n\n')}\n\n## The end\n\nThe final line.`;
  const capped = summaryParts(snapshotOf(huge), 3_000);
  expect(capped.length).toBeLessThanOrEqual(MAX_SUMMARY_PARTS);
  for (const part of capped) expect(part.length).toBeLessThanOrEqual(3_000);
  expect(capped.at(-1)).toContain('The final line.');
});

test('the page budget follows the context window and what the conversation already uses', () => {
  expect(pageBudgetChars(4_096, 0)).toBeLessThan(pageBudgetChars(8_192, 0));
  expect(pageBudgetChars(8_192, 20_000)).toBeLessThan(pageBudgetChars(8_192, 0));
  expect(pageBudgetChars(2_048, 100_000)).toBe(1_500);
  expect(pageBudgetChars(1_000_000, 0)).toBe(21_000);
});

describe('through the chat, against the scripted model', () => {
  let server: LlmServer;
  beforeAll(async () => {
    server = await startLlmServer({ models: [{ name: 'small:1b', tools: true, contextLength: 4096 }] });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const REPORT = { id: 5, url: 'https://news.example/report', title: 'The long report', text: LONG_TEXT };
  const setup = () => chatOverPages({ serverUrl: server.url, model: 'small:1b', tabs: [REPORT] });

  test('a question about the end of a long page gets that part into the request; the answer records how much was read', async () => {
    const { store, chat, reads } = setup();
    server.script({ text: 'About 4,812.' });
    const conversation = await store.create();
    await chat.send(conversation.id, 'How many gulls did the lighthouse keeper count?');
    await settled(chat, conversation.id);
    expect(reads).toEqual([{ tabId: 5, options: expect.objectContaining({ includeInteractive: false }) }]);
    const [request] = server.chatRequests();
    const system = request!.body.messages[0].content as string;
    expect(system).toContain('4,812 gulls');
    expect(system).not.toContain('Chapter 12 paragraph 3');
    // The page's title and address are stated once, by the prompt.
    expect(system.match(/URL: https:\/\/news\.example\/report/g)).toHaveLength(1);
    const answer = (await store.get(conversation.id))!.messages.at(-1) as AssistantMessage;
    expect(answer.content).toBe('About 4,812.');
    expect(answer.page!.sentChars / answer.page!.totalChars).toBeLessThan(0.5);

    // Read on continues after the last section that was sent.
    server.script({ text: 'More of it.' });
    await chat.send(conversation.id, 'Read on', 'sidebar', { focus: { from: answer.page!.nextSection! } });
    await settled(chat, conversation.id);
    const readOn = server.chatRequests().at(-1)!.body.messages[0].content as string;
    // The first answer sent the start of the page and chapter 19; reading on starts where the start ended.
    const [, nextHeading] = /the part from “(.+?)”/.exec(readOn)!;
    expect(system).not.toContain(`## ${nextHeading}\n`);
    expect(readOn).toContain(`## ${nextHeading}\n`);
    expect(server.chatRequests()).toHaveLength(2);
  });

  test('a summary of a long page is written from summaries of all its parts, the last part included', async () => {
    const { store, chat } = setup();
    const parts = summaryParts(snapshotOf(LONG_TEXT), pageBudgetChars(4096, 'Summarise this page'.length));
    expect(parts.length).toBeGreaterThan(1);
    server.script(...parts.map((_, i) => ({ text: `- part ${i + 1} gist` })), { text: 'The whole report, in short.' });
    const conversation = await store.create();
    await chat.send(conversation.id, 'Summarise this page');
    await settled(chat, conversation.id);
    const requests = server.chatRequests();
    expect(requests).toHaveLength(parts.length + 1);
    expect(requests.at(-2)!.body.messages[0].content).toContain('Chapter 20');
    const final = requests.at(-1)!.body.messages[0].content as string;
    for (let i = 1; i <= parts.length; i++) expect(final).toContain(`- part ${i} gist`);
    expect((await store.get(conversation.id))!.messages.at(-1)!.content).toBe('The whole report, in short.');
  });
});
