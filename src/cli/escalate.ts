// A cascade on the command line: the next judge's run sends only the rows the run before abstained on. The earlier
// results file certifies its judge's threshold on its labelled rows with delta split over the cascade's judges (the
// same function as the page's), and the rows under it (or unanswered) are the ones this run sends.
import { basename } from 'node:path';
import type { Questions } from '../contract';
import type { AlignmentOptions } from '../core/alignment';
import { escalationThreshold, splitByThreshold } from '../core/alignment/labellingQueue';
import { TRUST_OPTION_DEFAULTS } from '../core/alignment/types';
import { labelColumnsOf, readRowLabels } from '../core/labels';
import type { ReadRow } from '../core/rows/resultsFile';
import { InputError } from './inputs';
import { eachNewestRow, indexRows } from './resultsStream';

export interface Escalation {
  /** The earlier results file's name, the question and the threshold its rows were split at (null: none certified). */
  from: { file: string; question: string; threshold: number | null };
  /** Record numbers of the rows to send. */
  rows: Set<number>;
  /** Rows the earlier file settled. */
  settled: number;
}

/** The rows of `file`'s run that its judge abstains on for `question`, in a cascade of `judges`. */
export function escalationFrom(
  file: string,
  question: string | undefined,
  questions: Questions,
  rowsFile: string,
  options: Partial<AlignmentOptions> = {},
  judges = 2,
): Escalation {
  const index = indexRows(file);
  const header = index.header;
  if (basename(header.rowsFile) !== basename(rowsFile))
    throw new InputError(
      `--escalate-from ${file} is a run of ${header.rowsFile}, not of ${basename(rowsFile)}: a cascade's judges answer the same rows.`,
    );
  const labelled = Object.keys(header.labels);
  const name = question ?? (labelled.length === 1 ? labelled[0] : undefined);
  if (!name)
    throw new InputError(
      `Say which question the cascade settles: --escalate-question ${labelled.length ? labelled.join(' or ') : '<question>'} (its labels certify the threshold).`,
    );
  const definition = header.questions[name];
  if (!definition || !labelled.includes(name) || !questions[name])
    throw new InputError(
      `--escalate-question ${name}: ${file} has no labels of a question "${name}" that this run asks too.`,
    );
  const columns = labelColumnsOf(header.labels);
  const rows: ReadRow[] = [];
  eachNewestRow(index, (row) => {
    const labels = readRowLabels(row.data, columns, header.questions).labels;
    rows.push(labels ? { ...row, labels } : row);
  });
  const trust = { ...TRUST_OPTION_DEFAULTS, ...options.trust };
  const at = escalationThreshold(rows, name, definition, judges, {
    alpha: trust.alpha,
    delta: trust.delta,
    scorePrediction: options.scorePrediction ?? 'mostProbable',
    noulThreshold: options.noulThresholds?.[name] ?? 0.5,
  });
  const { settled, queue } = splitByThreshold(rows, name, definition, at.threshold);
  return {
    from: { file: basename(file), question: name, threshold: at.threshold },
    rows: new Set(queue.map((r) => r.number)),
    settled: settled.length,
  };
}

/** The line the run says before sending. */
export const escalationLine = (e: Escalation): string =>
  e.from.threshold === null
    ? `Escalating every row of ${e.from.file}: its judge certifies no threshold on "${e.from.question}" (delta split over the cascade's judges).`
    : `Escalating ${e.rows.size.toLocaleString('en-US')} rows: ${e.from.file}'s judge settles ${e.settled.toLocaleString('en-US')} at confidence >= ${e.from.threshold.toFixed(3)} on "${e.from.question}" (certified with delta split over the cascade's judges).`;
