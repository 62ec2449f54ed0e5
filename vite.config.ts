/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig, runnerImport } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import type * as VitePlugin from './src/server/vitePlugin';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The key-holding proxy, for `npm run dev` only: a build must never read keys, and vitest has no use for it. Loaded
 * through Vite's module runner so this config imports no TypeScript source of its own.
 */
async function workbenchProxy(): Promise<Plugin> {
  const { module } = await runnerImport<typeof VitePlugin>(
    fileURLToPath(new URL('./src/server/vitePlugin.ts', import.meta.url)),
  );
  return module.workbenchProxy(root);
}

/**
 * Monaco's JSON language imports `internal/common/workers.js` for its worker factory, and that module imports every
 * editor contribution (about 400 kB gzip the workbench never uses). Point it at our factory, which registers only the
 * contributions our editors use. The specifier is relative inside monaco-editor, so match it by its tail.
 */
const monacoWorkerFactory = {
  find: /^(?:\.\.\/)+internal\/common\/workers\.js$/,
  replacement: fileURLToPath(new URL('./src/app/editor/monacoWebWorker.ts', import.meta.url)),
};

export default defineConfig(({ command }) => ({
  plugins: [react(), command === 'serve' && !process.env.VITEST && workbenchProxy()],
  resolve: { alias: [monacoWorkerFactory] },
  // The dev server pre-bundles monaco-editor with Rolldown, which does not read resolve.alias: same swap there.
  optimizeDeps: {
    rolldownOptions: {
      plugins: [
        {
          name: 'monaco-worker-factory',
          resolveId: (source: string) =>
            monacoWorkerFactory.find.test(source) ? monacoWorkerFactory.replacement : null,
        },
      ],
    },
  },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 4096 },
  test: {
    // A ceiling, not an expectation: a component test that renders charts or waits on the reference can pass 5 s on a
    // loaded 2-core machine. Speed is measured by `npm run bench`, never by a test's time.
    testTimeout: 20_000,
    // Test files share a worker's modules (isolate: false): importing the app and the server once per worker instead
    // of once per file more than halves `npm test`. A file that replaces a module with vi.mock cannot share it, so
    // it is named *.mocked.test.ts(x) (eslint.config.js enforces the name) and runs alone in its own module graph.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          exclude: ['**/*.mocked.test.ts'],
          environment: 'node',
          setupFiles: ['tests/helpers/setupIndexedDb.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          exclude: ['**/*.mocked.test.tsx'],
          environment: 'jsdom',
          setupFiles: [
            'tests/helpers/setupIndexedDb.ts',
            'tests/helpers/setupDom.ts',
            'tests/helpers/setupSharedModules.ts',
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-mocked',
          include: ['tests/unit/**/*.mocked.test.ts'],
          environment: 'node',
          setupFiles: ['tests/helpers/setupIndexedDb.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'component-mocked',
          include: ['tests/component/**/*.mocked.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/helpers/setupIndexedDb.ts', 'tests/helpers/setupDom.ts'],
        },
      },
    ],
  },
}));
