// A results file written by the command line, as a run of the rows screen: the run record, its rows with their
// outcomes and human labels, and the answers to store. Stored as it is, the run opens as if it had been made in the
// browser (table, filters, charts, the alignment view), and its answers join the shared store that later runs reuse.
import type { Questions, State } from '../../contract';
import { labelColumnsOf, validLabel } from '../labels';
import type { Annotations, LabelValue, RowLabels } from '../labels';
import { rowLabels } from './labels';
import { mapRow } from './mapping';
import type { RowMapping } from './mapping';
import { DEFAULT_PACING } from './pacer';
import { ROWS_SCHEMA_VERSION } from './records';
import type { RowItem, RowRun, StoredAnswer } from './records';
import type { ReadResults } from './resultsFile';

/** What a results file becomes in storage. */
export interface ImportedResults {
  run: RowRun;
  items: RowItem[];
  answers: StoredAnswer[];
}

export interface ImportOptions {
  runId: string;
  now: number;
  /** Estimated input tokens of a row's state with the questions, for rows whose billed tokens the file lacks. */
  tokensOf?: (state: State, questions: Questions) => number;
}

/**
 * A row's labels: those read from its label columns, then those its line carries (given in the labelling view, so not
 * in any column), each kept only when it still answers the header's question.
 */
function mergedLabels(fromColumns: RowLabels, fromLine: RowLabels, questions: Questions): RowLabels {
  const valid = (question: string, value: LabelValue): boolean => {
    const definition = questions[question];
    return definition !== undefined && validLabel(value, definition);
  };
  const labels: Record<string, LabelValue> = { ...fromColumns.labels };
  for (const [question, value] of Object.entries(fromLine.labels ?? {}))
    if (valid(question, value)) labels[question] = value;
  const annotations: Annotations = structuredClone(fromColumns.annotations ?? {});
  for (const [question, byAnnotator] of Object.entries(fromLine.annotations ?? {}))
    for (const [annotator, value] of Object.entries(byAnnotator))
      if (valid(question, value)) (annotations[question] ??= {})[annotator] = value;
  return {
    ...(Object.keys(labels).length > 0 ? { labels } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

/** The rows file's format, as its name says (the header keeps the name, not the format). */
const formatOf = (fileName: string): RowRun['format'] =>
  /\.(jsonl|ndjson)$/i.test(fileName) ? 'jsonl' : /\.json$/i.test(fileName) ? 'json' : 'csv';

/**
 * The run a results file describes. Its rows are the ones the file settled (a run stopped early has fewer than its
 * rows file); the label columns the command line read (`--map label.q=column`) are read the same way here.
 */
export function runFromResults(results: ReadResults, options: ImportOptions): ImportedResults {
  const { header } = results;
  const { runId, now } = options;
  const mapping: RowMapping = {
    ...header.mapping,
    labels: [
      ...(header.mapping.labels ?? []),
      ...labelColumnsOf(header.labels).filter(
        (column) => !header.mapping.labels?.some((l) => l.question === column.question),
      ),
    ],
  };
  const answers = new Map<string, StoredAnswer>();
  let totalTokens = 0;
  const items = results.rows.map((row): RowItem => {
    let outcome = row.outcome;
    if (row.response) {
      // Every answered line names its answer's key; one edited by hand without it still keeps its answer.
      const key = outcome.answerKey ?? `results:${runId}:${row.number}`;
      outcome = { ...outcome, answerKey: key };
      answers.set(key, {
        key,
        targetId: header.targetId,
        model: row.response.model,
        response: row.response,
        at: outcome.at,
      });
    }
    const mapped = mapRow(row.data, mapping);
    const tokens =
      outcome.inputTokens && outcome.inputTokens > 0
        ? outcome.inputTokens
        : mapped.ok && options.tokensOf
          ? options.tokensOf(mapped.state, header.questions)
          : 0;
    totalTokens += tokens;
    const labels = mergedLabels(rowLabels(row.data, mapping, header.questions), row, header.questions);
    return {
      runId,
      number: row.number,
      line: row.line,
      id: row.id,
      data: row.data,
      tokens,
      outcome,
      ...labels,
    };
  });
  const created = Date.parse(header.createdAt);
  const run: RowRun = {
    schemaVersion: ROWS_SCHEMA_VERSION,
    id: runId,
    fileName: header.rowsFile,
    format: formatOf(header.rowsFile),
    columns: header.columns,
    createdAt: Number.isFinite(created) ? created : now,
    updatedAt: now,
    targetId: header.targetId,
    model: header.model,
    questions: header.questions,
    mapping: mapping.labels?.length ? mapping : header.mapping,
    // The run's own pacing when the file says it (older files: the published limits).
    pacing: header.pacing ?? DEFAULT_PACING,
    maxCost: null,
    rowCount: items.length,
    // The rows file's own problems stayed with the command line; only its settled rows are in the results.
    issues: [],
    totalTokens,
    // Every line of a results file is a settled row: there is nothing left to send from here.
    status: 'finished',
    halt: null,
  };
  return { run, items, answers: [...answers.values()] };
}

/** One sentence about the lines of a results file that could not be read, or null when every line was. */
export function unreadableSentence(
  fileName: string,
  unreadable: readonly { line: number; reason: string }[],
): string | null {
  if (unreadable.length === 0) return null;
  const shown = unreadable
    .slice(0, 3)
    .map((u) => `line ${u.line}: ${u.reason.replace(/\.$/, '')}`)
    .join('; ');
  const more = unreadable.length > 3 ? `; and ${unreadable.length - 3} more` : '';
  return `${unreadable.length} line(s) of ${fileName} could not be read and are left out (${shown}${more}).`;
}
