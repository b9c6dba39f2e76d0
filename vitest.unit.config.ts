import { defineConfig } from 'vitest/config';

// The application tests that start the embedded DynamoDB (dynalite): npm test runs them.
const ON_DYNALITE = ['groupCommit', 'idempotencyRecords', 'itemBudget', 'rotateKmsKey', 'twoProcesses'].map(
  (name) => `test/functions/application/${name}.test.ts`,
);

/**
 * npm run test:unit, the fast loop: the domain, and the application on the in-memory store;
 * no server, no socket, no type check (npm test does all of that).
 */
export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    projects: [
      {
        extends: true,
        test: {
          name: 'domain',
          include: ['test/domain/**/*.test.ts'],
          // Pure code, no mocks: one module graph per worker rather than one per file saves
          // importing zod and the rulesets again for each of ~70 files.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'application',
          include: ['test/functions/application/**/*.test.ts'],
          // Some of these mock the AWS SDK's clients: each file keeps its own modules.
          exclude: ON_DYNALITE,
        },
      },
    ],
  },
});
