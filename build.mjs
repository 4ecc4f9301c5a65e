// Builds the extension into dist/: esbuild for the background and content scripts, Vite for the
// sidebar and options pages, then the manifest, icons and locales. `--watch` rebuilds on change.
import { cp, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
// FOXAGENT_DIST builds elsewhere (several builds side by side); dist/ by default.
const dist = path.resolve(root, process.env.FOXAGENT_DIST || 'dist');
const watch = process.argv.includes('--watch');
const production = process.env.NODE_ENV !== 'development' && !watch;

const scripts = {
  entryPoints: {
    background: path.join(root, 'src/background/index.ts'),
    content: path.join(root, 'src/content/index.ts'),
    'page-agent': path.join(root, 'src/content/page-agent.ts'),
  },
  outdir: dist,
  bundle: true,
  format: 'iife',
  target: 'firefox140',
  minify: production,
  sourcemap: production ? false : 'inline',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
};

async function copyStatic() {
  await cp(path.join(root, 'manifest.json'), path.join(dist, 'manifest.json'));
  await cp(path.join(root, 'icons'), path.join(dist, 'icons'), { recursive: true });
  await cp(path.join(root, '_locales'), path.join(dist, '_locales'), { recursive: true });
}

async function main() {
  const started = Date.now();
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  await copyStatic();
  const pages = { configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn', mode: production ? 'production' : 'development' };
  if (watch) {
    const context = await esbuild.context(scripts);
    await context.watch();
    await viteBuild({ ...pages, build: { watch: {} } });
    console.log('Watching src/ — dist/ is rebuilt on every change.');
    return;
  }
  await esbuild.build(scripts);
  await viteBuild(pages);
  console.log(`Built dist/ in ${Date.now() - started} ms`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
