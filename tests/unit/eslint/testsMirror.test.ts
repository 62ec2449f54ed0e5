// Unit tests mirror the source folder by folder: tests/unit/core/trust holds the tests of src/core/trust, so a
// reader finds a module's tests by its path. A test folder that names no source folder (a straggler, or a folder
// left behind by a move) fails here with its name; a planted one shows the check finds it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Every folder under `dir`, as paths relative to it. */
function folders(dir: string, under = ''): string[] {
  return readdirSync(path.join(dir, under), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const rel = path.join(under, e.name);
      return [rel, ...folders(dir, rel)];
    });
}

/**
 * The folders of `root`/tests/unit with no folder of the same path in src, nor (for a tool's own tests, such as
 * eslint/) at the root.
 */
function unmirrored(root: string): string[] {
  return folders(path.join(root, 'tests/unit')).filter(
    (rel) => !existsSync(path.join(root, 'src', rel)) && !existsSync(path.join(root, rel)),
  );
}

describe('tests/unit mirrors src', () => {
  it('has no test folder that names no source folder', () => {
    expect(unmirrored(ROOT)).toEqual([]);
  });

  it('finds a planted test folder with no source folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ew-mirror-'));
    try {
      for (const dir of [
        'src/core/trust',
        'eslint',
        'tests/unit/core/trust',
        'tests/unit/eslint',
        'tests/unit/core/stray',
      ])
        mkdirSync(path.join(root, dir), { recursive: true });
      expect(unmirrored(root)).toEqual([path.join('core', 'stray')]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
