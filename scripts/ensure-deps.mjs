// Installs the project's dependencies (npm ci) when they are missing or older than the lockfile,
// so `npm start` and `npm test` work on a fresh clone and do not reinstall when nothing changed.
// Uses Node's own modules only: it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** npm writes this file at the end of every install: it stands for node_modules as installed. */
const INSTALLED = path.join('node_modules', '.package-lock.json');

export function dependenciesCurrent(root) {
  const installed = path.join(root, INSTALLED);
  if (!existsSync(installed)) return false;
  const stamp = statSync(installed).mtimeMs;
  return ['package-lock.json', 'package.json'].every((file) => statSync(path.join(root, file)).mtimeMs <= stamp);
}

export function ensureDependencies(root) {
  if (dependenciesCurrent(root)) return;
  console.log('Installing dependencies (npm ci)…');
  const result = spawnSync('npm', ['ci'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error('✖ npm ci failed (see above). Check your network and Node.js version (20.19 or newer), then try again.');
    process.exit(1);
  }
}
