// The alignment screen: how the judge's answers on a labelled run agree with people's labels, per question (with n
// and 95% intervals), how calibrated its probabilities are, the confident mistakes, labelling in the app, and
// variants compared row by row. Wiring only: the figures are computed in src/core/alignment, in a worker.
import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import type { Question } from '../../../contract';
import { planLabelTake } from '../../../core/alignment/sessionLabels';
import type { ResultRow } from '../../../core/rows/results';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';
import { NO_FILTER } from '../../../core/rows/results';
import { docOfRow } from '../../../core/rows/rowDoc';
import { readAddressParam, writeAddressParam } from '../../platform/address';
import { useRowsView } from '../../stores/rowsView';
import { useWorkbench } from '../../stores/workbench';
import { variantPlan } from '../../../core/rows/variantPlan';
import { useSessionQuestions } from '../../stores/sessionQuestions';
import { LabellingView } from './LabellingView';
import { labelOfRow } from './rowText';
import { QuestionPanel } from './QuestionPanel';
import type { RowsWanted } from './QuestionPanel';
import { VariantsPanel, familyOf } from './VariantsPanel';
import { useAlignment } from './alignmentStore';
import { useVariantFamily } from './variantFamilyStore';
import { ReportButtons } from './ReportButtons';
import { StoredReport } from './StoredReport';
import { TakeLabels } from './TakeLabels';
import './alignment.css';

/** Pause after the last change (a label, an answer, the threshold) before the figures are computed again. */
const RECOMPUTE_DEBOUNCE_MS = 300;

/** The address parameter that keeps the open run, so a reload comes back to it. */
const RUN_PARAM = 'run';
const RunIdParam = z.string().trim().min(1).max(200);

/** The run the address names, or null. */
const runFromAddress = (): string | null => {
  const parsed = RunIdParam.safeParse(readAddressParam(RUN_PARAM));
  return parsed.success ? parsed.data : null;
};

export interface AlignmentScreenProps {
  targetId: string;
  /** The target's price per million input tokens (null: it states none), for what a variant would cost. */
  inputPrice?: number | null;
  /** Shows the main screen (after a row was put there as the state). */
  onOpenInWorkbench: () => void;
  /** Shows the rows screen (after a filter of the open run was set there). */
  onOpenRows: () => void;
}

export function AlignmentScreen({
  targetId,
  inputPrice: price,
  onOpenInWorkbench,
  onOpenRows,
}: AlignmentScreenProps) {
  const rows = useRows();
  const align = useAlignment();
  const session = useSessionQuestions();
  const sessionId = useSessions((s) => s.openId);
  const stored = useSessions((s) => s.open?.alignment);
  const run = rows.openRun;
  const version = rows.resultsVersion;
  const optionsKey = JSON.stringify(align.options);
  const { compute } = align;

  useEffect(() => {
    void useRows.getState().refreshRuns();
  }, []);

  // The open run is part of where the user is: kept in the address, and opened again after a reload.
  // Read once, before any effect writes the address.
  const [wanted] = useState(runFromAddress);
  useEffect(() => {
    const state = useRows.getState();
    if (wanted && !state.openRun && !state.running) void state.openRunById(wanted);
  }, [wanted]);
  const runId = run?.id ?? null;
  useEffect(() => {
    // While the run named by the address is being read, the address keeps it.
    if (runId || !useRows.getState().loadingRun) writeAddressParam(RUN_PARAM, runId);
  }, [runId]);
  useEffect(() => () => writeAddressParam(RUN_PARAM, null), []);

  useEffect(() => {
    if (!run) return;
    const timer = setTimeout(
      () => void compute(run, useRows.getState().results(), version),
      RECOMPUTE_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [run, version, optionsKey, compute]);

  // The comparison follows the open run's answers too (a variant compared while it ran), once the run has paused.
  const { compareWith, compare: compareRuns } = align;
  const running = rows.running;
  // Only a run of the same rows: a choice left from another run's family is not compared.
  const related = !!run && !!compareWith && familyOf(run, rows.runs).some((r) => r.id === compareWith);
  useEffect(() => {
    if (!run || !compareWith || !related || running) return;
    const timer = setTimeout(() => {
      const state = useRows.getState();
      void compareRuns(run, state.results(), compareWith, state.resultsVersion);
    }, RECOMPUTE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [run, version, optionsKey, running, compareWith, related, compareRuns]);

  // Every run of a labelled set that has been run is counted in the session's ledger (a deleted run stays counted).
  const answered = (rows.progress?.done ?? 0) + (rows.progress?.reused ?? 0) > 0;
  const labelled =
    !!run &&
    (!!run.mapping.labels?.length ||
      (align.reportOf?.runId === run.id && Object.keys(align.report?.questions ?? {}).length > 0));
  const record = useVariantFamily((s) => s.record);
  useEffect(() => {
    if (run && labelled) record(run, rows.runs, answered);
  }, [run, rows.runs, answered, labelled, sessionId, record]);

  const results = run ? rows.results() : [];
  const byNumber = useMemo(() => {
    void version;
    return new Map(
      useRows
        .getState()
        .results()
        .map((r) => [r.number, r]),
    );
  }, [version]);
  const report = align.report && align.reportOf?.runId === run?.id ? align.report : null;
  // What a variant would send, said before it runs: an alias reuses nothing.
  const sessionQuestions = session.questions;
  const sessionModel = session.model;
  const variantSends = useMemo(() => {
    void version;
    if (!run || !sessionQuestions) return null;
    const base = { questions: run.questions, targetId: run.targetId, rows: useRows.getState().results() };
    const plan = variantPlan(base, { questions: sessionQuestions, model: sessionModel, targetId }, price);
    return { plan, model: sessionModel, targetId };
  }, [run, version, sessionQuestions, sessionModel, targetId, price]);
  const keptLabels = stored?.labels;
  const takePlan = useMemo(() => {
    void version;
    return run && keptLabels?.length
      ? planLabelTake(keptLabels, useRows.getState().results(), run.questions)
      : null;
  }, [run, keptLabels, version]);

  // A row opens as the run asked it (its questions, model and target) in a new session: the one open until now stays
  // in the sessions list as it was, and the notice says so.
  const openRow = async (row: ResultRow) => {
    if (!run) return;
    const doc = docOfRow(row.data, run);
    if (doc === null) return;
    const before = useSessions.getState().open?.name;
    await useSessions
      .getState()
      .openNewSession(
        doc,
        `Row ${row.id} of ${run.fileName}`,
        `Row ${row.id} of ${run.fileName} is open in a new session, with the run’s questions, model (${run.model}) and target (${run.targetId}).${before ? ` “${before}” is unchanged in the sessions list.` : ''}`,
      );
    onOpenInWorkbench();
  };

  // Every row of a cell, or every disagreement, in the rows screen: the report keeps only the first of them.
  const openRows = (question: string, wanted: RowsWanted) => {
    if (!run) return;
    useRowsView.getState().setFilter(run.id, {
      ...NO_FILTER,
      agreement: {
        question,
        ...wanted,
        scorePrediction: align.options.scorePrediction,
        threshold: align.options.noulThresholds[question] ?? 0.5,
      },
    });
    onOpenRows();
  };

  // A cascade's next judge: the session's model at the chosen target, asked only about the rows this judge abstains on.
  const escalate = async (question: string, numbers: number[], threshold: number | null) => {
    if (!run) return;
    const id = await rows.createVariant({
      questions: run.questions,
      model: session.model,
      targetId,
      ...(sessionId ? { sessionId } : {}),
      onlyRows: numbers,
      escalatedFrom: { runId: run.id, question, threshold },
    });
    if (id) void useRows.getState().start();
  };

  const runVariant = async () => {
    if (!session.questions) return;
    const id = await rows.createVariant({
      questions: session.questions,
      model: session.model,
      targetId,
      ...(sessionId ? { sessionId } : {}),
    });
    if (id) void useRows.getState().start();
  };

  if (!run) {
    return (
      <div className="align-screen" data-testid="align.screen">
        <section className="panel">
          <h2>Alignment with human labels</h2>
          {rows.loadingRun && <p role="status">Opening the run…</p>}
          <p>
            Open a run of rows to measure its answers against people’s labels. Map a label column when you
            import the file on the rows screen, or label rows here.
          </p>
          {rows.runs.length > 0 ? (
            <ul className="align-runs">
              {rows.runs.map((r) => (
                <li key={r.id}>
                  <button
                    type="button"
                    onClick={() => void rows.openRunById(r.id)}
                    data-testid="align.run.open"
                  >
                    {r.fileName}
                  </button>{' '}
                  <span className="muted">
                    {r.rowCount} rows · {r.model} · {new Date(r.createdAt).toLocaleString()}
                    {r.variantOf ? ' · variant' : ''}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No run is stored yet.</p>
          )}
        </section>
        {stored && <StoredReport summary={stored} />}
      </div>
    );
  }

  const names = Object.keys(run.questions);
  const labelQuestion =
    align.labelQuestion && names.includes(align.labelQuestion) ? align.labelQuestion : names[0]!;
  const unlabelled = names.filter((n) => !report?.questions[n]);
  // With other runs of the same rows to compare with, the comparison comes first, above every question's mistakes.
  const variantsFirst = familyOf(run, rows.runs).length > 0;
  // A comparison is shown only of the pair chosen and of the answers on screen: one of an earlier moment (a variant
  // just finished, its rows not yet compared) would read "0 rows answered by both runs".
  const comparedNow =
    align.comparisonOf !== null &&
    align.comparisonOf.runId === run.id &&
    align.comparisonOf.otherId === align.compareWith &&
    align.comparisonOf.version === version;
  const comparingText =
    align.compareWith === null || !related || (comparedNow && !align.comparing)
      ? null
      : rows.running
        ? 'The comparison is computed once the run stops.'
        : 'Comparing…';
  const variantsPanel = (
    <VariantsPanel
      run={run}
      runs={rows.runs}
      compareWith={align.compareWith}
      comparison={comparedNow ? align.comparison : null}
      comparing={comparingText}
      onCompare={(id) => {
        const state = useRows.getState();
        void align.compare(run, state.results(), id, state.resultsVersion);
      }}
      onRunVariant={() => void runVariant()}
      blocked={session.problem ?? (rows.running ? 'A run is going on.' : null)}
      plan={variantSends}
      onPin={(model) => useWorkbench.getState().setModel(model)}
    />
  );
  return (
    <div className="align-screen" data-testid="align.screen">
      <header className="align-header">
        <div>
          <h2 data-testid="align.title">
            {run.fileName}
            {run.variantOf ? ' (variant)' : ''}
          </h2>
          {run.escalatedFrom && (
            <p className="muted" data-testid="align.cascade.next">
              The next judge of a cascade: it was asked only about the rows the run before abstained on for “
              {run.escalatedFrom.question}”.{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => void rows.openRunById(run.escalatedFrom!.runId)}
                data-testid="align.cascade.first"
              >
                Open the cascade from its first judge
              </button>
            </p>
          )}
          <span className="muted">
            {run.rowCount} rows · model <code>{run.model}</code> · target {run.targetId}
            {rows.progress ? ` · ${rows.progress.done + rows.progress.reused} answered` : ''}
            {rows.running ? ' · running' : ''}
            {align.computing ? ' · computing…' : ''}
          </span>
        </div>
        <div className="align-header__actions">
          {!rows.running && !rows.watching && rows.progress && rows.progress.pending > 0 && (
            <button type="button" onClick={() => void rows.start()} data-testid="align.run.start">
              Run the {rows.progress.pending.toLocaleString('en-US')} unanswered row
              {rows.progress.pending === 1 ? '' : 's'}
            </button>
          )}
          {rows.running && (
            <button type="button" onClick={rows.pause}>
              Pause
            </button>
          )}
          <button type="button" disabled={rows.running} onClick={rows.closeRun}>
            Another run
          </button>
        </div>
      </header>
      {(rows.error || align.error) && (
        <p role="alert" className="rows-message rows-message--error">
          {rows.error ?? align.error}
        </p>
      )}
      {takePlan && stored && (
        <TakeLabels
          key={run.id}
          plan={takePlan}
          keptRows={keptLabels?.length ?? 0}
          fileName={stored.run.fileName}
          onTake={(changes) => rows.setLabels(changes)}
        />
      )}
      <nav className="align-views" aria-label="Alignment views">
        <button
          type="button"
          aria-pressed={align.view === 'figures'}
          onClick={() => align.setView('figures')}
          data-testid="align.view.figures"
        >
          Figures
        </button>
        <button
          type="button"
          aria-pressed={align.view === 'label'}
          onClick={() => align.setView('label')}
          data-testid="align.view.label"
        >
          Label rows
        </button>
      </nav>
      {align.view === 'label' ? (
        <>
          <label>
            Question to label{' '}
            <select
              value={labelQuestion}
              onChange={(e) => align.setLabelQuestion(e.currentTarget.value)}
              data-testid="align.labelling.question"
            >
              {names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <LabellingView
            key={`${run.id}:${labelQuestion}`}
            question={labelQuestion}
            definition={run.questions[labelQuestion] as Question}
            rows={results}
            mapping={run.mapping}
            revealed={align.revealed}
            onReveal={align.setRevealed}
            labeller={align.labeller}
            onLabeller={align.setLabeller}
            onLabel={(number, value) => {
              // With a name, the label and its undo are that labeller's own: another's is never touched.
              const annotator = align.labeller || undefined;
              const row = byNumber.get(number);
              const previous = (row && labelOfRow(row, labelQuestion, align.labeller)) ?? null;
              align.pushStep({
                number,
                question: labelQuestion,
                previous,
                ...(annotator ? { annotator } : {}),
              });
              void rows.setLabel(number, labelQuestion, value, annotator);
            }}
            onUndo={() => {
              const step = align.popStep();
              if (!step) return null;
              void rows.setLabel(step.number, step.question, step.previous, step.annotator);
              return step.number;
            }}
          />
        </>
      ) : (
        <>
          <div className="align-options">
            <label>
              Score prediction{' '}
              <select
                value={align.options.scorePrediction}
                onChange={(e) =>
                  align.setScorePrediction(e.currentTarget.value as 'mostProbable' | 'expectedRounded')
                }
              >
                <option value="mostProbable">most probable level</option>
                <option value="expectedRounded">expected score, rounded</option>
              </select>
            </label>
            <ReportButtons run={run} report={report} rowIdOf={(id) => byNumber.get(Number(id))?.id ?? id} />
          </div>
          {variantsFirst && variantsPanel}
          {!report && <p role="status">Computing the figures…</p>}
          {report &&
            names
              .filter((n) => report.questions[n])
              .map((n) => (
                <QuestionPanel
                  key={n}
                  report={report.questions[n]!}
                  definition={run.questions[n] as Question}
                  mapping={run.mapping}
                  rowOf={(number) => byNumber.get(number)}
                  cell={align.cell}
                  onCell={align.openCell}
                  threshold={align.options.noulThresholds[n] ?? 0.5}
                  onThreshold={(v) => align.setThreshold(n, v)}
                  onOpenRow={(row) => void openRow(row)}
                  onOpenRows={(wanted) => openRows(n, wanted)}
                  bootstrap={report.bootstrap}
                  fileBase={run.fileName.replace(/\.[^.]+$/, '') || 'rows'}
                  escalation={{
                    nextJudge: rows.running || !session.model ? null : `${session.model} at ${targetId}`,
                    onEscalate: (q, numbers, threshold) => void escalate(q, numbers, threshold),
                  }}
                />
              ))}
          {report && unlabelled.length > 0 && (
            <p className="muted" data-testid="align.unlabelled">
              No labels yet for {unlabelled.map((n) => `“${n}”`).join(', ')}: label rows in the app to measure
              them.
            </p>
          )}
          {report && (
            <details className="panel">
              <summary>Conventions of these figures</summary>
              <ul>
                {report.conventions.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </details>
          )}
          {!variantsFirst && variantsPanel}
        </>
      )}
    </div>
  );
}
