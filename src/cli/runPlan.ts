// The plan of a run before it sends: the rows file's columns and mapping, the rows of this shard (and of an escalation)
// with their tokens, kept as numbers by record, and where a resume starts. The rows file is read as few times as the
// plan needs: a CSV's columns are its header's, so its rows are planned in the same pass that a JSON Lines file needs
// on its own to learn its columns (issue 43: a shard read the whole file three times).
import type { Questions } from '../contract';
import { questionTokens, stateTokens } from '../contract/tokens';
import type { NamedLabel, RowMapping } from '../core/rows/mapping';
import type { RowOutcome, RowStatus } from '../core/rows/records';
import { planRun } from '../core/rows/runPlan';
import { outcomeTokens } from '../core/rows/tally';
import type { Escalation } from './escalate';
import type { MapSpec } from './inputs';
import { mappingFor, resolveLabelColumns, withDefaultLabels } from './inputs';
import { collectGarbage } from './memory';
import type { Resumed } from './resultsStore';
import { resumedOutcome } from './resultsStore';
import { grow } from './resultsStream';
import { csvHeaderColumns, eachBatch } from './rowsStream';
import type { RowsSource } from './rowsStream';
import type { Shard } from './shard';
import { inShard } from './shard';

/** What the plan pass learns: the rows of this shard and their tokens, by record number, and the totals. */
export interface Planned {
  /** 1 for a row this run sends (in the shard, mappable, not too large). */
  flags: Uint8Array;
  tokens: Uint32Array;
  rows: number;
  totalTokens: number;
  /** Lines left out before sending: the file's own problems and this shard's rows that cannot be sent. */
  skipped: number;
  records: number;
}

/** The rows file as the run reads it: its columns, the mapping of them, and the label columns taken by default. */
export interface RowsLayout {
  columns: string[];
  map: MapSpec;
  mapping: RowMapping;
  /** Questions whose label column was found by name, not given (said to the user). */
  defaulted: NamedLabel[];
}

/** The columns of a rows file, whether its rows are objects, and how many records it holds: a pass over the file. */
async function surveyColumns(
  source: RowsSource,
): Promise<{ columns: string[]; objectRows: boolean; records: number }> {
  let objectRows = false;
  const summary = await eachBatch(source, (batch) => {
    if (!objectRows)
      objectRows = batch.rows.some(
        (r) => r.data !== null && typeof r.data === 'object' && !Array.isArray(r.data),
      );
  });
  // CSV rows are always objects of named fields; an empty CSV still has its header's columns.
  return {
    columns: summary.columns,
    objectRows: objectRows || source.format === 'csv',
    records: summary.records,
  };
}

/** The layout from the columns: labels named like a question are its labels unless --map says otherwise. */
function layoutOf(given: MapSpec, columns: string[], objectRows: boolean, questions: Questions): RowsLayout {
  const { spec: map, defaulted } = withDefaultLabels(
    resolveLabelColumns(given, columns),
    columns,
    objectRows,
    Object.keys(questions),
  );
  return { columns, map, mapping: mappingFor(map, columns, objectRows), defaulted };
}

/**
 * The rows file's columns and mapping, and how many records to size the plan for (0 when unknown): a CSV's from its
 * header alone, other files' from a pass over them.
 */
export async function readLayout(
  source: RowsSource,
  given: MapSpec,
  questions: Questions,
): Promise<{ layout: RowsLayout; records: number }> {
  const header = source.format === 'csv' ? csvHeaderColumns(source) : null;
  if (header) return { layout: layoutOf(given, header, true, questions), records: 0 };
  const { columns, objectRows, records } = await surveyColumns(source);
  collectGarbage();
  return { layout: layoutOf(given, columns, objectRows, questions), records };
}

/** The plan pass: this shard's rows (of the escalation's, when there is one), kept as numbers by record. */
export async function planRows(
  source: RowsSource,
  mapping: RowMapping,
  questions: Questions,
  { shard, escalation, records }: { shard: Shard; escalation: Escalation | null; records: number },
): Promise<Planned> {
  const planned: Planned = {
    // Sized by the record count when a pass has counted them, so the plan does not grow them by copies (grow covers a
    // file that changed in between, and a CSV planned in its first pass).
    flags: new Uint8Array(records + 1),
    tokens: new Uint32Array(records + 1),
    rows: 0,
    totalTokens: 0,
    skipped: 0,
    records: 0,
  };
  const summary = await eachBatch(source, (batch) => {
    planned.skipped += batch.issues.filter((i) => i.severity === 'skip').length;
    const mine = batch.rows.filter(
      (row) => inShard(row, mapping, shard) && (escalation === null || escalation.rows.has(row.number)),
    );
    const plan = planRun(mine, mapping, questions, { stateTokens, questionTokens });
    planned.skipped += plan.issues.filter((i) => i.severity === 'skip').length;
    for (const row of plan.rows) {
      planned.flags = grow(planned.flags, row.number);
      planned.tokens = grow(planned.tokens, row.number);
      planned.flags[row.number] = 1;
      planned.tokens[row.number] = row.tokens;
    }
    planned.rows += plan.rows.length;
    planned.totalTokens += plan.totalTokens;
  });
  planned.records = summary.records;
  collectGarbage();
  return planned;
}

/** Counts of the rows a resume keeps as they are, in the runner's terms. */
export interface Base {
  counts: Record<Exclude<RowStatus, 'pending' | 'sending'>, number>;
  billedTokens: number;
  possiblyBilledTokens: number;
}

const emptyBase = (): Base => ({
  counts: { done: 0, reused: 0, invalid: 0, failed: 0, unknown: 0 },
  billedTokens: 0,
  possiblyBilledTokens: 0,
});

/** Whether a resumed row stays as it is: settled, and not one this run sends again. */
function kept(outcome: RowOutcome | undefined, retryUnknown: boolean): boolean {
  if (!outcome || outcome.status === 'pending' || outcome.status === 'sending') return false;
  // A failure that billed nothing is sent again; one that may have billed waits for --retry-unknown.
  if (outcome.status === 'failed' && outcome.possiblyBilledAttempts === 0) return false;
  if (retryUnknown && (outcome.status === 'unknown' || outcome.status === 'failed')) return false;
  return true;
}

/** Where a run starts from: what a resume keeps, and the rows it sends. */
export interface Start {
  base: Base;
  /** 1 for each record this run sends. */
  sendable: Uint8Array;
  toSend: number;
  /** 1 for rows that were being sent when the last process stopped (the only part of the resume a window reads). */
  inFlight: Uint8Array;
  settled: number;
  unreadable: number;
}

/**
 * Counts the rows a resume keeps as they are, and marks the others to send. The rest of what the results file said
 * (each row's status, billed tokens and attempts: 8 bytes a record) is let go here, not held through the run.
 */
export function startFrom(resumed: Resumed, planned: Planned, retryUnknown: boolean): Start {
  const base = emptyBase();
  const sendable = new Uint8Array(planned.records + 1);
  let toSend = 0;
  for (let n = 1; n <= planned.records; n++) {
    if (planned.flags[n] !== 1) continue;
    const outcome = resumedOutcome(resumed, n);
    if (kept(outcome, retryUnknown)) {
      const status = outcome!.status as keyof Base['counts'];
      base.counts[status]++;
      const t = outcomeTokens(outcome!, planned.tokens[n]!);
      base.billedTokens += t.billed;
      base.possiblyBilledTokens += t.possiblyBilled;
    } else {
      sendable[n] = 1;
      toSend++;
    }
  }
  const { inFlight, settled, unreadable } = resumed;
  return { base, sendable, toSend, inFlight, settled, unreadable };
}
