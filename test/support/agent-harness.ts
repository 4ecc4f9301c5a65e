/**
 * The setup every agent e2e file shares: one Firefox with the extension, the scripted LLM server,
 * the fixture-page server and the sidebar, started before the file's tests and stopped after;
 * a fresh chat and a reset script before each test, and the test's tabs closed after it.
 */
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { launchFirefox, type FoxAgentBrowser } from './firefox';
import { startLlmServer, type LlmServer, type ModelSpec } from './llm-server';
import { configure, SidebarDriver, type ProviderPatch } from './sidebar-driver';

export interface AgentHarness {
  readonly ff: FoxAgentBrowser;
  readonly llm: LlmServer;
  readonly site: FixtureServer;
  readonly sidebar: SidebarDriver;
  /** Opens a page in a new (active) tab: a route on the fixture server ('/login.html') or a URL. */
  openPage(routeOrUrl: string): Promise<Page>;
  /** Closes `page` with the test's other tabs. */
  track(page: Page): Page;
}

export function agentHarness({ models, provider }: { models: ModelSpec[]; provider?: ProviderPatch }): AgentHarness {
  let started: { ff: FoxAgentBrowser; llm: LlmServer; site: FixtureServer; sidebar: SidebarDriver } | undefined;
  const tabs: Page[] = [];
  const get = () => {
    if (!started) throw new Error('The e2e harness has not started (use it inside tests).');
    return started;
  };

  beforeAll(async () => {
    const [ff, llm, site] = await Promise.all([
      launchFirefox(),
      startLlmServer({ models }),
      startFixtureServer({ dir: path.resolve(__dirname, '../fixtures/pages') }),
    ]);
    started = { ff, llm, site, sidebar: await SidebarDriver.open(ff) };
    if (provider) await configure(started.sidebar.page, { baseUrl: llm.url, ...provider });
  });
  afterAll(async () => {
    await started?.ff.close();
    await Promise.all([started?.llm.close(), started?.site.close()]);
  });
  beforeEach(async () => {
    get().llm.reset();
    await get().sidebar.newChat();
  });
  afterEach(async () => {
    await Promise.all(tabs.splice(0).map((t) => t.close().catch(() => undefined)));
  });

  const track = (page: Page) => (tabs.push(page), page);
  return {
    get ff() {
      return get().ff;
    },
    get llm() {
      return get().llm;
    },
    get site() {
      return get().site;
    },
    get sidebar() {
      return get().sidebar;
    },
    track,
    async openPage(routeOrUrl) {
      const page = track(await get().ff.browser.newPage());
      await page.goto(routeOrUrl.startsWith('/') ? `${get().site.url}${routeOrUrl}` : routeOrUrl);
      return page;
    },
  };
}
