#!/usr/bin/env node
// `web-ext lint` on dist/: fails on any error, prints warnings. (React's bundle carries two
// innerHTML warnings and zod an eval warning that it never exercises under our CSP.)
import { spawnSync } from 'node:child_process';

const result = spawnSync('npx', ['web-ext', 'lint', '--source-dir', 'dist', '--output', 'json'], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(result.stdout);
} catch {
  console.error(result.stdout, result.stderr);
  process.exit(1);
}
for (const level of ['errors', 'warnings']) {
  for (const item of report[level]) console.log(`  ${level.slice(0, -1)}: ${item.code} ${item.file ?? ''} — ${item.message}`);
}
console.log(`  web-ext lint: ${report.errors.length} errors, ${report.warnings.length} warnings`);
process.exit(report.errors.length ? 1 : 0);
