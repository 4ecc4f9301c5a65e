/**
 * A screenshot of the working tab for the model: `tabs.captureVisibleTab` of that tab only (it
 * must be the one shown in its window), scaled so the long side is at most 1280 pixels, with
 * numbered marks on the interactive elements in view drawn on a copy, and the legend of those
 * marks. The tab agent remembers the screenshot's geometry, so a point the model reads from it
 * can be found on the page.
 */
import { say } from '../../shared/i18n';
import type { PageLook } from '../../shared/vision';
import { restrictionOf, restrictionSaid } from '../page/restricted';
import { PageError, type TabAgent } from '../page/tab-agent';
import { drawAndEncode, MAX_SIDE, type Encoded } from './draw';
import { layoutMarks } from './marks-layout';

export interface CaptureTabs {
  get(tabId: number): Promise<{ id?: number; url?: string; active?: boolean; windowId?: number }>;
  captureVisibleTab(windowId: number | undefined, options: { format: 'jpeg'; quality: number; scale?: number }): Promise<string>;
}

export interface CaptureDeps {
  tabs: CaptureTabs;
  agent: Pick<TabAgent, 'request' | 'rememberScreenshot'>;
  /** Paints and encodes; the bench and tests may pass their own. */
  encode?: typeof drawAndEncode;
}

export interface Capture {
  image: Encoded;
  look: PageLook;
  /** How long each stage took, in milliseconds: the page's measure, the browser's capture, marks and encoding. */
  timings: { look: number; capture: number; encode: number };
}

/** The quality captureVisibleTab is asked for; the copy with marks is encoded again at `JPEG_QUALITY`. */
const CAPTURE_QUALITY = 85;

export async function captureWithMarks(tabId: number, deps: CaptureDeps, now: () => number = () => performance.now()): Promise<Capture> {
  const tab = await deps.tabs.get(tabId).catch(() => {
    throw new PageError('tab_closed', 'That tab has been closed.');
  });
  if (restrictionOf(tab.url)) throw new PageError('restricted_page', `${restrictionOf(tab.url)} Browsers do not let extensions take screenshots of it either.`, restrictionSaid(tab.url));
  if (!tab.active) {
    throw new PageError('tab_not_visible', 'The tab you are working in is not the one shown in its window, so it cannot be seen. Call switch_tab with its id to bring it to the front, then look again.', say('pageProblemNotVisible'));
  }
  const t0 = now();
  const look = await deps.agent.request(tabId, { type: 'page/look' });
  const t1 = now();
  // Asked at the size it is sent: the browser scales as it paints, so nothing larger is decoded here.
  const scale = Math.min(look.view.dpr, MAX_SIDE / Math.max(look.view.width, look.view.height, 1));
  let url: string;
  try {
    url = await deps.tabs.captureVisibleTab(tab.windowId, { format: 'jpeg', quality: CAPTURE_QUALITY, scale });
  } catch (error) {
    throw new PageError('capture_refused', `The browser refused to take a screenshot of this page (${error instanceof Error ? error.message : String(error)}). Work from read_page instead.`, say('pageProblemCaptureRefused'));
  }
  const t2 = now();
  const image = await (deps.encode ?? drawAndEncode)(blobOf(url), (size) => layoutMarks(look.marks, look.view, size));
  deps.agent.rememberScreenshot(tabId, { image: { width: image.width, height: image.height }, view: look.view });
  return { image, look, timings: { look: t1 - t0, capture: t2 - t1, encode: now() - t2 } };
}

/** A data: URL's bytes, as the canvas reads them. */
function blobOf(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(',');
  const binary = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: dataUrl.slice(5, dataUrl.indexOf(';')) || 'image/jpeg' });
}
