// Builds the SPA with Vite's JS API when dist/ is missing or older than its sources. Reads the tree, writes dist/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Logger } from './log';

/** Files and folders whose changes change the bundle. src/server is left out: it never reaches the browser. */
const INPUTS = [
  'index.html',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'public',
  'src',
];
const SKIPPED = new Set(['src/server']);

/** The newest modification time (ms) under `path`, skipping SKIPPED; 0 when nothing is there. */
function newestMtime(root: string, path: string): { mtimeMs: number; file: string } {
  const full = join(root, path);
  if (!existsSync(full) || SKIPPED.has(path)) return { mtimeMs: 0, file: path };
  const stat = statSync(full);
  if (!stat.isDirectory()) return { mtimeMs: stat.mtimeMs, file: path };
  let newest = { mtimeMs: 0, file: path };
  for (const entry of readdirSync(full)) {
    const found = newestMtime(root, join(path, entry));
    if (found.mtimeMs > newest.mtimeMs) newest = found;
  }
  return newest;
}

/** Why dist/ must be (re)built, in a few words, or null when it is up to date. */
export function buildStaleness(root: string, outDir: string): string | null {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return `${relative(root, outDir) || outDir}/ has no build yet`;
  const built = statSync(index).mtimeMs;
  for (const input of INPUTS) {
    const newest = newestMtime(root, input);
    if (newest.mtimeMs > built) return `${newest.file} changed since the last build`;
  }
  return null;
}

/** Builds the SPA into `outDir` when stale (or always with `force`); resolves to whether it built. */
export async function ensureBuilt(options: {
  root: string;
  outDir: string;
  logger: Logger;
  force?: boolean;
}): Promise<boolean> {
  const reason = options.force ? 'a build was asked for' : buildStaleness(options.root, options.outDir);
  if (reason === null) return false;
  options.logger.info(`Building the workbench (${reason})...`);
  const started = Date.now();
  // Loaded only when needed: a fresh dist/ starts without loading the bundler.
  const { build } = await import('vite');
  // NOTE: a NODE_ENV inherited from a test runner ('test') would bundle React's development build.
  const inherited = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: options.root,
      configFile: join(options.root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir: options.outDir, emptyOutDir: true },
    });
  } finally {
    if (inherited === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = inherited;
  }
  options.logger.info(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return true;
}
