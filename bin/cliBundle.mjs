// The command line as one prebuilt JavaScript file: tsx compiling the TypeScript at every start kept its loader, the
// compiled modules and their source maps resident (about 40 MB of each process's 200 MB budget, docs/scale-out.md).
// `npm install` builds it (the `prepare` script runs this file); the bin rebuilds it when a file it was built from has
// changed, so a checkout never runs stale code. Offline: esbuild is installed with tsx.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The checkout this file belongs to. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Where the command's bundle is built (git-ignored), and what it is built from. Two folders down, as src/cli/main.ts
 * is, so the checkout main.ts finds from its own place (`../..`, for .env.local) is the same in both.
 */
export const CLI_BUNDLE = {
  entry: join(ROOT, 'src/cli/main.ts'),
  outDir: join(ROOT, 'build/cli'),
};

const BUNDLE_FILE = 'main.mjs';
const STAMP_FILE = 'inputs.json';
/**
 * Files beside the bundled ones whose change calls for a build: an install or upgrade of dependencies (a package's own
 * files keep the times they were packed with), esbuild's reading of TypeScript, and how the bundle is built.
 */
const BUILD_MARKERS = [
  'package-lock.json',
  'node_modules/.package-lock.json',
  'tsconfig.json',
  'bin/cliBundle.mjs',
];

/** The bundle's path in `outDir`. */
export const bundleFile = (outDir) => join(outDir, BUNDLE_FILE);

/** Size and modification time of a file, or null when it is gone. */
function signature(file) {
  try {
    const s = statSync(file);
    return [s.size, s.mtimeMs];
  } catch {
    return null;
  }
}

/**
 * Whether the bundle in `outDir` was built from the files as they are now: every input (and build marker) has the
 * size and modification time it had at the build. 'missing' when there is no bundle or no record of its inputs.
 */
export function bundleState(outDir) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(outDir, STAMP_FILE), 'utf8'));
    statSync(bundleFile(outDir));
  } catch {
    return 'missing';
  }
  for (const [file, size, mtimeMs] of stamp.inputs) {
    const now = signature(file);
    if (now === null ? size !== null : now[0] !== size || now[1] !== mtimeMs) return 'stale';
  }
  return 'fresh';
}

/**
 * The bundle with every character outside ASCII written as a \u escape. esbuild escapes them in strings but leaves
 * comments and regular expressions as they are, and one such character makes V8 hold the whole 3 MB source in two
 * bytes a character. An escape means the same character in a regular expression, a comment and a string alike.
 */
export const asciiOnly = (text) =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Resolves esbuild: hoisted beside the other dependencies, else inside tsx, which depends on it. */
function esbuildModule() {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve('esbuild');
  } catch {
    return createRequire(require.resolve('tsx')).resolve('esbuild');
  }
}

/**
 * Builds the bundle of `entry` into `outDir` with esbuild: every package inlined (no resolution at start), ES module
 * output with a `require` for the CommonJS packages. The bundle and its record of inputs are each written under a
 * temporary name and renamed, so processes starting at once (shards, tests) never read half a file.
 */
export async function buildBundle({ entry, outDir, root = ROOT }) {
  const esbuild = await import(pathToFileURL(esbuildModule()).href);
  mkdirSync(outDir, { recursive: true });
  const temp = `.${process.pid}-${Date.now()}`;
  const out = join(outDir, `${BUNDLE_FILE}${temp}`);
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      outfile: out,
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // The ES module build of packages that ship both (jsonc-parser's CommonJS one requires files by computed name).
      mainFields: ['module', 'main'],
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      },
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = [
      ...Object.keys(result.metafile.inputs).map((file) => resolve(root, file)),
      ...BUILD_MARKERS.map((file) => join(root, file)),
    ].map((file) => [file, ...(signature(file) ?? [null, null])]);
    writeFileSync(out, asciiOnly(readFileSync(out, 'utf8')));
    renameSync(out, bundleFile(outDir));
    writeFileSync(join(outDir, `${STAMP_FILE}${temp}`), JSON.stringify({ inputs }));
    renameSync(join(outDir, `${STAMP_FILE}${temp}`), join(outDir, STAMP_FILE));
  } finally {
    rmSync(out, { force: true });
  }
  return bundleFile(outDir);
}

/**
 * The command's bundle, rebuilt first when it is missing or stale; null when it cannot be built (a read-only
 * checkout whose sources changed, esbuild missing), and the bin then runs the TypeScript through tsx as before. The
 * build runs in a child process, so its memory is never the run's.
 */
export function freshCliBundle() {
  const { outDir } = CLI_BUNDLE;
  if (bundleState(outDir) === 'fresh') return bundleFile(outDir);
  const built = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { stdio: 'ignore' });
  return built.status === 0 && bundleState(outDir) === 'fresh' ? bundleFile(outDir) : null;
}

// `node bin/cliBundle.mjs` (the `prepare` script): build the bundle now. A failure never fails `npm install`: the bin
// then runs through tsx, as it did before there was a bundle.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildBundle(CLI_BUNDLE);
  } catch (error) {
    process.stderr.write(
      `evaluate-workbench: the command's bundle was not built (${error instanceof Error ? error.message : String(error)}); it runs through tsx instead.\n`,
    );
  }
}
