/**
 * Loaded into an extension page by the Firefox page-messages bench: drives the real TabAgent and
 * PageReader with the background's own `browser.tabs` (so the page agent sees the background as
 * the sender, as in use), counting the calls, and leaves a function the bench calls.
 */
import type { Tabs } from 'webextension-polyfill';
import { PageCache } from '../../src/background/page/page-cache';
import { PageReader } from '../../src/background/page/page-reader';
import { TabAgent, type TabsApi } from '../../src/background/page/tab-agent';

interface ExtensionGlobal {
  browser: { tabs: Tabs.Static & TabsApi; runtime: { getBackgroundPage(): Promise<Window & { browser: { tabs: Tabs.Static & TabsApi } }> } };
}

export interface ModeResult {
  read: { ms: number[]; sendMessage: number; get: number };
  click: { ms: number[]; sendMessage: number; get: number };
}

type Mode = 'before' | 'after';
type Op = 'read' | 'click';

/** One TabAgent and reader over a counting view of the background's `browser.tabs`, for one tab. */
function setup(tabs: TabsApi, tabId: number, verifyEveryRequest: boolean) {
  const counts = { sendMessage: 0, get: 0 };
  const counting: TabsApi = {
    get: (id) => (counts.get++, tabs.get(id)),
    sendMessage: (id, message, options) => (counts.sendMessage++, tabs.sendMessage(id, message, options)),
    executeScript: (id, details) => tabs.executeScript(id, details),
  };
  const agent = new TabAgent(counting, { verifyEveryRequest });
  const reader = new PageReader(agent, new PageCache());
  const ops: Record<Op, () => Promise<void>> = {
    read: async () => {
      reader.invalidate(tabId);
      await reader.read(tabId, {}, 'bench');
    },
    click: async () => {
      const args = { id: 1 };
      await agent.inspect(tabId, { tool: 'click', args });
      await agent.act(tabId, args, { action: 'click', id: 1 });
      reader.invalidate(tabId);
      await reader.read(tabId, { maxTokens: 1200 }, 'bench');
    },
  };
  return { counts, ops };
}

/** Both modes, each in its own tab, alternating which goes first, `warmup` untimed rounds first. */
async function run(tabIds: Record<Mode, number>, rounds: number, warmup: number): Promise<Record<Mode, ModeResult>> {
  const { browser } = globalThis as unknown as ExtensionGlobal;
  const tabs = (await browser.runtime.getBackgroundPage()).browser.tabs;
  const modes = { before: setup(tabs, tabIds.before, true), after: setup(tabs, tabIds.after, false) };
  const empty = (): ModeResult => ({ read: { ms: [], sendMessage: 0, get: 0 }, click: { ms: [], sendMessage: 0, get: 0 } });
  const result: Record<Mode, ModeResult> = { before: empty(), after: empty() };
  // First contact (the tab check and the injection) is the same in both modes.
  for (const m of Object.values(modes)) await m.ops.read();
  for (const op of ['read', 'click'] as const) {
    for (let i = 0; i < warmup + rounds; i++) {
      for (const mode of i % 2 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const { counts, ops } = modes[mode];
        const before = { ...counts };
        const start = performance.now();
        await ops[op]();
        if (i < warmup) continue;
        result[mode][op].ms.push(performance.now() - start);
        result[mode][op].sendMessage += counts.sendMessage - before.sendMessage;
        result[mode][op].get += counts.get - before.get;
      }
    }
  }
  return result;
}

(globalThis as unknown as { __foxagentPageMessages: typeof run }).__foxagentPageMessages = run;
