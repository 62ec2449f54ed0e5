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

export default defineConfig(({ command }) => ({
  plugins: [react(), command === 'serve' && !process.env.VITEST && workbenchProxy()],
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 4096 },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['tests/component/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/helpers/setupDom.ts'],
        },
      },
    ],
  },
}));
