// The keys the variant ledger counts by: a labelled set (the rows run family's first run and its label columns) and a
// variant (the questions, model and target as the run sent them), and the count of a family once deleted runs are in.
import type { Questions } from '../../contract';
import { canonicalJson } from '../canonicalJson';
import { sha256HexSync } from '../rows/dedup';
import type { LedgerEntry, VariantLedger } from './ledger';

/** What a rows run sent and which rows it answered, as far as the ledger needs it. */
export interface LedgerRun {
  id: string;
  variantOf?: string;
  questions: Questions;
  model: string;
  targetId: string;
  rowCount: number;
  /** The run's label columns (its mapping's `labels`); a variant inherits its first run's. */
  labels?: unknown;
}

const hashOf = (value: unknown): string =>
  sha256HexSync(new TextEncoder().encode(canonicalJson(value))).slice(0, 32);

/** The labelled set a run answers: the same key for the first run and every variant of it. */
export const labelledSetKey = (run: LedgerRun): string =>
  `${run.variantOf ?? run.id}:${hashOf(run.labels ?? null).slice(0, 12)}`;

/** A variant: two runs with the same questions, model and target are one variant, whatever their ids. */
export const variantKeyOf = (run: Pick<LedgerRun, 'questions' | 'model' | 'targetId'>): string =>
  hashOf({ questions: run.questions, model: run.model, target: run.targetId });

/** The ledger entry of a run on its labelled set. */
export const ledgerEntryOf = (
  run: LedgerRun,
  purpose: LedgerEntry['purpose'],
  at: string,
  rows = run.rowCount,
): LedgerEntry => ({
  runId: run.id,
  at,
  setKey: labelledSetKey(run),
  rows,
  questions: Object.keys(run.questions),
  variantKey: variantKeyOf(run),
  purpose,
});

/** How many variants a family's adjustment counts, and how many of them are runs no longer stored. */
export interface FamilyCount {
  /** Variants counted against the base: max(the ledger's, the ones present). */
  tried: number;
  present: number;
  /** Variants the ledger counts whose runs were deleted (their rows cannot be read again). */
  deleted: number;
}

/**
 * The count of variants tried on a labelled set against its base (the base's own variant not counted): every variant
 * the ledger recorded for `purpose`, or the runs present if more (a run made before the ledger existed).
 */
export function familyCount(
  ledger: VariantLedger | undefined,
  setKey: string,
  baseKey: string,
  presentKeys: readonly string[],
  purpose: LedgerEntry['purpose'] = 'explore',
): FamilyCount {
  const present = new Set(presentKeys.filter((k) => k !== baseKey));
  const recorded = new Set(
    (ledger?.entries ?? [])
      .filter((e) => e.setKey === setKey && e.purpose === purpose && e.variantKey !== baseKey)
      .map((e) => e.variantKey),
  );
  const deleted = [...recorded].filter((k) => !present.has(k)).length;
  return {
    tried: Math.max(presentKeys.filter((k) => k !== baseKey).length, present.size + deleted),
    present: presentKeys.filter((k) => k !== baseKey).length,
    deleted,
  };
}

/**
 * The labelled rows of a set as a seal draws them: each row's stratum is its label of the first question (in the
 * questions' order) it has one for, so the sealed share keeps that question's label proportions.
 */
export function sealStrata(
  rows: readonly { id: string; labels: Record<string, unknown> }[],
  questions: readonly string[],
): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = [];
  for (const r of rows) {
    const q = questions.find((name) => r.labels[name] !== undefined && r.labels[name] !== null);
    if (q !== undefined) out.push({ id: r.id, label: `${q}=${JSON.stringify(r.labels[q])}` });
  }
  return out;
}
