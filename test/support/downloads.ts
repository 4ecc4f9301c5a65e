/**
 * Catches the files an extension page saves (blob URL + `<a download>` click) instead of letting
 * Firefox write them: `capture` before the user's click, then `files` returns name → content.
 */
import type { Page } from 'puppeteer-core';
import { waitFor } from './firefox';

type Saved = { saved: Record<string, Promise<string>> };

export async function captureDownloads(page: Page): Promise<void> {
  await page.evaluate(() => {
    const saved: Record<string, Promise<string>> = ((window as unknown as Saved).saved = {});
    const create = URL.createObjectURL.bind(URL);
    let last: Promise<string> | undefined;
    URL.createObjectURL = (blob: Blob) => ((last = blob.text()), create(blob));
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (last && this.download) saved[this.download] = last;
    };
  });
}

/** Waits until `count` files were saved; returns them by file name. */
export function downloadedFiles(page: Page, count: number): Promise<Record<string, string>> {
  return waitFor(
    () =>
      page.evaluate(async (n) => {
        const entries = await Promise.all(Object.entries((window as unknown as Saved).saved).map(async ([name, text]) => [name, await text] as const));
        return entries.length >= n ? Object.fromEntries(entries) : undefined;
      }, count),
    { what: `${count} saved files` },
  );
}
