/**
 * The page protocol as the background sees it: every reply is parsed against its request's
 * schema in one place (a forged or malformed one is refused with `bad_reply`), and one session per
 * tab and document, so the tab is checked and the agent pinged only when the document may have
 * changed.
 */
import { PageError, TabAgent, type TabsApi } from '../../../src/background/page/tab-agent';
import { PAGE_AGENT_VERSION, type ContentRequest } from '../../../src/shared/content-protocol';
import type { PageSnapshot } from '../../../src/shared/page-snapshot';

const snapshot = (nonce: string): PageSnapshot => ({
  url: 'https://shop.example/',
  title: 'Shop',
  text: 'Hello',
  elements: [{ id: 1, role: 'button', name: 'Buy', tag: 'button', inView: true }],
  frames: [],
  truncated: { text: false, elements: false, totalTextChars: 5, totalElements: 1 },
  nonce,
  source: 'visible-text',
});

/** A tab whose document may or may not hold the page agent; counts what the background calls. */
function fakeTab(options: { url?: string; answer?: (request: ContentRequest, doc: string) => unknown } = {}) {
  const page = { url: options.url ?? 'https://shop.example/', agent: false, doc: 'doc-1', closed: false };
  const calls = { get: 0, sendMessage: 0, executeScript: 0, sent: [] as string[] };
  const tabs: TabsApi = {
    get: async (id) => {
      calls.get++;
      if (page.closed) throw new Error(`Invalid tab ID: ${id}`);
      return { id, url: page.url };
    },
    executeScript: async () => {
      calls.executeScript++;
      page.agent = true;
      return [];
    },
    sendMessage: async (_tab, message) => {
      calls.sendMessage++;
      const request = message as ContentRequest;
      calls.sent.push(request.type);
      if (page.closed) throw new Error('Invalid tab ID');
      if (!page.agent) throw new Error('Could not establish connection. Receiving end does not exist.');
      if (request.type === 'page/ping') return { doc: page.doc, value: { version: PAGE_AGENT_VERSION, mutations: 0, url: page.url, doc: page.doc } };
      if (options.answer) return options.answer(request, page.doc);
      if (request.type === 'page/read') return { doc: page.doc, value: { snapshot: snapshot('nonce-1'), rendered: 'Hello', mutations: 0 } };
      if (request.type === 'page/wait') return { doc: page.doc, value: { message: 'It is already on the page.' } };
      return { doc: page.doc, error: { code: 'unexpected', message: 'not scripted' } };
    },
  };
  /** The tab loads a new document: the old agent is gone with it. */
  const navigate = (url = page.url) => {
    page.url = url;
    page.agent = false;
    page.doc = `doc-${Number(page.doc.slice(4)) + 1}`;
  };
  return { tabs, calls, page, navigate };
}

const reply = (value: unknown) => ({ answer: () => value });
const failure = (agent: TabAgent, run: (a: TabAgent) => Promise<unknown>) => run(agent).then(() => undefined, (e: unknown) => e as PageError);

describe('replies are parsed, not cast', () => {
  test('a reply that is not an envelope is refused with a clear error', async () => {
    const { tabs } = fakeTab(reply('<html>hello</html>'));
    const error = await failure(new TabAgent(tabs), (a) => a.request(1, { type: 'page/read', options: {} }));
    expect(error).toBeInstanceOf(PageError);
    expect(error?.code).toBe('bad_reply');
    expect(error?.message).toMatch(/malformed answer to page\/read .*neither a value nor an error.*did not use it/);
  });

  test('a reply of the wrong shape for its request is refused, naming what is wrong', async () => {
    // An act's reply sent for a read: right envelope, wrong value.
    const { tabs } = fakeTab(reply({ doc: 'doc-1', value: { message: 'Clicked.', url: 'https://shop.example/' } }));
    const error = await failure(new TabAgent(tabs), (a) => a.request(1, { type: 'page/read', options: {} }));
    expect(error?.code).toBe('bad_reply');
    expect(error?.message).toMatch(/page\/read \(snapshot: expected object\)/);
  });

  test('a forged snapshot (ids that are not numbers) is refused, and its nonce is not kept', async () => {
    const forged = snapshot('forged');
    const { tabs, calls } = fakeTab({
      answer: (request, doc) =>
        request.type === 'page/read'
          ? { doc, value: { snapshot: { ...forged, elements: [{ ...forged.elements[0], id: '1; drop' }] }, rendered: '', mutations: 0 } }
          : { doc, value: { ref: { snapshot: 'x', doc, origin: 'https://shop.example' } } },
    });
    const agent = new TabAgent(tabs);
    const error = await failure(agent, (a) => a.request(1, { type: 'page/read', options: {} }));
    expect(error?.message).toMatch(/snapshot\.elements\.0\.id: expected number/);
    const inspect = jest.spyOn(tabs, 'sendMessage');
    await agent.inspect(1, { tool: 'click', args: { id: 1 } });
    expect(inspect).toHaveBeenLastCalledWith(1, expect.objectContaining({ type: 'page/inspect', snapshot: '' }), { frameId: 0 });
    expect(calls.sent).toContain('page/inspect');
  });

  test('a forged inspection is refused, and the action it would have allowed is not sent', async () => {
    const { tabs, calls } = fakeTab({ answer: (_r, doc) => ({ doc, value: { ref: { snapshot: 'nonce-1', doc }, target: { tag: 'button' } } }) });
    const agent = new TabAgent(tabs);
    const args = { id: 1 };
    await expect(agent.inspect(1, { tool: 'click', args })).rejects.toMatchObject({ code: 'bad_reply', message: expect.stringMatching(/page\/inspect \(ref\.origin: /) });
    await expect(agent.act(1, args, { action: 'click', id: 1 })).rejects.toMatchObject({ code: 'bad_reply' });
    expect(calls.sent).not.toContain('page/act');
  });

  test('an error envelope becomes a PageError with the page’s code and message, bounded', async () => {
    const { tabs } = fakeTab(reply({ doc: 'doc-1', error: { code: 'stale', message: `Element [3] comes from an older reading.${' x'.repeat(2000)}` } }));
    const error = await failure(new TabAgent(tabs), (a) => a.request(1, { type: 'page/wait', timeoutMs: 10 }));
    expect(error?.code).toBe('stale');
    expect(error?.message).toMatch(/^Element \[3\] comes from an older reading/);
    expect(error!.message.length).toBeLessThanOrEqual(500);
  });

  test('an error envelope that is itself malformed is refused', async () => {
    const { tabs } = fakeTab(reply({ doc: 'doc-1', error: { code: 7 } }));
    await expect(new TabAgent(tabs).request(1, { type: 'page/wait', timeoutMs: 10 })).rejects.toMatchObject({ code: 'bad_reply' });
  });
});

describe('one session per tab and document', () => {
  test('the first request checks the tab and injects; the second goes straight to the agent', async () => {
    const { tabs, calls } = fakeTab();
    const agent = new TabAgent(tabs);
    await agent.request(1, { type: 'page/read', options: {} });
    expect(calls).toMatchObject({ get: 1, executeScript: 1, sent: ['page/ping', 'page/read'] });
    await agent.request(1, { type: 'page/read', options: {} });
    await agent.request(1, { type: 'page/wait', timeoutMs: 10 });
    expect(calls).toMatchObject({ get: 1, executeScript: 1, sent: ['page/ping', 'page/read', 'page/read', 'page/wait'] });
  });

  test('requests made together open one session', async () => {
    const { tabs, calls } = fakeTab();
    const agent = new TabAgent(tabs);
    await Promise.all([agent.request(1, { type: 'page/read', options: {} }), agent.request(1, { type: 'page/wait', timeoutMs: 10 })]);
    expect(calls).toMatchObject({ get: 1, executeScript: 1 });
  });

  test('after a navigation the tab is checked again and the new document gets the agent', async () => {
    const { tabs, calls, navigate } = fakeTab();
    const agent = new TabAgent(tabs);
    await agent.request(1, { type: 'page/read', options: {} });
    navigate('https://shop.example/cart');
    agent.onDocumentChange(1);
    await agent.request(1, { type: 'page/read', options: {} });
    expect(calls).toMatchObject({ get: 2, executeScript: 2, sent: ['page/ping', 'page/read', 'page/ping', 'page/read'] });
  });

  test('a navigation to a restricted page is refused before anything is injected', async () => {
    const { tabs, calls, navigate } = fakeTab();
    const agent = new TabAgent(tabs);
    await agent.request(1, { type: 'page/read', options: {} });
    navigate('about:addons');
    agent.onDocumentChange(1);
    await expect(agent.request(1, { type: 'page/read', options: {} })).rejects.toMatchObject({ code: 'restricted_page' });
    expect(calls.executeScript).toBe(1);
  });

  test('a request that reaches no agent (a navigation not yet heard of) re-injects and is sent again, once', async () => {
    const { tabs, calls, navigate } = fakeTab();
    const agent = new TabAgent(tabs);
    await agent.request(1, { type: 'page/read', options: {} });
    navigate();
    const read = await agent.request(1, { type: 'page/read', options: {} });
    expect(read.snapshot.nonce).toBe('nonce-1');
    expect(calls).toMatchObject({ get: 2, executeScript: 2, sent: ['page/ping', 'page/read', 'page/read', 'page/ping', 'page/read'] });
  });

  test('a document that still has no agent after injecting gives page_unreachable', async () => {
    const { tabs } = fakeTab();
    tabs.executeScript = async () => [];
    await expect(new TabAgent(tabs).request(1, { type: 'page/read', options: {} })).rejects.toMatchObject({ code: 'page_unreachable' });
  });

  test('a closed tab gives tab_closed, whether or not the close was heard of', async () => {
    const { tabs, page } = fakeTab();
    const agent = new TabAgent(tabs);
    await agent.request(1, { type: 'page/read', options: {} });
    page.closed = true;
    await expect(agent.request(1, { type: 'page/read', options: {} })).rejects.toMatchObject({ code: 'tab_closed' });
    agent.forget(1);
    await expect(agent.request(1, { type: 'page/read', options: {} })).rejects.toMatchObject({ code: 'tab_closed' });
  });

  test('a reply from another document (the page replaced its own) drops the old snapshot', async () => {
    let doc = 'doc-1';
    const { tabs, calls } = fakeTab({
      answer: (request) =>
        request.type === 'page/read'
          ? { doc, value: { snapshot: snapshot('nonce-1'), rendered: '', mutations: 0 } }
          : request.type === 'page/wait'
            ? { doc, value: { message: 'It is already on the page.' } }
            : { doc, value: { ref: { snapshot: '', doc, origin: 'https://shop.example' } } },
    });
    const inspected: string[] = [];
    const send = tabs.sendMessage;
    tabs.sendMessage = async (tab, message, options) => {
      if ((message as ContentRequest).type === 'page/inspect') inspected.push((message as { snapshot: string }).snapshot);
      return send(tab, message, options);
    };
    const agent = new TabAgent(tabs);
    await agent.request(1, { type: 'page/read', options: {} });
    await agent.inspect(1, { tool: 'click', args: { id: 1 } });
    doc = 'doc-2';
    await agent.request(1, { type: 'page/wait', timeoutMs: 10 });
    await agent.inspect(1, { tool: 'click', args: { id: 1 } });
    expect(inspected).toEqual(['nonce-1', '']);
    expect(calls.get).toBe(1);
  });

  test('verifyEveryRequest (the old behaviour, kept for the bench) checks and pings before each request', async () => {
    const { tabs, calls } = fakeTab();
    const agent = new TabAgent(tabs, { verifyEveryRequest: true });
    await agent.request(1, { type: 'page/read', options: {} });
    await agent.request(1, { type: 'page/read', options: {} });
    expect(calls).toMatchObject({ get: 2, executeScript: 1, sent: ['page/ping', 'page/read', 'page/ping', 'page/read'] });
  });
});
