import { EXTENSION_ORIGIN, launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';

let ff: FoxAgentBrowser;

beforeAll(async () => {
  ff = await launchFirefox();
});
afterAll(async () => {
  await ff?.close();
});

test('the sidebar page renders its chat with every label translated', async () => {
  const page = await ff.openExtensionPage('sidebar.html');
  await page.waitForSelector('[data-testid="composer"]');
  const labels = await page.$$eval('button, [aria-label], h1, textarea', (els) =>
    els.map((el) => el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.textContent || ''),
  );
  expect(labels.length).toBeGreaterThan(3);
  // An untranslated string renders as its key (camelCase, no spaces); none may remain.
  for (const label of labels) expect(label).not.toMatch(/^[a-z]+[A-Z]\w*$/);
  expect(await page.$eval('h1', (h) => h.textContent)).toBe('FoxAgent');
  await page.close();
});

test('the real sidebar panel opens on a user’s click and runs the extension page', async () => {
  await ff.openSidebarPanel();
  const probe = await ff.openExtensionPage('options.html');
  const sidebarHref = await waitFor(
    () =>
      probe.evaluate(() => {
        const [view] = (globalThis as unknown as { browser: { extension: { getViews(o: object): Window[] } } }).browser.extension.getViews({ type: 'sidebar' });
        return view?.document.querySelector('[data-testid="composer"]') ? view.location.href : '';
      }),
    { what: 'the sidebar panel to render the composer' },
  );
  expect(sidebarHref).toBe(`${EXTENSION_ORIGIN}/sidebar.html`);
  await probe.close();
});

test('the options page shows the provider settings with Ollama as the default', async () => {
  const page = await ff.openExtensionPage('options.html');
  await waitFor(() => page.$eval('[data-testid="base-url"]', (el) => (el as HTMLInputElement).value === 'http://127.0.0.1:11434'), {
    what: 'the default Ollama address',
  });
  expect(await page.$eval('[data-testid="provider-kind"]', (el) => (el as HTMLSelectElement).value)).toBe('ollama');
  await page.close();
});
