// The notes a robustness check ends with (robustnessRun.ts endNotes, split out of the store for issue 42): why it
// stopped, how many requests got no answer, what could not be stored or saved, in that order; none for a clean run.
import { describe, expect, it } from 'vitest';
import type { RobustnessReport } from '../../../../../src/core/robustness/card';
import type { RunProgress } from '../../../../../src/core/rows/runTypes';
import { endNotes } from '../../../../../src/app/features/robustness/robustnessRun';

const report = (requests: number, reused: number, sent: number) =>
  ({ requests, reused, sent }) as Pick<RobustnessReport, 'requests' | 'reused' | 'sent'> as RobustnessReport;
const end = (halt: RunProgress['halt']) => ({ halt }) as RunProgress;

describe('endNotes', () => {
  it('says nothing after a clean run whose report was saved', () => {
    expect(endNotes(end(null), report(10, 4, 6), { saveFailed: false, unsaved: false })).toEqual([]);
  });

  it('names the halt, the requests with no answer, the unstored answers and the unsaved report, in order', () => {
    const notes = endNotes(end({ reason: 'cancelled', message: 'Cancelled.' }), report(10, 2, 5), {
      saveFailed: true,
      unsaved: true,
    });
    expect(notes).toHaveLength(4);
    expect(notes[0]).toBe('Cancelled.');
    expect(notes[1]).toMatch(/^3 of 10 requests got no answer/);
    expect(notes[2]).toMatch(/could not be stored for reuse/);
    expect(notes[3]).toMatch(/not saved/);
  });
});
