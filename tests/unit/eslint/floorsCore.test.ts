// The floors of the pure side (eslint/floors.js) hold: a planted upward import from core, contract or client fails the
// lint with the rule's sentence, an allowed one passes, and today's core, contract and client break none of them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'layers/floors': 'error' } } });

/** The floors findings of `code` linted as if it were the file `file` (repo-relative). */
async function floorsOf(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'layers/floors').map((m) => m.message);
}

describe('the floors of core, contract and client', () => {
  it('fails a core file that imports the client', async () => {
    const found = await floorsOf(
      "import type { ClientTarget } from '../client';\nexport type Planted = ClientTarget;\n",
      'src/core/planted.ts',
    );
    expect(found).toEqual([
      expect.stringMatching(/^core\/planted\.ts may not import client: the core is pure/),
    ]);
  });

  it('fails a core file that imports the app, the server or the command line', async () => {
    const found = await floorsOf(
      [
        "export { useRows } from '../../app/stores/rows';",
        "export { EXIT } from '../../cli/run';",
        "export type { ServerEnv } from '../../server/env';",
      ].join('\n'),
      'src/core/rows/planted.ts',
    );
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^core\/rows\/planted\.ts may not import app\/stores\/rows:/);
  });

  it('fails a contract file that imports the core', async () => {
    const found = await floorsOf(
      "import { plural } from '../core/words';\nexport const planted = plural;\n",
      'src/contract/planted.ts',
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^contract\/planted\.ts may not import core\/words: the contract imports nothing of ours/,
      ),
    ]);
  });

  it('fails a client file that imports the core', async () => {
    const found = await floorsOf(
      "import { plural } from '../core/words';\nexport const planted = plural;\n",
      'src/client/planted.ts',
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^client\/planted\.ts may not import core\/words: the client imports only the contract/,
      ),
    ]);
  });

  it('stays quiet on the imports the floors allow', async () => {
    expect(
      await floorsOf(
        "import type { ClientTarget } from '../../contract/evaluateCall';\nimport { readLabel } from '../labels';\nexport type Planted = ClientTarget;\nexport const read = readLabel;\n",
        'src/core/rows/planted.ts',
      ),
    ).toEqual([]);
    expect(
      await floorsOf(
        "import { isRecord } from './guards';\nexport const planted = isRecord;\n",
        'src/contract/planted.ts',
      ),
    ).toEqual([]);
    expect(
      await floorsOf(
        "import { plural } from '../contract/text';\nexport const planted = plural;\n",
        'src/client/planted.ts',
      ),
    ).toEqual([]);
  });

  it('finds no broken floor in today’s core, contract and client', async () => {
    const results = await eslint.lintFiles(['src/core', 'src/contract', 'src/client']);
    const broken = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'layers/floors').map((m) => m.message),
    );
    expect(results.length).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});
