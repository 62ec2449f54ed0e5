// The report of a robustness check from answers by row number, with the fixed identity the unit tests compare against.
import { buildReport } from '../../src/core/robustness/check';
import type { CheckPlan, RowAnswer } from '../../src/core/robustness/check';
import type { RobustnessReport } from '../../src/core/robustness/card';

/** The report of `plan` over `answers`, as checked on the local target with model-1.13.0. */
export const testReport = (
  plan: CheckPlan,
  answers: ReadonlyMap<number, RowAnswer>,
  targetId = 'local',
): RobustnessReport =>
  buildReport(plan, answers, {
    id: 'r',
    at: '2026-01-01T00:00:00.000Z',
    targetId,
    model: 'model-1.13.0',
    source: { kind: 'state' },
    estimatedCost: 0,
  });
