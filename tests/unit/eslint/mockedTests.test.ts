// Test files share their worker's modules (vite.config.ts, isolate: false), so a file that replaces a module with
// vi.mock must be named *.mocked.test.ts(x) and run alone: the lint fails a planted vi.mock in a plain test file, and
// passes the same code in a mocked one.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });
const PLANTED = "import { vi } from 'vitest';\nvi.mock('node:fs');\nexport const planted = 1;\n";

async function restrictedSyntaxOf(file: string): Promise<string[]> {
  const [result] = await eslint.lintText(PLANTED, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('a test file that replaces a module', () => {
  it('fails the lint when its name says it shares its worker’s modules', async () => {
    expect(await restrictedSyntaxOf('tests/unit/core/planted.test.ts')).toEqual([
      expect.stringMatching(
        /^A test file that replaces a module runs in its own module graph: name it \*\.mocked/,
      ),
    ]);
    expect(await restrictedSyntaxOf('tests/component/planted.test.tsx')).toHaveLength(1);
  });

  it('passes when it is named *.mocked.test.ts(x)', async () => {
    expect(await restrictedSyntaxOf('tests/unit/core/planted.mocked.test.ts')).toEqual([]);
    expect(await restrictedSyntaxOf('tests/component/planted.mocked.test.tsx')).toEqual([]);
  });
});
