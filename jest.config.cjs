// Two projects: fast unit tests (Node or jsdom per file) and end-to-end tests in real Firefox.
const transform = { '^.+\\.(t|j)sx?$': '<rootDir>/test/support/esbuild-transform.cjs' };
const transformIgnorePatterns = ['/node_modules/(?!(@mozilla/readability)/)'];

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts?(x)'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      transform,
      transformIgnorePatterns,
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-setup.ts'],
    },
  ],
};
