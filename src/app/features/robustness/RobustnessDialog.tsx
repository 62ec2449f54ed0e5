// The robustness check: what to check and how hard, the budget before anything is sent, the run's progress, and one
// card per question. The check's logic is src/core/robustness; its state is robustnessStore.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { EvaluateRequest } from '../../../contract';
import { estimateCost } from '../../../contract';
import { formatCost } from '../../../contract';
import { defaultOrderCount, MAX_ORDERS } from '../../../core/robustness/orders';
import { MAX_REPEATS } from '../../../core/robustness/plan';
import { VARIANT_KINDS, VARIANT_LABELS } from '../../../core/robustness/variants';
import { identicalLine } from '../../../core/robustness/verdict';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';
import { useWorkbench } from '../../stores/workbench';
import { CommitInput } from '../../components/CommitInput';
import { RobustnessCardView } from './RobustnessCardView';
import type { RobustnessReport } from '../../../core/robustness/card';
import { pacingFor } from '../../../core/rows/pacer';
import { targetsQueryOptions } from '../../queries/targets';
import { DEFAULT_SAMPLE, MAX_SAMPLE, planKeyOf, useRobustness } from './robustnessStore';
import type { CheckSource } from './robustnessStore';
import './robustness.css';
import { LOCAL_COST_WORDS } from '../../../core/words';

export interface RobustnessDialogProps {
  request: EvaluateRequest | null;
  targetId: string;
  onClose: () => void;
}

/** Waits this long after the last change of a setting before planning again (planning hashes every request). */
const PLAN_DEBOUNCE_MS = 200;

/** Commits a whole number within [min, max], or says which numbers are allowed. */
const wholeIn =
  (min: number, max: number, apply: (n: number) => void) =>
  (text: string): string | null => {
    const n = Number(text.trim());
    if (!Number.isInteger(n) || n < min || n > max) return `A whole number from ${min} to ${max}.`;
    apply(n);
    return null;
  };

/** What a report's answers billed, at the price it was costed at (older reports: the published price). */
function billedText(report: RobustnessReport): string {
  if (report.inputPrice === null) return `${report.billedTokens} input tokens (price unknown)`;
  return `about ${formatCost(estimateCost(report.billedTokens, report.inputPrice))}`;
}

export function RobustnessDialog({ request, targetId, onClose }: RobustnessDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const settings = useRobustness((s) => s.settings);
  const phase = useRobustness((s) => s.phase);
  const ready = useRobustness((s) => s.ready);
  const progress = useRobustness((s) => s.progress);
  const error = useRobustness((s) => s.error);
  const notice = useRobustness((s) => s.notice);
  const { setSettings, prepare, run, cancel } = useRobustness.getState();
  const saved = useSessions((s) => s.open?.robustness);
  const lastRun = useWorkbench((s) => s.current);
  const rowRuns = useRows((s) => s.runs);
  const [sourceKind, setSourceKind] = useState<'state' | 'rows'>('state');
  const [runId, setRunId] = useState<string>('');
  const [sample, setSample] = useState(DEFAULT_SAMPLE);

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
  }, []);

  const chosenRun = rowRuns.find((r) => r.id === runId) ?? rowRuns[0];
  const targetLabelOf = (id: string): string => targets.data?.find((t) => t.id === id)?.label ?? id;
  const running = phase === 'running';

  // The target on screen: the check is costed at its price and paced at its limits, as a file run on it would be.
  const targets = useQuery(targetsQueryOptions());
  const target = targets.data?.find((t) => t.id === targetId);
  const inputPrice = target ? target.inputPrice : null;
  const { requestsPerMinute, tokensPerSecond, concurrency } = pacingFor(target);
  const source = useMemo((): CheckSource | null => {
    if (sourceKind === 'state' && request && target)
      return {
        kind: 'state',
        targetId,
        terms: { inputPrice, pacing: { requestsPerMinute, tokensPerSecond, concurrency } },
        request,
        ...(lastRun
          ? { lastRun: { body: lastRun.body, response: lastRun.response, targetId: lastRun.targetId } }
          : {}),
      };
    if (sourceKind === 'rows' && chosenRun) return { kind: 'rows', runId: chosenRun.id, sample };
    return null;
  }, [
    sourceKind,
    request,
    target,
    targetId,
    inputPrice,
    requestsPerMinute,
    tokensPerSecond,
    concurrency,
    lastRun,
    chosenRun,
    sample,
  ]);
  // What the plan must have been made for before Run may send it: the screen as it is now.
  const planKey = source ? planKeyOf(source, settings) : null;

  useEffect(() => {
    if (running || !source) return;
    const timer = setTimeout(() => void prepare(source), PLAN_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // `running` flips back after a run: plan again so the budget shows what is now stored.
  }, [source, settings, running, prepare]);

  const questions = sourceKind === 'state' ? request?.questions : chosenRun?.questions;
  const autoOrders = questions ? defaultOrderCount(questions) : 1;
  const unavailable =
    sourceKind === 'state' && !request
      ? 'The request on screen has errors: fix the problems listed under the editors, then check it.'
      : sourceKind === 'rows' && !chosenRun
        ? 'There is no file run yet: import a file under Rows first.'
        : null;
  // A plan made for another target, model, request or setting (the debounce has not planned again yet) never runs.
  const current = ready !== null && planKey !== null && ready.planKey === planKey;
  const canRun = !unavailable && phase === 'ready' && current;
  const total = ready?.plan.rows.length ?? 0;
  const settled = progress
    ? progress.done + progress.reused + progress.failed + progress.invalid + progress.unknown
    : 0;
  const local = useRobustness((s) => (s.unsaved ? s.report : null));
  const report = local ?? saved;
  // A report made for another request (or sample) than the one planned now says so, instead of passing for its check.
  const stale =
    report?.requestKey !== undefined && ready !== null && !running && report.requestKey !== ready.requestKey;
  const identical = report
    ? identicalLine(
        report.identicalAnswers,
        report.settings.repeats,
        report.source.kind === 'rows' ? report.source.sampled : 1,
      )
    : null;

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
      <header className="robustness-dialog__head">
        <h2 id={`${ids}-title`}>Is the answer stable?</h2>
        <button type="button" onClick={onClose} data-testid="robustness.close">
          Close
        </button>
      </header>
      <p className="muted">
        Sends the same questions with the choice options in other orders (score levels never move), the same
        request several times, and the state with only its spacing, casing or field order changed. A move of
        more than the threshold is flagged.
      </p>

      <fieldset className="robustness-dialog__source" disabled={running}>
        <legend>Check</legend>
        <label>
          <input
            type="radio"
            name={`${ids}-source`}
            checked={sourceKind === 'state'}
            onChange={() => setSourceKind('state')}
            data-testid="robustness.sourceState"
          />
          the request on screen
        </label>
        <label>
          <input
            type="radio"
            name={`${ids}-source`}
            checked={sourceKind === 'rows'}
            onChange={() => setSourceKind('rows')}
            disabled={rowRuns.length === 0}
            data-testid="robustness.sourceRows"
          />
          a sample of a file run’s rows
        </label>
        {sourceKind === 'rows' && chosenRun && (
          <span className="robustness-dialog__rows">
            <label>
              File run{' '}
              <select
                value={chosenRun.id}
                onChange={(e) => setRunId(e.target.value)}
                data-testid="robustness.rowsRun"
              >
                {rowRuns.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.fileName} ({r.rowCount} rows, {r.model} on {targetLabelOf(r.targetId)},{' '}
                    {new Date(r.createdAt).toLocaleString()})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Rows to sample{' '}
              <CommitInput
                inputMode="numeric"
                value={String(sample)}
                onCommit={wholeIn(1, Math.min(MAX_SAMPLE, chosenRun.rowCount || MAX_SAMPLE), setSample)}
                data-testid="robustness.sample"
              />
            </label>
          </span>
        )}
      </fieldset>

      <fieldset className="robustness-dialog__settings" disabled={running}>
        <legend>How hard</legend>
        <label>
          Option orders{' '}
          <CommitInput
            inputMode="numeric"
            value={String(settings.orders ?? autoOrders)}
            onCommit={wholeIn(1, MAX_ORDERS, (orders) => setSettings({ orders }))}
            data-testid="robustness.orders"
          />
        </label>
        <label>
          Identical requests{' '}
          <CommitInput
            inputMode="numeric"
            value={String(settings.repeats)}
            onCommit={wholeIn(1, MAX_REPEATS, (repeats) => setSettings({ repeats }))}
            data-testid="robustness.repeats"
          />
        </label>
        <label>
          Threshold (points){' '}
          <CommitInput
            inputMode="numeric"
            value={String(Math.round(settings.threshold * 100))}
            onCommit={wholeIn(1, 50, (points) => setSettings({ threshold: points / 100 }))}
            data-testid="robustness.threshold"
          />
        </label>
        <span className="robustness-dialog__variants" role="group" aria-label="Near-duplicate states">
          {VARIANT_KINDS.map((kind) => (
            <label key={kind}>
              <input
                type="checkbox"
                checked={settings.variants.includes(kind)}
                onChange={(e) =>
                  setSettings({
                    variants: e.target.checked
                      ? VARIANT_KINDS.filter((k) => k === kind || settings.variants.includes(k))
                      : settings.variants.filter((k) => k !== kind),
                  })
                }
              />
              {VARIANT_LABELS[kind]}
            </label>
          ))}
        </span>
      </fieldset>

      <div className="robustness-dialog__run">
        <p role="status" aria-live="polite" data-testid="robustness.budget" className="num">
          {unavailable ??
            (!current
              ? 'Working out the budget…'
              : `${ready.budgetText}${ready.targetId === 'local' ? ` (${LOCAL_COST_WORDS})` : ''}, with ${ready.model} on ${targetLabelOf(ready.targetId)}`)}
        </p>
        {running ? (
          <button type="button" onClick={cancel} data-testid="robustness.cancel">
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => planKey !== null && void run(planKey)}
            disabled={!canRun}
            data-testid="robustness.run"
          >
            Run check
          </button>
        )}
      </div>
      {ready && current && ready.notes.length > 0 && !unavailable && (
        <ul className="robustness-dialog__notes muted">
          {ready.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {running && (
        <p data-testid="robustness.progress" className="num">
          {settled} of {total} requests settled
          {ready?.inputPrice === null ? '' : `, about ${formatCost(progress?.cost ?? 0)} so far`}
        </p>
      )}
      {error && (
        <p role="alert" className="robustness-dialog__error">
          {error}
        </p>
      )}
      {notice && <p role="note">{notice}</p>}

      {report && (
        <section className="robustness-report" aria-label="Robustness report" data-testid="robustness.report">
          <p className="muted num" data-testid="robustness.reportMeta">
            {report.source.kind === 'rows'
              ? `${report.source.sampled} of ${report.source.rowCount} rows of “${report.source.fileName}”`
              : 'The request on screen'}
            , {report.model} on {report.targetId}, {new Date(report.at).toLocaleString()}: {report.sent} sent,{' '}
            {report.reused} reused{report.failed > 0 ? `, ${report.failed} unanswered` : ''}; billed{' '}
            <span data-testid="robustness.billed">{billedText(report)}</span>
            {report.estimatedCost === null ? '' : ` (estimated ${formatCost(report.estimatedCost)})`}. Kept in
            this session and its share link.
          </p>
          {stale && (
            <p role="note" className="robustness-dialog__stale" data-testid="robustness.stale">
              This report was made for{' '}
              {report.source.kind === 'rows' ? 'another sample' : 'an earlier request'}; run the check again
              for what is planned above.
            </p>
          )}
          {identical && <p data-testid="robustness.identical">{identical}</p>}
          {report.cards.map((card) => (
            <RobustnessCardView key={card.question} card={card} />
          ))}
        </section>
      )}
    </dialog>
  );
}
