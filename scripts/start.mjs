#!/usr/bin/env node
// Builds FoxAgent and starts Firefox with it loaded (web-ext run), rebuilding on change.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const firefox = [process.env.FIREFOX_BIN, '/usr/bin/firefox-esr', '/usr/bin/firefox', '/Applications/Firefox.app/Contents/MacOS/firefox']
  .filter(Boolean)
  .find((p) => existsSync(p));

if (spawnSync('node', ['build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);
const args = ['web-ext', 'run', '--source-dir', 'dist', '--target', 'firefox-desktop', '--start-url', 'about:blank', ...process.argv.slice(2)];
if (firefox) args.push('--firefox', firefox);
const child = spawn('npx', args, { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
