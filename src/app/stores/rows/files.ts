// Files in and out of a run: a results file the command line wrote, opened as a stored run, and the open run's
// results exported as CSV or JSONL (with each label's probability where a question was labelled in active order).
import { activeEstimateOf } from '../../../core/alignment/labelOrder';
import type { RowRun } from '../../../core/rows/records';
import { csvChunks, exportInputColumns, leftOutLines } from '../../../core/rows/results';
import type { ResultRow } from '../../../core/rows/results';
import { jsonlChunks } from '../../../core/rows/exportJsonl';
import type { LabelProbabilities } from '../../../core/rows/labelProbabilities';
import { runFromResults, unreadableSentence } from '../../../core/rows/importResults';
import { readResults } from '../../../core/rows/resultsFile';
import { fileText } from '../../workers/rowsParser';
import { errorText } from './kit';
import type { RowsKit } from './kit';
import type { RowsEngine } from './run';
import type { RowsState } from './types';

const baseName = (fileName: string): string => fileName.replace(/\.[^.]+$/, '') || 'rows';

export function fileActions(
  { deps, set, get, live, post }: RowsKit,
  { stopWatching, attach }: RowsEngine,
): Pick<RowsState, 'openResultsFile' | 'exportRun'> {
  return {
    async openResultsFile(file) {
      if (get().running) return null;
      set({ error: null, notice: null });
      let text: string;
      try {
        text = await fileText(file);
      } catch (error) {
        set({ error: `${file.name} could not be read: ${errorText(error)}` });
        return null;
      }
      const now = deps.clock.now();
      const read = readResults(text, now);
      if (!read.ok) {
        set({ error: `${file.name}: ${read.message}` });
        return null;
      }
      if (read.results.rows.length === 0) {
        set({
          error: `${file.name} has no row results yet (the command line writes one line per row as it settles): nothing to open.`,
        });
        return null;
      }
      const id = deps.newId();
      try {
        // Loaded on demand, as the file reader does: the tokenizer is large and most sessions never import results.
        const { requestTokens } = await import('../../../contract/tokens');
        const imported = runFromResults(read.results, {
          runId: id,
          now,
          tokensOf: (state, questions) => requestTokens({ state, questions }).total,
        });
        await deps.repo.createRun(imported.run, imported.items, undefined, imported.answers);
        live.lastOwnWrite.set(id, now);
        stopWatching();
        attach(imported.run, imported.items, new Map(imported.answers.map((a) => [a.key, a])), 0);
        const skipped = unreadableSentence(file.name, read.results.unreadable);
        set({
          notice: `Opened ${file.name}, the command line's results for ${imported.run.fileName}: ${imported.items.length} row(s).${skipped ? ` ${skipped}` : ''}`,
        });
        post({ type: 'listChanged' });
      } catch (error) {
        set({ error: `The results of ${file.name} could not be stored: ${errorText(error)}` });
        return null;
      }
      await get().refreshRuns();
      return id;
    },

    async exportRun(kind, options = {}) {
      const run = get().openRun;
      if (!run) return null;
      const name = `${baseName(run.fileName)}-results`;
      const leftOut = options.leftOut ? leftOutLines(run.issues) : [];
      const chunks = exportChunks(run, live.results, kind, leftOut);
      // Built a piece at a time with a pause between pieces, so a 100,000-row export never freezes the page.
      const parts: string[] = kind === 'csv' ? ['\ufeff'] : [];
      for (const part of chunks) {
        parts.push(part);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      return kind === 'csv'
        ? { fileName: `${name}.csv`, type: 'text/csv;charset=utf-8', parts }
        : { fileName: `${name}.jsonl`, type: 'application/x-ndjson', parts };
    },
  };
}

/** Each question labelled in active order: its labelled rows' probabilities of having been asked. */
function labelProbabilitiesOf(run: RowRun, rows: readonly ResultRow[]): LabelProbabilities {
  const out: Record<string, ReadonlyMap<number, number>> = {};
  for (const [question, order] of Object.entries(run.labelOrders ?? {})) {
    const definition = run.questions[question];
    if (!definition) continue;
    const read = activeEstimateOf(
      rows.map((r) => ({
        number: r.number,
        answer: r.response?.answers[question],
        label: r.labels?.[question],
      })),
      definition,
      order,
    );
    if (read) out[question] = read.probabilities;
  }
  return out;
}

/** The export's pieces: CSV or JSONL, with the lines left out and the labels' probabilities. */
function exportChunks(
  run: RowRun,
  rows: readonly ResultRow[],
  kind: 'csv' | 'jsonl',
  leftOut: ReturnType<typeof leftOutLines>,
): Generator<string> {
  const probabilities = labelProbabilitiesOf(run, rows);
  return kind === 'csv'
    ? csvChunks(rows, run.questions, exportInputColumns(rows, run.columns), undefined, leftOut, probabilities)
    : jsonlChunks(rows, undefined, leftOut, probabilities);
}
