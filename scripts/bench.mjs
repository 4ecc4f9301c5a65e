#!/usr/bin/env node
// `npm run bench`: bundles bench/*.bench.ts with esbuild and runs each in Node, in order.
// Figures are medians and p95, each next to a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'node_modules/.cache/foxagent-bench');
mkdirSync(out, { recursive: true });
const only = process.argv[2];
const files = readdirSync(path.join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();

let failed = false;
for (const file of files) {
  const bundle = path.join(out, file.replace(/\.ts$/, '.cjs'));
  await esbuild.build({
    entryPoints: [path.join(root, 'bench', file)],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  console.log(`\n# ${file}`);
  const result = spawnSync(process.execPath, ['--expose-gc', bundle], { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_PATH: path.join(root, 'node_modules') } });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
