// The JSONL export of a run's results: one object per row (ids, status, model, usage, answers, input, labels and
// their probabilities where a question was labelled in active order), and the lines never sent when asked for.
import type { LabelProbabilities } from './labelProbabilities';
import { rowProbabilities } from './labelProbabilities';
import { byLine, LEFT_OUT_STATUS, statusOf } from './results';
import type { LeftOutLine, ResultRow } from './results';

/**
 * One JSON object per row: ids, status, the resolved model, usage, the full answers and the input; with the labels,
 * each label's probability of having been asked where the question was labelled in active order.
 */
export function exportJsonlRecord(
  row: ResultRow,
  labelProbabilities: LabelProbabilities = {},
): Record<string, unknown> {
  const probabilities = rowProbabilities(row, labelProbabilities);
  const o = row.outcome;
  const record: Record<string, unknown> = {
    row_id: row.id,
    line: row.line,
    status: statusOf(row),
    model: o?.model ?? row.response?.model ?? null,
    usage: row.response ? { ...row.response.usage, billed_input_tokens: o?.inputTokens ?? null } : null,
    latency_ms: o?.latencyMs === undefined ? null : Math.round(o.latencyMs),
    attempts: o?.attempts ?? 0,
    possibly_billed_attempts: o?.possiblyBilledAttempts ?? 0,
    answers: row.response?.answers ?? null,
    // Answers taken from stored ones instead of asked; the usage is only the rest's.
    ...(o?.reusedQuestions ? { reused_questions: o.reusedQuestions } : {}),
    input: row.data,
    ...(row.labels ? { labels: row.labels } : {}),
    ...(row.annotations ? { annotations: row.annotations } : {}),
    ...(probabilities ? { label_probabilities: probabilities } : {}),
  };
  if (o?.error)
    record.error = {
      kind: o.error.kind,
      message: o.error.message,
      status: o.error.status ?? null,
      fields: o.error.fieldErrors,
    };
  return record;
}

/** A row of the JSONL export (no newline). */
export const exportJsonlLine = (row: ResultRow, labelProbabilities: LabelProbabilities = {}): string =>
  JSON.stringify(exportJsonlRecord(row, labelProbabilities));

/** The JSONL export, a piece of about `chunkRows` rows at a time; with `leftOut`, the lines never sent too. */
export function* jsonlChunks(
  rows: readonly ResultRow[],
  chunkRows = 2000,
  leftOut: readonly LeftOutLine[] = [],
  labelProbabilities: LabelProbabilities = {},
): Generator<string> {
  let chunk: string[] = [];
  for (const item of byLine(rows, leftOut)) {
    chunk.push(
      'row' in item
        ? exportJsonlLine(item.row, labelProbabilities)
        : JSON.stringify({
            line: item.left.line,
            status: LEFT_OUT_STATUS,
            reason: item.left.reason,
            kind: item.left.kind,
          }),
    );
    if (chunk.length >= chunkRows) {
      yield `${chunk.join('\n')}\n`;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield `${chunk.join('\n')}\n`;
}

/** The whole JSONL export as pieces. */
export const exportJsonl = (
  rows: readonly ResultRow[],
  chunkRows = 2000,
  leftOut: readonly LeftOutLine[] = [],
  labelProbabilities: LabelProbabilities = {},
): string[] => [...jsonlChunks(rows, chunkRows, leftOut, labelProbabilities)];
