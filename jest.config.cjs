// Two projects: fast unit tests (Node or jsdom per file) and end-to-end tests in real Firefox.
const transform = { '^.+\\.(t|j)sx?$': '<rootDir>/test/support/esbuild-transform.cjs' };
const transformIgnorePatterns = ['/node_modules/(?!(@mozilla/readability)/)'];
const { corpusDir } = require('./test/support/corpus.cjs');
// Suites that read the real-world page corpus beside the project; skipped, with one line saying
// so, when a clone stands alone (CI requires the corpus).
const corpus = corpusDir('the real-page tests (reader, long-page questions)');
const corpusSuites = corpus ? [] : ['<rootDir>/test/unit/dom-reader/readability-pages.test.ts'];
const corpusE2e = corpus ? [] : ['<rootDir>/test/e2e/long-pages.test.ts'];

// Suites whose assertions are timings: run apart from the rest (scripts/test.mjs, `npm run test:unit`).
const timingSuites = ['<rootDir>/test/unit/tool-protocol/linear-time.test.ts'];

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'],
      testPathIgnorePatterns: ['/node_modules/', ...corpusSuites, ...timingSuites],
      transform,
      transformIgnorePatterns,
    },
    {
      // Tests that time work against absolute bounds, run alone (--runInBand) so no other suite shares the CPU with them.
      displayName: 'timing',
      testEnvironment: 'node',
      testMatch: timingSuites,
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...corpusE2e],
      transform,
      transformIgnorePatterns,
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
  ],
};
