#!/usr/bin/env node
// Installs what is missing, builds FoxAgent and starts Firefox with it loaded (web-ext run),
// rebuilding on change. Without a display it says how to run Firefox headless instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && !process.env.MOZ_HEADLESS;
if (noDisplay) {
  console.error('✖ There is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set), so Firefox cannot open a window.');
  console.error('  Run it headless instead:  MOZ_HEADLESS=1 npm start');
  console.error('  (Firefox then runs with FoxAgent loaded but shows nothing; `npm test` drives it headless too.)');
  process.exit(1);
}
ensureDependencies(root);

const firefox = [process.env.FIREFOX_BIN, '/usr/bin/firefox-esr', '/usr/bin/firefox', '/Applications/Firefox.app/Contents/MacOS/firefox']
  .filter(Boolean)
  .find((p) => existsSync(p));

if (spawnSync('node', ['build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const args = ['web-ext', 'run', '--source-dir', 'dist', '--target', 'firefox-desktop', '--start-url', 'about:blank', ...process.argv.slice(2)];
if (firefox) args.push('--firefox', firefox);
const child = spawn('npx', args, { cwd: root, stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
