/**
 * The cost of a screenshot for the model, in real Firefox ESR on a 1280×800 viewport: the whole
 * `look` path (the page agent's marks, `captureVisibleTab` at the size sent, marks drawn on a copy
 * and JPEG-encoded with OffscreenCanvas) against `captureVisibleTab` alone, alternating in the same
 * run; and the bytes each sends.
 */
import { fmt, printTable, stats } from './lib';
import { inFirefox } from './support/in-firefox';
import type { VisionResult } from './support/vision-in-extension';

const ROUNDS = 30;
const WARMUP = 3;

// A shop drawn on a canvas under a toolbar of 40 real buttons: a picture to encode and marks to draw.
const buttons = Array.from({ length: 40 }, (_, i) => `<button style="position:absolute;left:${20 + (i % 10) * 120}px;top:${560 + Math.floor(i / 10) * 50}px;width:110px;height:40px">Item ${i + 1}</button>`).join('');
const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Canvas shop</title><style>body{margin:0}</style></head><body>
<canvas id="c" width="1280" height="540"></canvas>${buttons}
<script>
  const ctx = document.getElementById('c').getContext('2d');
  for (let i = 0; i < 400; i++) { ctx.fillStyle = 'hsl(' + (i * 37) % 360 + ',60%,' + (30 + (i * 13) % 50) + '%)'; ctx.fillRect((i * 97) % 1240, (i * 53) % 500, 40 + (i % 7) * 10, 20 + (i % 5) * 8); }
  ctx.font = 'bold 28px sans-serif'; ctx.fillStyle = '#111'; ctx.fillText('Add to cart', 60, 120); ctx.fillText('Checkout', 360, 120);
</script></body></html>`;

async function main() {
  await inFirefox({ html: HTML, driver: 'vision-in-extension.ts' }, async ({ firefox, ext, pageUrl }) => {
    // The page is the active tab of the window, as captureVisibleTab needs.
    const page = await firefox.browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(pageUrl, { waitUntil: 'load' });
    const r = await ext.evaluate(
      async (u, rounds, warmup) => {
        const g = globalThis as unknown as {
          browser: { tabs: { query(q: object): Promise<{ id: number; url: string }[]> } };
          __foxagentVision: (tabId: number, r: number, w: number) => Promise<VisionResult>;
        };
        const tab = (await g.browser.tabs.query({})).find((t) => t.url === u);
        if (!tab) throw new Error(`no tab for ${u}`);
        return g.__foxagentVision(tab.id, rounds, warmup);
      },
      pageUrl,
      ROUNDS,
      WARMUP,
    );
    const kb = (bytes: number[]) => `${(stats(bytes).median / 1024).toFixed(0)} KB`;
    const row = (what: string, ms: number[], bytes?: number[]) => ({ what, 'time median': fmt(stats(ms).median), 'time p95': fmt(stats(ms).p95), 'bytes median': bytes ? kb(bytes) : '' });
    printTable(`Screenshots of a 1280×800 viewport in real Firefox, ${ROUNDS} of each after ${WARMUP} untimed, alternating in the same run`, [
      row('captureVisibleTab alone (JPEG 70, baseline)', r.captureOnly.ms, r.captureOnly.bytes),
      row(`look: marks + capture + draw + encode (${r.look.size}, ${r.look.marks} marks, JPEG 70)`, r.look.ms, r.look.bytes),
      row('  of which: page agent measures the marks', r.look.stages.look),
      row('  of which: captureVisibleTab at the size sent (JPEG 85)', r.look.stages.capture),
      row('  of which: decode, draw marks, encode (OffscreenCanvas)', r.look.stages.encode),
    ]);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
