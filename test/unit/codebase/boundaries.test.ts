/**
 * The architecture's boundaries, enforced: content scripts and pages never import the
 * background; shared code imports nothing of ours but shared; the core imports no browser API.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), spec)) : spec;
}

const all = sources(SRC).map((file) => ({ file: path.relative(SRC, file), deps: imports(file).map((s) => resolved(file, s)) }));

test.each(all.filter((f) => /^(content|sidebar|options|ui)\//.test(f.file)).map((f) => [f.file, f.deps]))(
  '%s does not import the background',
  (_file, deps) => {
    expect((deps as string[]).filter((d) => d.startsWith('background'))).toEqual([]);
  },
);

test.each(all.filter((f) => f.file.startsWith('shared/')).map((f) => [f.file, f.deps]))('%s imports only shared code and libraries', (_file, deps) => {
  const ours = (deps as string[]).filter((d) => /^(background|content|sidebar|options|ui)\b/.test(d));
  expect(ours).toEqual([]);
});

const CORE = /^background\/(agent|llm|permissions|orchestrator|tools\/registry|intent|chat-service|conversations)/;
test.each(all.filter((f) => CORE.test(f.file)).map((f) => [f.file, f.deps]))('core module %s imports no browser API', (_file, deps) => {
  expect(deps as string[]).not.toContain('webextension-polyfill');
});

test('the always-injected content script imports no library', () => {
  const entry = all.find((f) => f.file === 'content/index.ts');
  expect(entry?.deps.filter((d) => !d.startsWith('.') && d !== 'webextension-polyfill')).toEqual([]);
  expect(readFileSync(path.join(SRC, 'content/index.ts'), 'utf8')).not.toMatch(/^import (?!type)/m);
});
