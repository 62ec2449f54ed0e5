// The unit-length rule (eslint/unitLength.js, issue 42): a planted function or class body over 80 lines warns, one over
// 150 fails, a short one passes, and an exception listed with its reason in the config keeps a named unit quiet.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The unit-length findings of `code` linted as the file `file` (repo-relative), with their severity (1 warn, 2 error). */
async function lengthFindings(code: string, file = 'src/core/planted.ts') {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages
    .filter((m) => m.ruleId?.startsWith('units/'))
    .map((m) => ({ rule: m.ruleId, severity: m.severity, line: m.line, message: m.message }));
}

/** `n` statements, one a line. */
const body = (n: number) => Array.from({ length: n }, (_, i) => `  total += ${i};`).join('\n');

describe('the unit-length rule', () => {
  it('warns on a function of 81 lines and names it with its length', async () => {
    const code = `export function planted(): number {\n  let total = 0;\n${body(77)}\n  return total;\n}\n`;
    expect(await lengthFindings(code)).toEqual([
      {
        rule: 'units/long-unit',
        severity: 1,
        line: 1,
        message: expect.stringMatching(/^planted is a function of 81 lines \(over 80\)/),
      },
    ]);
  });

  it('stays quiet on a function of exactly 80 lines', async () => {
    const code = `export function planted(): number {\n  let total = 0;\n${body(76)}\n  return total;\n}\n`;
    expect(await lengthFindings(code)).toEqual([]);
  });

  it('warns on an arrow function assigned to a name, and on one held by an object property', async () => {
    const arrow = `export const planted = (): number => {\n  let total = 0;\n${body(90)}\n  return total;\n};\n`;
    expect((await lengthFindings(arrow)).map((f) => f.message)).toEqual([
      expect.stringMatching(/^planted is a function of 94 lines/),
    ]);
    const held = `export const actions = {\n  planted(): number {\n    let total = 0;\n${body(90)}\n    return total;\n  },\n};\n`;
    expect((await lengthFindings(held)).map((f) => f.message)).toEqual([
      expect.stringMatching(/^planted is a function of 94 lines/),
    ]);
  });

  it('warns on a class body over 80 lines even when each method is short', async () => {
    const method = (i: number) =>
      `  step${i}(): number {\n    let total = 0;\n    total += ${i};\n    return total;\n  }`;
    const code = `export class Planted {\n${Array.from({ length: 20 }, (_, i) => method(i)).join('\n')}\n}\n`;
    const found = await lengthFindings(code);
    expect(found).toEqual([
      {
        rule: 'units/long-unit',
        severity: 1,
        line: 1,
        message: expect.stringMatching(/^Planted is a class body of 102 lines \(over 80\)/),
      },
    ]);
  });

  it('fails a function over 150 lines as an error as well as a warning', async () => {
    const code = `export function planted(): number {\n  let total = 0;\n${body(160)}\n  return total;\n}\n`;
    const found = await lengthFindings(code);
    expect(found.map((f) => [f.rule, f.severity])).toEqual([
      ['units/long-unit', 1],
      ['units/screen-long-unit', 2],
    ]);
    expect(found[1]!.message).toMatch(/^planted is a function of 164 lines \(over 150\)/);
  });

  it('keeps a unit listed in the config quiet in its own file only', async () => {
    // program is a permanent exception in eslint.config.js (LONG_UNIT_EXCEPTIONS); the same name elsewhere is measured.
    const code = `export function program(): number {\n  let total = 0;\n${body(90)}\n  return total;\n}\n`;
    expect(await lengthFindings(code, 'src/cli/main.ts')).toEqual([]);
    expect((await lengthFindings(code, 'src/cli/planted.ts')).map((f) => f.rule)).toEqual([
      'units/long-unit',
    ]);
  });
});
