// Jest transformer: TypeScript/TSX to CommonJS with esbuild. Type checking is `tsc --noEmit`'s job.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const loader = filename.endsWith('.tsx') ? 'tsx' : filename.endsWith('.ts') ? 'ts' : 'js';
    const { code, map } = transformSync(source, {
      loader,
      format: 'cjs',
      target: 'node20',
      jsx: 'automatic',
      sourcemap: 'both',
      sourcefile: filename,
    });
    return { code, map };
  },
};
