// The real-world page corpus lives beside the project (../shared/fixtures/readability-pages), not
// in it. A clone on its own runs without it: the suites that need it say so in one line and the
// rest runs. With FOXAGENT_REQUIRE_CORPUS=1 (CI sets it) a missing corpus is an error.
const { existsSync } = require('node:fs');
const path = require('node:path');

const CORPUS_DIR = path.resolve(__dirname, '../../../shared/fixtures/readability-pages');

/** The corpus folder, or undefined (after one clear line) when it is absent and not required. */
function corpusDir(what) {
  if (existsSync(CORPUS_DIR)) return CORPUS_DIR;
  const line = `The real-world page corpus (../shared/fixtures/readability-pages beside the project) is missing, so ${what} cannot run. Check it out beside the project to run them.`;
  if (process.env.FOXAGENT_REQUIRE_CORPUS === '1') throw new Error(`${line} (FOXAGENT_REQUIRE_CORPUS=1 requires it.)`);
  console.warn(`⚠ ${line}`);
  return undefined;
}

module.exports = { CORPUS_DIR, corpusDir };
