/**
 * An upgrade in real Firefox: extension storage holds what the version before the store layer
 * wrote (no `schemaVersion`; the dump its own stores made), the extension reloads, and every
 * kind of state is there: the open chat, the draft, the chats list, the rules, the sensitive
 * sites, the audit log and the settings with their key.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AuditEntry } from '../../src/shared/permissions';
import type { ConversationSummary } from '../../src/shared/protocol';
import type { Settings } from '../../src/shared/settings';
import { launchFirefox, waitFor, type FoxAgentBrowser } from '../support/firefox';
import { portRequest, SidebarDriver } from '../support/sidebar-driver';

const dump = JSON.parse(readFileSync(path.resolve(__dirname, '../fixtures/storage/v0-storage-dump.json'), 'utf8')) as Record<string, unknown>;

type Local = { get(k: null): Promise<Record<string, unknown>>; set(v: object): Promise<void>; clear(): Promise<void> };

let ff: FoxAgentBrowser;
let sidebar: SidebarDriver;

beforeAll(async () => {
  ff = await launchFirefox();
  sidebar = await SidebarDriver.open(ff);
});
afterAll(() => ff?.close());

test('state the previous version stored loads after the extension reloads with the store layer', async () => {
  // Extension storage as the previous version left it.
  await sidebar.page.evaluate(async (d) => {
    const area = (globalThis as unknown as { browser: { storage: { local: Local } } }).browser.storage.local;
    await area.clear();
    await area.set(d);
  }, dump);
  await sidebar.page.evaluate(() => void (globalThis as unknown as { browser: { runtime: { reload(): void } } }).browser.runtime.reload());
  await waitFor(async () => sidebar.page.isClosed() || !(await sidebar.page.evaluate(() => document.querySelector('[data-testid="composer"]') !== null).catch(() => false)), { what: 'the old sidebar page to go' });
  sidebar = await SidebarDriver.open(ff);

  // The chat that was open, whole, and the text that was being typed.
  await waitFor(async () => (await sidebar.userTexts()).includes('Book the 9:40 train to Lyon'), { what: 'the open chat' });
  expect(await sidebar.assistantTexts()).toContain('Booked the 9:40 to Lyon.');
  expect(await sidebar.page.$$('[data-testid="tool-row"]')).toHaveLength(1);
  await waitFor(async () => (await sidebar.composerValue()) === 'half-typed thought about Lyon', { what: 'the draft in the composer' });

  // What the options page and the drawer list, over the sidebar's own port.
  const ask = async <T>(body: object) => (await portRequest(sidebar.page, body)).value as T;
  expect((await ask<ConversationSummary[]>({ type: 'conversation/list' })).map((c) => c.title)).toEqual(['Pizza', 'Train to Lyon']);
  expect(await ask({ type: 'policies/list' })).toEqual(dump.permissionPolicies);
  expect(await ask({ type: 'sensitive-sites/get' })).toEqual(['https://bank.example', 'https://mail.example']);
  const audit = await ask<AuditEntry[]>({ type: 'audit/list' });
  expect(audit).toHaveLength(60);
  expect(audit.map((e) => e.id)).toEqual(Array.from({ length: 60 }, (_, i) => `e${59 - i}`));
  expect((await ask<Settings>({ type: 'settings/get' })).provider).toMatchObject({ kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', model: 'qwen3:4b', apiKey: '' });

  // In storage: the version recorded, the key kept with the URL it is bound to.
  const stored = await sidebar.page.evaluate(() => (globalThis as unknown as { browser: { storage: { local: Local } } }).browser.storage.local.get(null));
  expect(stored.schemaVersion).toBe(1);
  expect(stored.settings).toEqual(dump.settings);
});
