// The robustness check: what to check and how hard, the budget before anything is sent, the run's progress, and one
// card per question. The check's logic is src/core/robustness; its state is robustnessStore.
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { EvaluateRequest } from '../../../contract';
import { defaultOrderCount } from '../../../core/robustness/orders';
import type { RowRun } from '../../../core/rows/records';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';
import { CheckRunStatus } from './CheckRunStatus';
import { CheckSettingsFields } from './CheckSettingsFields';
import { CheckSourceFields } from './CheckSourceFields';
import { RobustnessReportView } from './RobustnessReportView';
import { DEFAULT_SAMPLE, planKeyOf, useRobustness } from './robustnessStore';
import type { CheckSettings, CheckSource } from './robustnessStore';
import { useCheckSource } from './useCheckSource';
import './robustness.css';

export interface RobustnessDialogProps {
  request: EvaluateRequest | null;
  targetId: string;
  onClose: () => void;
}

/** Waits this long after the last change of a setting before planning again (planning hashes every request). */
const PLAN_DEBOUNCE_MS = 200;

/** Shows the dialog as a modal while mounted (and reads the file runs), and gives focus back when it goes. */
function useShownModal(ref: RefObject<HTMLDialogElement | null>): void {
  useLayoutEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement as HTMLElement | null;
    // jsdom has no showModal; the dialog is then drawn in place.
    if (dialog && typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal();
    void useRows.getState().refreshRuns();
    return () => {
      if (dialog?.open) dialog.close();
      before?.focus?.();
    };
  }, [ref]);
}

/** Plans the check again a moment after the source or settings change, and after a run, while nothing runs. */
function usePlanAhead(source: CheckSource | null, settings: CheckSettings, running: boolean): void {
  const { prepare } = useRobustness.getState();
  useEffect(() => {
    if (running || !source) return;
    const timer = setTimeout(() => void prepare(source), PLAN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `running` flips back after a run: plan again so the budget shows what is now stored.
  }, [source, settings, running, prepare]);
}

export function RobustnessDialog({ request, targetId, onClose }: RobustnessDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const { settings, phase, ready, progress, error, notice } = useRobustnessView();
  const { setSettings, run, cancel } = useRobustness.getState();
  const rowRuns = useRows((s) => s.runs);
  const [sourceKind, setSourceKind] = useState<'state' | 'rows'>('state');
  const [runId, setRunId] = useState<string>('');
  const [sample, setSample] = useState(DEFAULT_SAMPLE);
  useShownModal(ref);

  const chosenRun = rowRuns.find((r) => r.id === runId) ?? rowRuns[0];
  const running = phase === 'running';
  const { source, targetLabelOf } = useCheckSource({ sourceKind, request, targetId, chosenRun, sample });
  // What the plan must have been made for before Run may send it: the screen as it is now.
  const planKey = source ? planKeyOf(source, settings) : null;
  usePlanAhead(source, settings, running);

  const questions = sourceKind === 'state' ? request?.questions : chosenRun?.questions;
  const unavailable = unavailableText(sourceKind, request, chosenRun);
  // A plan made for another target, model, request or setting (the debounce has not planned again yet) never runs.
  const current = ready !== null && planKey !== null && ready.planKey === planKey;
  const report = useShownReport();
  // A report made for another request (or sample) than the one planned now says so, instead of passing for its check.
  const stale =
    report?.requestKey !== undefined && ready !== null && !running && report.requestKey !== ready.requestKey;

  return (
    <dialog
      ref={ref}
      className="robustness-dialog"
      aria-labelledby={`${ids}-title`}
      data-testid="robustness.dialog"
      onClose={onClose}
      onCancel={(e) => {
        // Escape while a check runs closes the dialog; the check goes on and its report still lands in the session.
        e.preventDefault();
        onClose();
      }}
    >
      <DialogHead titleId={`${ids}-title`} onClose={onClose} />
      <CheckSourceFields
        name={`${ids}-source`}
        sourceKind={sourceKind}
        onSourceKind={setSourceKind}
        rowRuns={rowRuns}
        chosenRun={chosenRun}
        onRunId={setRunId}
        sample={sample}
        onSample={setSample}
        running={running}
        targetLabelOf={targetLabelOf}
      />
      <CheckSettingsFields
        settings={settings}
        onSettings={setSettings}
        autoOrders={questions ? defaultOrderCount(questions) : 1}
        running={running}
      />
      <CheckRunStatus
        unavailable={unavailable}
        ready={ready}
        current={current}
        canRun={!unavailable && phase === 'ready' && current}
        running={running}
        progress={progress}
        onRun={() => planKey !== null && void run(planKey)}
        onCancel={cancel}
        targetLabelOf={targetLabelOf}
      />
      {error && (
        <p role="alert" className="robustness-dialog__error">
          {error}
        </p>
      )}
      {notice && <p role="note">{notice}</p>}
      {report && <RobustnessReportView report={report} stale={stale} />}
    </dialog>
  );
}

/** The parts of the check's state the dialog draws, each read on its own so a change elsewhere redraws nothing. */
function useRobustnessView() {
  const settings = useRobustness((s) => s.settings);
  const phase = useRobustness((s) => s.phase);
  const ready = useRobustness((s) => s.ready);
  const progress = useRobustness((s) => s.progress);
  const error = useRobustness((s) => s.error);
  const notice = useRobustness((s) => s.notice);
  return { settings, phase, ready, progress, error, notice };
}

/** The report shown: the one just made and not yet saved, else the one kept in the session. */
function useShownReport() {
  const saved = useSessions((s) => s.open?.robustness);
  const local = useRobustness((s) => (s.unsaved ? s.report : null));
  return local ?? saved;
}

/** The dialog's title, its Close, and what the check sends. */
function DialogHead({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  return (
    <>
      <header className="robustness-dialog__head">
        <h2 id={titleId}>Is the answer stable?</h2>
        <button type="button" onClick={onClose} data-testid="robustness.close">
          Close
        </button>
      </header>
      <p className="muted">
        Sends the same questions with the choice options in other orders (score levels never move), the same
        request several times, and the state with only its spacing, casing or field order changed. A move of
        more than the threshold is flagged.
      </p>
    </>
  );
}

/** Why there is nothing to check, or null. */
function unavailableText(
  sourceKind: 'state' | 'rows',
  request: EvaluateRequest | null,
  chosenRun: RowRun | undefined,
): string | null {
  return sourceKind === 'state' && !request
    ? 'The request on screen has errors: fix the problems listed under the editors, then check it.'
    : sourceKind === 'rows' && !chosenRun
      ? 'There is no file run yet: import a file under Rows first.'
      : null;
}
