/**
 * Loaded into an extension page by the vision bench: takes screenshots of a real tab with the
 * background's own `browser.tabs`, two ways in alternation: `captureVisibleTab` alone (JPEG, the
 * browser's own size), and the whole `look` path (the page agent's marks, the capture at the size
 * sent, marks drawn and encoded with OffscreenCanvas). Leaves a function the bench calls.
 */
import type { Tabs } from 'webextension-polyfill';
import { TabAgent, type TabsApi } from '../../src/background/page/tab-agent';
import { captureWithMarks, type CaptureTabs } from '../../src/background/vision/capture';

type BenchTabs = Pick<Tabs.Static, 'get'> & TabsApi & CaptureTabs;

interface ExtensionGlobal {
  browser: { runtime: { getBackgroundPage(): Promise<Window & { browser: { tabs: BenchTabs } }> } };
}

export interface VisionResult {
  captureOnly: { ms: number[]; bytes: number[] };
  look: { ms: number[]; bytes: number[]; marks: number; size: string; stages: { look: number[]; capture: number[]; encode: number[] } };
}

async function run(tabId: number, rounds: number, warmup: number): Promise<VisionResult> {
  const { browser } = globalThis as unknown as ExtensionGlobal;
  const tabs = (await browser.runtime.getBackgroundPage()).browser.tabs;
  const agent = new TabAgent(tabs);
  const { windowId } = await tabs.get(tabId);
  const result: VisionResult = { captureOnly: { ms: [], bytes: [] }, look: { ms: [], bytes: [], marks: 0, size: '', stages: { look: [], capture: [], encode: [] } } };
  const captureOnly = async () => {
    const started = performance.now();
    const url = await tabs.captureVisibleTab(windowId, { format: 'jpeg', quality: 70 });
    return { ms: performance.now() - started, bytes: Math.floor(((url.length - url.indexOf(',') - 1) * 3) / 4) };
  };
  const look = async () => {
    const started = performance.now();
    const shot = await captureWithMarks(tabId, { tabs, agent });
    return { ms: performance.now() - started, shot };
  };
  for (let i = 0; i < warmup + rounds; i++) {
    const order = i % 2 ? ['capture', 'look'] : ['look', 'capture'];
    for (const which of order) {
      if (which === 'capture') {
        const r = await captureOnly();
        if (i >= warmup) result.captureOnly.ms.push(r.ms), result.captureOnly.bytes.push(r.bytes);
      } else {
        const { ms, shot } = await look();
        if (i < warmup) continue;
        result.look.ms.push(ms);
        result.look.bytes.push(shot.image.bytes);
        result.look.marks = shot.look.marks.length;
        result.look.size = `${shot.image.width}×${shot.image.height}`;
        for (const stage of ['look', 'capture', 'encode'] as const) result.look.stages[stage].push(shot.timings[stage]);
      }
    }
  }
  return result;
}

(globalThis as unknown as { __foxagentVision: typeof run }).__foxagentVision = run;
