import { defineConfig } from 'vitest/config';

/** npm run test:reliability: load, duplicates, faults, crashes, fuzzing, authorization, limits. */
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/reliability/figures.setup.ts'],
    // One file at a time: each puts load on the machine, and figures must not compete.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
