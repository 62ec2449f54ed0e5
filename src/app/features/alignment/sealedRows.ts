// Which rows of the open labelled set are sealed: read from the open session's ledger, so every computation of the
// alignment screen (figures, comparisons, families) leaves them out before its rows are packed for the worker.
import { sealOf } from '../../../core/alignment/ledger';
import type { Seal } from '../../../core/alignment/ledger';
import { labelledSetKey } from '../../../core/alignment/ledgerKeys';
import type { LedgerRun } from '../../../core/alignment/ledgerKeys';
import type { RowRun } from '../../../core/rows/records';
import { useSessions } from '../../stores/sessions';

/** A rows run as the ledger keys it (its label columns name the labelled set). */
export const ledgerRunOf = (run: RowRun): LedgerRun => ({
  id: run.id,
  ...(run.variantOf ? { variantOf: run.variantOf } : {}),
  questions: run.questions,
  model: run.model,
  targetId: run.targetId,
  rowCount: run.rowCount,
  labels: run.mapping.labels ?? null,
});

/** The seal of the labelled set `run` answers, in the open session's ledger. */
export const sealOfRun = (run: RowRun): Seal | undefined => {
  const ledger = useSessions.getState().open?.ledger;
  return ledger ? sealOf(ledger, labelledSetKey(ledgerRunOf(run))) : undefined;
};

/** A row's id as the figures and the seal name it: a result row's number, or a figure row's id. */
const idOf = (r: { number: number } | { id: string }): string => ('number' in r ? String(r.number) : r.id);

/** Rows keyed by number (as the figures key them) without the sealed ones, or only the sealed ones. */
export function bySeal<T extends { number: number } | { id: string }>(
  rows: readonly T[],
  seal: Seal | undefined,
  keep: 'open' | 'sealed',
): T[] {
  if (!seal) return keep === 'open' ? [...rows] : [];
  const ids = new Set(seal.ids);
  return rows.filter((r) => ids.has(idOf(r)) === (keep === 'sealed'));
}
