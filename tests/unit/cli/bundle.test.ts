// The command's prebuilt bundle (bin/cliBundle.mjs): built offline from what npm install put there, known stale as
// soon as a file it was built from changes, ASCII only, and what the bin runs: `--version` answers from it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLI_BUNDLE,
  ROOT,
  asciiOnly,
  buildBundle,
  bundleFile,
  bundleState,
  freshCliBundle,
} from '../../../bin/cliBundle.mjs';
import packageJson from '../../../package.json' with { type: 'json' };

const NOT_ASCII = /[\u0080-\uffff]/;
const dir = mkdtempSync(join(tmpdir(), 'ew-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const node = (args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const ran = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
};

describe('the bundle of a program', () => {
  it('is fresh once built, stale when a file it was built from or an install changes, missing without its record', async () => {
    const root = join(dir, 'project');
    const outDir = join(root, 'build/out');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'entry.ts'), "import { word } from './dep';\nconsole.log(`said ${word}`);\n");
    writeFileSync(join(root, 'dep.ts'), "export const word: string = 'first';\n");
    expect(bundleState(outDir)).toBe('missing');
    await buildBundle({ entry: join(root, 'entry.ts'), outDir, root });
    expect(bundleState(outDir)).toBe('fresh');
    expect(node([bundleFile(outDir)]).stdout).toBe('said first\n');

    writeFileSync(join(root, 'dep.ts'), "export const word: string = 'second';\n");
    // A change in the same millisecond as the build would keep the time: the size differs anyway, and so does this.
    utimesSync(join(root, 'dep.ts'), new Date(), new Date(Date.now() + 5_000));
    expect(bundleState(outDir)).toBe('stale');
    await buildBundle({ entry: join(root, 'entry.ts'), outDir, root });
    expect(bundleState(outDir)).toBe('fresh');
    expect(node([bundleFile(outDir)]).stdout).toBe('said second\n');

    // An install writes the lock file: packages keep their packed times, so the lock is what tells.
    writeFileSync(join(root, 'package-lock.json'), '{}');
    expect(bundleState(outDir)).toBe('stale');
    rmSync(join(outDir, 'inputs.json'));
    expect(bundleState(outDir)).toBe('missing');
  });

  it('escapes every character outside ASCII, keeping what a regular expression, a string and a comment mean', () => {
    const source = "/* café */ [/['’]/g.test('’'), /😀/u.test('😀'), 'naïve 😀'.length, /[é]/.test('é')]";
    const escaped = asciiOnly(source);
    expect(NOT_ASCII.test(escaped)).toBe(false);
    expect(new Function(`return ${escaped}`)()).toEqual([true, true, 'naïve 😀'.length, true]);
  });
});

describe("the command's bundle", () => {
  it('is built from the checkout, ASCII only, and the command answers --version from it as the bin does', async () => {
    const bundle = freshCliBundle();
    expect(bundle).toBe(bundleFile(CLI_BUNDLE.outDir));
    expect(bundleState(CLI_BUNDLE.outDir)).toBe('fresh');
    expect(NOT_ASCII.test(readFileSync(bundle!, 'utf8'))).toBe(false);

    const fromBundle = node([
      '--input-type=module',
      '-e',
      `const { main } = await import(${JSON.stringify(pathToFileURL(bundle!).href)}); process.exit(await main(['--version']));`,
    ]);
    expect(fromBundle).toMatchObject({ status: 0, stdout: `${packageJson.version}\n` });
    expect(node(['bin/evaluate-workbench.mjs', '--version'])).toMatchObject({
      status: 0,
      stdout: `${packageJson.version}\n`,
    });
  });
});
