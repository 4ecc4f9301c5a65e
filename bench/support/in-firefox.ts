/**
 * The setup the real-Firefox benches share: the built extension in Firefox ESR, one page of
 * theirs served on 127.0.0.1, and a driver script (a bench/support module) loaded into an
 * extension page, where it can use the background's own `browser.*`. Everything stops after.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Page } from 'puppeteer-core';
import { startFixtureServer } from '../../test/support/fixture-server';
import { launchFirefox, type FoxAgentBrowser } from '../../test/support/firefox';

const DIST_DIR = path.resolve(process.cwd(), process.env.FOXAGENT_DIST || 'dist');

export interface InFirefox {
  firefox: FoxAgentBrowser;
  /** The extension page the driver runs in. */
  ext: Page;
  /** The address of the served page (`shop.html`). */
  pageUrl: string;
}

export async function inFirefox<T>({ html, driver }: { html: string; driver: string }, run: (ctx: InFirefox) => Promise<T>): Promise<T> {
  if (!existsSync(path.join(DIST_DIR, 'manifest.json'))) throw new Error('Build first: npm run build');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'foxagent-bench-'));
  writeFileSync(path.join(dir, 'shop.html'), html);
  const site = await startFixtureServer({ dir });
  const firefox = await launchFirefox({ extensionDir: DIST_DIR });
  try {
    const ext = await firefox.openExtensionPage('options.html');
    const built = esbuild.buildSync({ entryPoints: [path.resolve(process.cwd(), 'bench/support', driver)], bundle: true, format: 'iife', write: false, target: 'firefox128' });
    await ext.evaluate(built.outputFiles[0]!.text);
    return await run({ firefox, ext, pageUrl: `${site.url}/shop.html` });
  } finally {
    await firefox.close().catch(() => undefined);
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
