// Opening a stored run: its rows as results, a runner over its rows and outcomes whose updates reach the results (and
// the watching tabs), and the notes a reopened run needs (interrupted, rows unreadable).
import type { RowItem, RowRun, StoredAnswer } from '../../../core/rows/records';
import type { ResultRow } from '../../../core/rows/results';
import { mayReuseByQuestion } from '../../../core/rows/questionReuse';
import { plannedFromItems } from '../../../core/rows/runPlan';
import { RowRunner } from '../../../core/rows/runner';
import type { RunProgress } from '../../../core/rows/runTypes';
import type { RowsEngine, RowsKit } from './kit';

/** A run's rows as result rows, each with its stored answer's response. */
function resultRows(items: readonly RowItem[], answers: ReadonlyMap<string, StoredAnswer>): ResultRow[] {
  return items.map((i) => ({
    number: i.number,
    line: i.line,
    id: i.id,
    data: i.data,
    ...(i.labels ? { labels: i.labels } : {}),
    ...(i.annotations ? { annotations: i.annotations } : {}),
    ...(i.outcome ? { outcome: i.outcome } : {}),
    ...(i.outcome?.answerKey && answers.has(i.outcome.answerKey)
      ? { response: answers.get(i.outcome.answerKey)!.response }
      : {}),
  }));
}

/** A runner over a stored run's rows and outcomes. */
function runnerOf({ deps, get }: RowsKit, run: RowRun, items: readonly RowItem[]): RowRunner {
  const { rows, outcomes } = plannedFromItems(items, run.mapping);
  return new RowRunner(
    {
      targetId: run.targetId,
      target: deps.targetFor(run.targetId),
      model: run.model,
      questions: run.questions,
      rows,
      outcomes,
      pacing: run.pacing,
      maxCost: run.maxCost,
      ...(run.inputPrice !== undefined ? { inputPrice: run.inputPrice } : {}),
      ...(run.timeoutMs ? { timeoutMs: run.timeoutMs } : {}),
      questionReuse: mayReuseByQuestion(run, get().runs),
    },
    { evaluate: deps.evaluate, clock: deps.clock, store: deps.repo.runStore(run.id) },
  );
}

/** What a reopened run tells the person: interrupted by a closed page, or rows that could not be read. */
function openNotes(run: RowRun, progress: RunProgress, unreadable: number, interrupted: boolean): string[] {
  const notes: string[] = [];
  if (interrupted) {
    notes.push(
      progress.unknown > 0
        ? `This run was interrupted (the page closed or reloaded). ${progress.unknown} row(s) in flight at that moment are marked unknown: they may have been billed, so they are only sent again if you ask.`
        : 'This run was interrupted (the page closed or reloaded). Resume to send the remaining rows; answered rows are never sent again.',
    );
  }
  if (unreadable > 0) notes.push(`${unreadable} stored row(s) could not be read and are left out.`);
  return notes;
}

/** Makes a stored run the open one: its results, and a runner over its rows and outcomes. */
export function attachAction(kit: RowsKit, { scheduleFlush }: Pick<RowsEngine, 'scheduleFlush'>) {
  const { set, live } = kit;
  return (
    run: RowRun,
    items: readonly RowItem[],
    answers: ReadonlyMap<string, StoredAnswer>,
    unreadable: number,
    { quiet = false, held = false }: { quiet?: boolean; held?: boolean } = {},
  ): void => {
    live.results = resultRows(items, answers);
    live.indexOf = new Map(live.results.map((r, i) => [r.number, i]));
    const next = runnerOf(kit, run, items);
    next.subscribe((update) => {
      const at = live.indexOf.get(update.number);
      if (at === undefined) return;
      const response = update.answer ? { response: update.answer.response } : {};
      live.results[at] = { ...live.results[at]!, outcome: update.outcome, ...response };
      if (live.drivingId === run.id)
        live.outbox.push({ number: update.number, outcome: update.outcome, ...response });
      scheduleFlush();
    });
    live.runner = next;
    const progress = next.progress();
    // Stored as running but no tab holds its lock: the tab that drove it closed or died.
    const notes = openNotes(run, progress, unreadable, run.status === 'running' && !held && !quiet);
    set((s) => ({
      openRun: run,
      progress,
      pacing: run.pacing,
      maxCost: run.maxCost,
      loadingRun: false,
      resultsVersion: s.resultsVersion + 1,
      ...(quiet ? {} : { notice: notes.length ? notes.join(' ') : null }),
    }));
  };
}
