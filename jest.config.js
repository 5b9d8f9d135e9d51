/** Native ESM TypeScript through swc; every test talks to real PostgreSQL, Redis and a bus. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2024' } }],
  },
  testMatch: [
    '<rootDir>/{proto,services,gateway,scripts,k8s,tools}/**/test/**/*.test.ts',
    '<rootDir>/e2e/api/**/*.test.ts',
    '<rootDir>/e2e/browser/**/*.test.ts',
    '<rootDir>/frontends/*/test/**/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/.data/'],
  // Generous: a suite starting the whole system on a busy 2-core machine can take most of a minute in `beforeAll`.
  testTimeout: 60000,
  maxWorkers: 2,
};
