/**
 * The previous release's text tool-call parser and stream filter, for benches that compare against
 * it in the same run: `src/background/llm/tool-protocol/` as of commit `a1739bd`, taken from git
 * into node_modules/.cache and bundled with esbuild. A clone without that commit gets one clear
 * line, and the benches measure the current code alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';

export const PREVIOUS_RELEASE = 'a1739bd';

/** The previous release's API: tools by name only. */
export interface PreviousToolProtocol {
  parseToolCalls(text: string, toolNames: readonly string[]): { calls: { name: string; arguments: Record<string, unknown> }[]; text: string };
  createToolMarkupFilter(toolNames: readonly string[]): { push(delta: string): string; flush(): string; takeRetraction(): boolean };
}

let loaded: PreviousToolProtocol | null | undefined;

/** The previous release's tool protocol, or undefined (after one line saying why) when the clone lacks it. */
export function previousRelease(): PreviousToolProtocol | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  const root = process.cwd();
  const run = (args: string[]) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    run(['cat-file', '-e', `${PREVIOUS_RELEASE}^{commit}`]);
  } catch {
    console.warn(`⚠ The previous release (commit ${PREVIOUS_RELEASE}) is not in this clone, so there is nothing to compare against: fetch the full history to see both.`);
    loaded = null;
    return undefined;
  }
  const dir = path.join(root, 'node_modules/.cache/foxagent-bench/previous-release');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = run(['archive', '--format=tar', PREVIOUS_RELEASE, 'src/background/llm/tool-protocol']);
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const entry = path.join(dir, 'entry.ts');
  writeFileSync(entry, "export { parseToolCalls } from './src/background/llm/tool-protocol/parse';\nexport { createToolMarkupFilter } from './src/background/llm/tool-protocol/stream-filter';\n");
  const bundle = path.join(dir, 'previous.cjs');
  esbuild.buildSync({ entryPoints: [entry], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
  loaded = createRequire(__filename)(bundle) as PreviousToolProtocol;
  return loaded;
}
