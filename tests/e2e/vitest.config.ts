// End-to-end tests: the built app served by `npm start`, driven in Debian's Chromium through playwright-core.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'e2e',
    include: ['tests/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/harness/globalSetup.ts'],
    // A browser step can wait on a build, a server start or a chart; these are ceilings, not expectations.
    testTimeout: 60_000,
    hookTimeout: 240_000,
    // One file at a time in one worker: a browser and a server per file already fill a 2-core machine.
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
