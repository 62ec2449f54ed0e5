// Running a planned robustness check: a runner over the plan's rows (paced, stored answers reused, as file rows are),
// its progress as the dialog shows it, and the report and notes once it ends.
import { newId } from '../../../core/ids';
import type { RobustnessReport } from '../../../core/robustness/card';
import type { RowAnswer } from '../../../core/robustness/check';
import { buildReport } from '../../../core/robustness/check';
import type { RunProgress, RunStore } from '../../../core/rows/runTypes';
import { RowRunner } from '../../../core/rows/runner';
import type { ReadyCheck, RobustnessDeps, RobustnessState } from './robustnessTypes';

/** A runner over the check's requests, at the plan's pacing and price, with no cap (the budget was said before). */
export function checkRunner(deps: RobustnessDeps, ready: ReadyCheck, store: RunStore): RowRunner {
  return new RowRunner(
    {
      targetId: ready.targetId,
      target: deps.targetFor(ready.targetId),
      model: ready.model,
      questions: ready.plan.questions,
      rows: ready.plan.rows,
      pacing: ready.pacing,
      maxCost: null,
      ...(ready.inputPrice !== undefined ? { inputPrice: ready.inputPrice } : {}),
    },
    { evaluate: deps.evaluate, clock: deps.clock, store },
  );
}

/** The counts the dialog shows while the check runs. */
export function checkProgress(runner: RowRunner): RobustnessState['progress'] {
  const p = runner.progress();
  return {
    done: p.done,
    reused: p.reused,
    failed: p.failed,
    invalid: p.invalid,
    unknown: p.unknown,
    cost: p.cost,
  };
}

/** The check's report from the answers that came back. */
export function checkReport(
  deps: RobustnessDeps,
  ready: ReadyCheck,
  answers: ReadonlyMap<number, RowAnswer>,
): RobustnessReport {
  return buildReport(ready.plan, answers, {
    id: newId(),
    at: new Date(deps.clock.now()).toISOString(),
    targetId: ready.targetId,
    model: ready.model,
    source: ready.source,
    estimatedCost: ready.budget.cost,
    requestKey: ready.requestKey,
    ...(ready.inputPrice !== undefined ? { inputPrice: ready.inputPrice } : {}),
  });
}

/** What the person is told when the check ends: why it stopped, what has no answer, what could not be stored. */
export function endNotes(
  end: RunProgress,
  report: RobustnessReport,
  { saveFailed, unsaved }: { saveFailed: boolean; unsaved: boolean },
): string[] {
  const missing = report.requests - report.reused - report.sent;
  const notes: string[] = [];
  if (end.halt) notes.push(end.halt.message);
  if (missing > 0)
    notes.push(
      `${missing} of ${report.requests} requests got no answer; the cards use the answers that came back. Run the check again to fill them in (answered requests are reused).`,
    );
  if (saveFailed) notes.push('Some answers could not be stored for reuse; the report has them all.');
  if (unsaved)
    notes.push('Another session was opened while the check ran: this report is shown here but not saved.');
  return notes;
}
