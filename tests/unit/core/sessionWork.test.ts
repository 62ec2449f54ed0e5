// The sessions list counts every kind of work a session holds, named apart, so file runs never read "0 runs".
import { describe, expect, it } from 'vitest';
import { sessionWorkText } from '../../../src/core/sessionWork';

describe('a session’s work in words', () => {
  it('names runs, file runs with their rows, and robustness checks apart', () => {
    expect(
      sessionWorkText({ runs: 0, fileRuns: [{ rowCount: 500 }, { rowCount: 520 }], robustnessChecks: 0 }),
    ).toBe('2 file runs of 1,020 rows');
    expect(sessionWorkText({ runs: 2, fileRuns: [{ rowCount: 500 }], robustnessChecks: 1 })).toBe(
      '2 runs · 1 file run of 500 rows · 1 robustness check',
    );
    expect(sessionWorkText({ runs: 1, fileRuns: [{ rowCount: 1 }], robustnessChecks: 0 })).toBe(
      '1 run · 1 file run of 1 row',
    );
    expect(sessionWorkText({ runs: 0, fileRuns: [], robustnessChecks: 0 })).toBe('0 runs');
  });
});
