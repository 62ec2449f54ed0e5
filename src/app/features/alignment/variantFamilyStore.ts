// The family of variants of the open labelled rows: every variant counted in the session's ledger, its intervals
// adjusted for that count (computed in the alignment worker), the sealed share of the rows and the confirmations run
// on it. The sealed rows' labels never reach a comparison: rows are split by the seal before they are packed.
import { create } from 'zustand';
import type { CountedFamily } from '../../../core/alignment/countedFamily';
import { recordVariant, sealSet, variantsTried } from '../../../core/alignment/ledger';
import {
  familyCount,
  labelledSetKey,
  ledgerEntryOf,
  sealStrata,
  variantKeyOf,
} from '../../../core/alignment/ledgerKeys';
import type { FamilyCount } from '../../../core/alignment/ledgerKeys';
import { alignTableOf, packTable } from '../../../core/alignment/table';
import type { AlignRow } from '../../../core/alignment/types';
import type { RowRun } from '../../../core/rows/records';
import type { ResultRow } from '../../../core/rows/results';
import { errorText } from '../../../contract/text';
import { useSessions } from '../../stores/sessions';
import { alignRowsOf, computerOf, loadRun } from './alignmentStore';
import { bySeal, ledgerRunOf, sealOfRun } from './sealedRows';

/** The share of the labelled rows a seal takes unless the owner picks another. */
export const DEFAULT_SEAL_SHARE = 0.2;

/** A confirmation on the sealed rows: the chosen variant against the base, adjusted for every confirmation counted. */
export interface Confirmation {
  variantId: string;
  /** Distinct variants confirmed on this set so far (this one included). */
  confirmations: number;
  families: CountedFamily[];
}

export interface VariantFamilyState {
  /** The base run (the family's first) and the open run the figures were computed for. */
  of: { baseId: string; runId: string } | null;
  families: CountedFamily[] | null;
  count: FamilyCount | null;
  computing: boolean;
  confirmation: Confirmation | null;
  confirming: boolean;
  error: string | null;
  /** Counts in the open session's ledger every run of the open run's family that has been run (deleting a run later
   * keeps its entry). */
  record: (run: RowRun, runs: readonly RowRun[], openAnswered: boolean) => void;
  /** Computes the family of the open run's rows on the open (unsealed) rows. */
  compute: (run: RowRun, rows: readonly ResultRow[], runs: readonly RowRun[]) => Promise<void>;
  /** Seals `share` of the labelled rows (stratified by label, seeded); a set is sealed once. */
  seal: (run: RowRun, rows: readonly ResultRow[], share?: number, seed?: number) => void;
  /** Counts and computes one variant against the base on the sealed rows. */
  confirm: (
    run: RowRun,
    rows: readonly ResultRow[],
    runs: readonly RowRun[],
    variantId: string,
  ) => Promise<void>;
}

/** The runs of one labelled set, first run first: a cascade's escalated judges answer only some rows, so not them. */
export function familyRuns(run: RowRun, runs: readonly RowRun[]): RowRun[] {
  const group = run.variantOf ?? run.id;
  const all = [run, ...runs.filter((r) => r.id !== run.id)].filter(
    (r) => (r.id === group || r.variantOf === group) && !r.escalatedFrom,
  );
  return all.sort((a, b) =>
    a.id === group ? -1 : b.id === group ? 1 : a.createdAt - b.createdAt || a.id.localeCompare(b.id),
  );
}

/** Each run's rows as the figures read them: the open one from the screen, the others from storage. */
async function rowsOfRuns(
  open: RowRun,
  openRows: readonly ResultRow[],
  members: readonly RowRun[],
): Promise<AlignRow[][]> {
  return Promise.all(
    members.map(async (m) => (m.id === open.id ? alignRowsOf(openRows) : (await loadRun(m.id)).rows)),
  );
}

const packed = (run: RowRun, rows: readonly AlignRow[]) => ({
  name: run.id,
  questions: run.questions,
  table: packTable(alignTableOf(run.questions, rows)),
});

let seq = 0;
let confirmSeq = 0;

export const useVariantFamily = create<VariantFamilyState>()((set) => ({
  of: null,
  families: null,
  count: null,
  computing: false,
  confirmation: null,
  confirming: false,
  error: null,

  record(run, runs, openAnswered) {
    const at = new Date().toISOString();
    const counted = familyRuns(run, runs).filter((r) =>
      r.id === run.id ? openAnswered : r.status !== 'ready',
    );
    if (counted.length === 0) return;
    useSessions
      .getState()
      .updateLedger((ledger) =>
        counted.reduce((l, r) => recordVariant(l, ledgerEntryOf(ledgerRunOf(r), 'explore', at)), ledger),
      );
  },

  async compute(run, rows, runs) {
    const id = ++seq;
    const members = familyRuns(run, runs);
    const base = members[0];
    if (!base || members.length < 2) {
      set({
        of: base ? { baseId: base.id, runId: run.id } : null,
        families: [],
        count: null,
        computing: false,
      });
      return;
    }
    set({ computing: true });
    try {
      const seal = sealOfRun(run);
      const all = (await rowsOfRuns(run, rows, members)).map((r) => bySeal(r, seal, 'open'));
      const count = familyCount(
        useSessions.getState().open?.ledger,
        labelledSetKey(ledgerRunOf(base)),
        variantKeyOf(base),
        members.slice(1).map(variantKeyOf),
      );
      const families = await computerOf().family({
        kind: 'family',
        base: packed(base, all[0]!),
        variants: members.slice(1).map((m, k) => packed(m, all[k + 1]!)),
        tried: count.tried,
        options: {},
      });
      if (id === seq)
        set({ of: { baseId: base.id, runId: run.id }, families, count, computing: false, error: null });
    } catch (error) {
      if (id === seq)
        set({ computing: false, error: `The variants could not be counted: ${errorText(error)}` });
    }
  },

  seal(run, rows, share = DEFAULT_SEAL_SHARE, seed = Math.floor(Math.random() * 2 ** 31)) {
    const setKey = labelledSetKey(ledgerRunOf(run));
    const strata = sealStrata(alignRowsOf(rows), Object.keys(run.questions));
    try {
      useSessions
        .getState()
        .updateLedger((ledger) => sealSet(ledger, setKey, strata, share, seed, new Date().toISOString()));
      set({ confirmation: null, error: null });
    } catch (error) {
      set({ error: errorText(error) });
    }
  },

  async confirm(run, rows, runs, variantId) {
    const id = ++confirmSeq;
    const members = familyRuns(run, runs);
    const base = members[0];
    const chosen = members.find((m) => m.id === variantId);
    const seal = sealOfRun(run);
    if (!base || !chosen || chosen.id === base.id || !seal) return;
    const setKey = labelledSetKey(ledgerRunOf(base));
    const at = new Date().toISOString();
    useSessions
      .getState()
      .updateLedger((ledger) => recordVariant(ledger, ledgerEntryOf(ledgerRunOf(chosen), 'confirm', at)));
    const ledger = useSessions.getState().open?.ledger;
    // Every variant confirmed so far and still stored is computed with the chosen one, so their correlation counts.
    const confirmedIds = new Set(
      (ledger?.entries ?? [])
        .filter((e) => e.setKey === setKey && e.purpose === 'confirm')
        .map((e) => e.runId),
    );
    const confirmed = members.filter(
      (m) => m.id !== base.id && (confirmedIds.has(m.id) || m.id === chosen.id),
    );
    set({ confirming: true });
    try {
      const all = (await rowsOfRuns(run, rows, [base, ...confirmed])).map((r) => bySeal(r, seal, 'sealed'));
      const count = familyCount(ledger, setKey, variantKeyOf(base), confirmed.map(variantKeyOf), 'confirm');
      const families = await computerOf().family({
        kind: 'family',
        base: packed(base, all[0]!),
        variants: confirmed.map((m, k) => packed(m, all[k + 1]!)),
        tried: count.tried,
        options: {},
      });
      if (id === confirmSeq)
        set({
          confirming: false,
          confirmation: {
            variantId,
            confirmations: Math.max(count.tried, ledger ? variantsTried(ledger, setKey, 'confirm') : 0),
            families,
          },
        });
    } catch (error) {
      if (id === confirmSeq)
        set({ confirming: false, error: `The sealed rows could not be read: ${errorText(error)}` });
    }
  },
}));
