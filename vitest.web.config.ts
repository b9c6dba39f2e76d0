import { defineConfig } from 'vitest/config';

/** npm run test:web: the web app in Debian's Chromium (/usr/bin/chromium), driven by playwright-core. */
export default defineConfig({
  test: {
    include: ['test/web/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // One browser at a time: screenshots and the 2 s live-update bound do not compete.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
