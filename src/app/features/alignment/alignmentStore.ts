// What the user does on the alignment screen: the conventions chosen (noul thresholds, score prediction), the figures
// of the open run and of its comparison with a variant, the confusion cell opened, and the labelling session with
// its undo history. Kept next to its feature, like the taxonomy screen's store, because nothing else reads it.
import { create } from 'zustand';
import type { Questions } from '../../../contract';
import { PRICE_PER_MILLION_INPUT_TOKENS } from '../../../contract';
import type { AlignmentReport } from '../../../core/alignment/compute';
import { alignTableOf, packTable } from '../../../core/alignment/table';
import type { Seal } from '../../../core/alignment/ledger';
import type { AlignTable } from '../../../core/alignment/table';
import type { AlignRow, AlignmentOptions, LabelValue } from '../../../core/alignment/types';
import { TRUST_OPTION_DEFAULTS } from '../../../core/alignment/types';
import type { VariantComparison } from '../../../core/alignment/variants';
import type { RowRun } from '../../../core/rows/records';
import type { ResultRow } from '../../../core/rows/results';
import { appDb } from '../../persistence/db';
import { RowsRepo } from '../../persistence/rowsRepo';
import { useRows } from '../../stores/rows';
import { createAlignmentComputer } from './alignmentComputer';
import type { AlignmentComputer } from './alignmentComputer';
import { bySeal, sealOfRun } from './sealedRows';
import { errorText } from '../../../contract/text';

/** Rows as the figures see them: keyed by row number (unique, and the same in a variant), labels and answers. */
export function alignRowsOf(rows: readonly ResultRow[]): AlignRow[] {
  return rows.map((r) => ({
    id: String(r.number),
    labels: r.labels ?? {},
    ...(r.annotations ? { annotations: r.annotations } : {}),
    ...(r.response ? { answers: r.response.answers } : {}),
  }));
}

/** The table of a run's rows the worker computes on. */
export const alignTableOfResults = (questions: Questions, rows: readonly ResultRow[]): AlignTable =>
  alignTableOf(questions, alignRowsOf(rows));

/** One confusion cell opened: the rows labelled `truth` that the judge answered `predicted`. */
export interface OpenCell {
  question: string;
  truth: number;
  predicted: number;
}

/** One label given in the labelling view, with what it replaced, for Backspace: the labeller's own when named. */
export interface LabelStep {
  number: number;
  question: string;
  previous: LabelValue | null;
  annotator?: string;
}

export interface AlignmentState {
  options: Pick<AlignmentOptions, 'scorePrediction' | 'noulThresholds'> & {
    trust: NonNullable<AlignmentOptions['trust']>;
  };
  report: AlignmentReport | null;
  /** The answers of the cascade's later judges (runs escalated from this one), by row id, for its export. */
  cascadeRows: { label: string; byId: Map<string, AlignRow> }[];
  /** The run the report is of, and the results version it was computed from. */
  reportOf: { runId: string; version: number; key: string } | null;
  computing: boolean;
  error: string | null;
  cell: OpenCell | null;
  compareWith: string | null;
  comparison: VariantComparison | null;
  /** The pair and the open run's results version the comparison was computed from: shown only while they hold. */
  comparisonOf: { runId: string; otherId: string; version: number } | null;
  comparing: boolean;
  view: 'figures' | 'label';
  labelQuestion: string | null;
  revealed: boolean;
  /** The labeller's name ('' for none): labels given are theirs, and the view is blind. Kept for the page's life. */
  labeller: string;
  history: LabelStep[];

  setScorePrediction: (p: AlignmentOptions['scorePrediction']) => void;
  setThreshold: (question: string, value: number) => void;
  /** The alt-test's margin and the guaranteed threshold's alpha and delta, for every question. */
  setTrust: (trust: Partial<NonNullable<AlignmentOptions['trust']>>) => void;
  openCell: (cell: OpenCell | null) => void;
  setView: (view: 'figures' | 'label') => void;
  setLabelQuestion: (question: string | null) => void;
  setRevealed: (revealed: boolean) => void;
  /** Sets the labeller's name (trimmed); another labeller starts with an empty undo history. */
  setLabeller: (name: string) => void;
  pushStep: (step: LabelStep) => void;
  popStep: () => LabelStep | null;
  /** Computes the open run's figures (in the worker); a newer call wins. */
  compute: (run: RowRun, rows: readonly ResultRow[], version: number) => Promise<void>;
  /** Compares the open run (B), its rows at results `version`, with another stored run of the same rows (A). */
  compare: (
    run: RowRun,
    rows: readonly ResultRow[],
    otherId: string | null,
    version: number,
  ) => Promise<void>;
}

let computer: AlignmentComputer | null = null;
/** The computer every figure of the screen goes through (a worker where one starts). */
export const computerOf = (): AlignmentComputer => (computer ??= createAlignmentComputer());
/** Puts another computer in its place (a test records what reaches the worker); null makes a new one on next use. */
export const replaceAlignmentComputer = (next: AlignmentComputer | null): void => {
  computer = next;
};
let seq = 0;
let compareSeq = 0;

/**
 * The open run's table, kept for its results version: moving the threshold or a setting computes again from the same
 * rows, so the page does not rebuild 100,000 rows' table on the main thread for it.
 */
let lastTable: {
  runId: string;
  version: number;
  questions: Questions;
  seal: Seal | undefined;
  table: AlignTable;
} | null = null;
function tableOfRun(
  run: RowRun,
  rows: readonly ResultRow[],
  version: number,
  seal: Seal | undefined,
): AlignTable {
  // The rows array is updated in place as answers and labels arrive: the results version says when it changed.
  const same =
    lastTable?.runId === run.id &&
    lastTable.version === version &&
    lastTable.questions === run.questions &&
    lastTable.seal === seal;
  if (!same)
    lastTable = {
      runId: run.id,
      version,
      questions: run.questions,
      seal,
      // Sealed rows never reach the figures of the screen where variants are compared: their labels stay unseen.
      table: alignTableOfResults(run.questions, bySeal(rows, seal, 'open')),
    };
  return lastTable!.table;
}

/** A judge as the cascade names it: its model at its target. */
export const judgeLabel = (run: RowRun): string => `${run.model} at ${run.targetId}`;

/** What one answered row cost at a run's price (null price: unknown, counted as 0), from the tokens it billed. */
export function pricePerRow(run: RowRun, tokens: readonly number[]): number {
  const price = run.inputPrice === undefined ? PRICE_PER_MILLION_INPUT_TOKENS : (run.inputPrice ?? 0);
  if (tokens.length === 0) return 0;
  return (tokens.reduce((a, b) => a + b, 0) / tokens.length / 1e6) * price;
}

/** The runs escalated one from the other starting at `run`: a cascade's judges after the first. */
export function escalationChain(run: RowRun, runs: readonly RowRun[]): RowRun[] {
  const chain: RowRun[] = [];
  let from = run.id;
  for (;;) {
    const next = runs.find((r) => r.escalatedFrom?.runId === from && !chain.includes(r));
    if (!next) return chain;
    chain.push(next);
    from = next.id;
  }
}

/** Reads a stored run's rows and answers as figure rows (a variant to compare with). */
export async function loadRun(id: string): Promise<{ run: RowRun; rows: AlignRow[]; pricePerRow: number }> {
  const repo = new RowsRepo(appDb());
  const run = await repo.getRun(id);
  if (!run) throw new Error('That run is no longer stored.');
  const { items } = await repo.loadItems(id);
  const answers = await repo.answers(
    items.flatMap((i) => (i.outcome?.answerKey ? [i.outcome.answerKey] : [])),
  );
  const billed = items.flatMap((i) =>
    i.outcome?.status === 'done' ? [i.outcome.inputTokens ?? i.tokens] : [],
  );
  return {
    run,
    pricePerRow: pricePerRow(run, billed),
    rows: items.map((i) => {
      const answer = i.outcome?.answerKey ? answers.get(i.outcome.answerKey) : undefined;
      return {
        id: String(i.number),
        labels: i.labels ?? {},
        ...(i.annotations ? { annotations: i.annotations } : {}),
        ...(answer ? { answers: answer.response.answers } : {}),
      };
    }),
  };
}

export const useAlignment = create<AlignmentState>()((set, get) => ({
  options: { scorePrediction: 'mostProbable', noulThresholds: {}, trust: { ...TRUST_OPTION_DEFAULTS } },
  report: null,
  cascadeRows: [],
  reportOf: null,
  computing: false,
  error: null,
  cell: null,
  compareWith: null,
  comparison: null,
  comparisonOf: null,
  comparing: false,
  view: 'figures',
  labelQuestion: null,
  revealed: false,
  labeller: '',
  history: [],

  setScorePrediction: (scorePrediction) => set((s) => ({ options: { ...s.options, scorePrediction } })),
  setThreshold: (question, value) =>
    set((s) => ({
      options: { ...s.options, noulThresholds: { ...s.options.noulThresholds, [question]: value } },
    })),
  setTrust: (trust) => set((s) => ({ options: { ...s.options, trust: { ...s.options.trust, ...trust } } })),
  openCell: (cell) => set({ cell }),
  setView: (view) => set({ view }),
  setLabelQuestion: (labelQuestion) => set({ labelQuestion, revealed: false }),
  setRevealed: (revealed) => set({ revealed }),
  setLabeller: (name) => {
    const labeller = name.trim();
    // Backspace never undoes a label another labeller gave.
    if (labeller !== get().labeller) set({ labeller, history: [] });
  },
  pushStep: (step) => set((s) => ({ history: [...s.history.slice(-199), step] })),
  popStep: () => {
    const h = get().history;
    const last = h[h.length - 1] ?? null;
    if (last) set({ history: h.slice(0, -1) });
    return last;
  },

  async compute(run, rows, version) {
    const key = JSON.stringify(get().options);
    const id = ++seq;
    set({ computing: true });
    try {
      const seal = sealOfRun(run);
      const table = tableOfRun(run, rows, version, seal);
      // A cascade: this run's judge first, then each run escalated from the one before (the rows it abstained on).
      const chain = escalationChain(run, useRows.getState().runs);
      const later = await Promise.all(chain.map((r) => loadRun(r.id)));
      const own = rows.flatMap((r) => (r.outcome?.status === 'done' ? [r.outcome.inputTokens ?? 0] : []));
      const cascade =
        later.length === 0
          ? undefined
          : {
              lastAnswersAll: false,
              judges: [
                { label: judgeLabel(run), price: pricePerRow(run, own), table: packTable(table) },
                ...later.map((l) => ({
                  label: judgeLabel(l.run),
                  price: l.pricePerRow,
                  table: packTable(alignTableOf(run.questions, bySeal(l.rows, seal, 'open'))),
                })),
              ],
            };
      const judgeRows = later.map((l) => ({
        label: judgeLabel(l.run),
        byId: new Map(bySeal(l.rows, seal, 'open').map((r) => [r.id, r])),
      }));
      const report = await computerOf().report({
        kind: 'report',
        questions: run.questions,
        table: packTable(table),
        options: get().options,
        ...(cascade ? { cascade } : {}),
      });
      if (id === seq)
        set({
          report,
          reportOf: { runId: run.id, version, key },
          computing: false,
          error: null,
          cascadeRows: judgeRows,
        });
    } catch (error) {
      if (id === seq)
        set({ computing: false, error: `The figures could not be computed: ${errorText(error)}` });
    }
  },

  async compare(run, rows, otherId, version) {
    const id = ++compareSeq;
    // The same pair computed again (the open run's answers moved on) keeps the figures on screen until the new ones.
    const same = get().compareWith === otherId && get().comparison !== null;
    set({ compareWith: otherId, comparing: otherId !== null, ...(same ? {} : { comparison: null }) });
    if (!otherId) return;
    try {
      const other = await loadRun(otherId);
      // Variants are compared on the open rows only: the sealed ones are kept for confirming.
      const seal = sealOfRun(run);
      const comparison = await computerOf().compare({
        kind: 'compare',
        a: {
          questions: other.run.questions,
          table: packTable(alignTableOf(other.run.questions, bySeal(other.rows, seal, 'open'))),
        },
        b: { questions: run.questions, table: packTable(tableOfRun(run, rows, version, seal)) },
        options: get().options,
      });
      if (id === compareSeq)
        set({ comparison, comparisonOf: { runId: run.id, otherId, version }, comparing: false });
    } catch (error) {
      if (id === compareSeq)
        set({ comparing: false, error: `The runs could not be compared: ${errorText(error)}` });
    }
  },
}));
