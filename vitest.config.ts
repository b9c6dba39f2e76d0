import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The reliability suite runs on its own (npm run test:reliability), the browser tests too (npm run test:web).
    exclude: ['test/reliability/**', 'test/web/**', 'node_modules/**'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
