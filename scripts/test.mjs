#!/usr/bin/env node
// The one test command: dependencies installed if missing, then typecheck, the boundary lint, build, web-ext lint, unit tests, the
// timing tests alone, then end-to-end tests in real Firefox. It ends with the plain line `N passed, N failed` counting every test that ran.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
ensureDependencies(root);
const reports = path.join(root, 'test-artifacts');
mkdirSync(reports, { recursive: true });
const extraArgs = process.argv.slice(2);

function run(title, command, args, options = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  console.log(`  ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return result.status === 0;
}

function jest(project, extra) {
  const out = path.join(reports, `jest-${project}.json`);
  const ok = run(`${project} tests`, 'npx', ['jest', '--selectProjects', project, '--json', `--outputFile=${out}`, ...extra, ...extraArgs]);
  if (!existsSync(out)) return { ok, passed: 0, failed: ok ? 0 : 1 };
  const report = JSON.parse(readFileSync(out, 'utf8'));
  // A suite that fails to load counts as one failure: it hid every test inside it.
  const brokenSuites = report.numRuntimeErrorTestSuites ?? 0;
  return { ok, passed: report.numPassedTests, failed: report.numFailedTests + brokenSuites };
}

function firefoxFound() {
  const candidates = [process.env.FIREFOX_BIN, '/usr/bin/firefox-esr', '/usr/bin/firefox'].filter(Boolean);
  return candidates.some((p) => existsSync(p));
}

const checks = [
  run('typecheck', 'npx', ['tsc', '--noEmit', '-p', '.']),
  run('boundaries (eslint)', 'npx', ['eslint', 'src']),
  run('build', 'node', ['build.mjs']),
];
checks.push(run('web-ext lint', 'node', ['scripts/lint-extension.mjs']));

const unit = jest('unit', []);
// The timing tests run alone, after the rest: other suites running beside them would be what they measure.
const timing = jest('timing', ['--runInBand']);
let e2e;
if (!firefoxFound()) {
  console.error('\n✖ Firefox ESR was not found, so the end-to-end tests cannot run (they are not optional).');
  console.error('  Install it with `sudo apt-get install firefox-esr`, or set FIREFOX_BIN to a Firefox binary.');
  e2e = { ok: false, passed: 0, failed: 1 };
} else {
  e2e = jest('e2e', ['--runInBand']);
}

const passed = unit.passed + timing.passed + e2e.passed;
const failed = unit.failed + timing.failed + e2e.failed;
const allOk = checks.every(Boolean) && unit.ok && timing.ok && e2e.ok && failed === 0;
if (!checks.every(Boolean)) console.error('\n✖ typecheck, build or lint failed (see above).');
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(allOk ? 0 : 1);
