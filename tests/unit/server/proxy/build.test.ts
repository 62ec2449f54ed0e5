// Building the SPA: a build with keys in the environment holds none of them, and start rebuilds only when stale.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStaleness, ensureBuilt } from '../../../../src/server/proxy/build';
import { createLogger } from '../../../../src/server/proxy/log';
import { uniqueSecret } from './helpers';

const ROOT = resolve(__dirname, '../../../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('a build with keys in the environment', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'workbench-build-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('holds no key in any output file', { timeout: 240_000 }, async () => {
    const markers = {
      EVAL_API_KEY: uniqueSecret('direct-key-marker'),
      EVAL_GATEWAY_KEY: uniqueSecret('gateway-key-marker'),
      REFERENCE_API_KEY: uniqueSecret('reference-key-marker'),
      VITE_EVAL_API_KEY: uniqueSecret('vite-prefixed-marker'),
    };
    const saved = Object.fromEntries(Object.keys(markers).map((k) => [k, process.env[k]]));
    Object.assign(process.env, markers, { EVAL_BASE_URL: 'https://api.example.com' });
    const lines: string[] = [];
    try {
      const built = await ensureBuilt({
        root: ROOT,
        outDir,
        force: true,
        logger: createLogger({ secrets: [], write: (_level, line) => lines.push(line) }),
      });
      expect(built).toBe(true);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      delete process.env.EVAL_BASE_URL;
    }
    const files = filesUnder(outDir);
    // The scan below must look at a real build: the page and its script bundle.
    expect(files.some((f) => f.endsWith('index.html'))).toBe(true);
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const marker of Object.values(markers))
        expect(bytes.includes(marker), `${file} holds ${marker}`).toBe(false);
    }
    expect(lines.join('\n')).toMatch(/Building the workbench \(a build was asked for\)/);
    // Bug: under vitest (NODE_ENV=test) the build bundled React's development runtime.
    expect(process.env.NODE_ENV).toBe('test');
    const devRuntime = files.filter((f) => f.endsWith('.js') && readFileSync(f, 'utf8').includes('jsxDEV'));
    expect(devRuntime).toEqual([]);
  });
});

describe('buildStaleness', () => {
  const tree = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'workbench-stale-'));
    mkdirSync(join(root, 'src/app'), { recursive: true });
    mkdirSync(join(root, 'src/server'), { recursive: true });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    writeFileSync(join(root, 'src/app/App.tsx'), 'export {}');
    writeFileSync(join(root, 'src/server/start.ts'), 'export {}');
    writeFileSync(join(root, 'dist/index.html'), '<!doctype html>');
    const old = new Date(Date.now() - 60_000);
    for (const f of ['index.html', 'src/app/App.tsx', 'src/server/start.ts'])
      utimesSync(join(root, f), old, old);
    return root;
  };

  it('is fresh when dist/ is newer than every source', () => {
    const root = tree();
    expect(buildStaleness(root, join(root, 'dist'))).toBeNull();
  });

  it('is stale when there is no build', () => {
    const root = tree();
    rmSync(join(root, 'dist/index.html'));
    expect(buildStaleness(root, join(root, 'dist'))).toBe('dist/ has no build yet');
  });

  it('is stale when an app source changed after the build, naming the file', () => {
    const root = tree();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/app/App.tsx'), later, later);
    expect(buildStaleness(root, join(root, 'dist'))).toBe('src/app/App.tsx changed since the last build');
  });

  it('ignores server sources, which never reach the bundle', () => {
    const root = tree();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/server/start.ts'), later, later);
    expect(buildStaleness(root, join(root, 'dist'))).toBeNull();
  });
});
