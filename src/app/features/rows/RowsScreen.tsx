// The rows screen: import a file, map it, check the estimate, run it paced with the session's questions and model,
// watch it, and read, filter, chart and export the results. Wiring only: the logic is in src/core/rows.
import { useEffect, useMemo, useState } from 'react';
import { pacingFor } from '../../../core/rows/pacer';
import { targetFactsOf } from '../../queries/targets';
import type { TargetInfo } from '../../queries/targets';
import { useResumeOffer } from '../../stores/resumeOffer';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';
import { RowsLint } from './RowsLint';
import { ImportPanel } from './ImportPanel';
import { IssueList } from './IssueList';
import { LabelColumnsForm } from './LabelColumnsForm';
import { MappingForm } from './MappingForm';
import { PacingFields } from './PacingFields';
import { PlanPanel } from './PlanPanel';
import { PreviewTable } from './PreviewTable';
import { ProgressPanel } from './ProgressPanel';
import { ResultsView } from './ResultsView';
import { RunList } from './RunList';
import { downloadParts } from '../../platform/download';
import { formatCount } from './format';
import { useSessionQuestions } from '../../stores/sessionQuestions';
import './rows.css';

/** Delay before re-planning after an edit of the mapping or the questions (token counting runs in the worker). */
const PLAN_DEBOUNCE_MS = 250;

export interface RowsScreenProps {
  /** The target runs go to: the one picked in the top bar. */
  targetId: string;
  targetLabel: string;
  /** The target's description: its rate limits pace new runs and its price counts their cost. */
  target?: TargetInfo;
}

/** The whole rows screen. */
export function RowsScreen({ targetId, targetLabel, target }: RowsScreenProps) {
  const rows = useRows();
  // The target's dialect and limits flag what it would refuse before the run; App passes the picked target.
  const facts = useMemo(() => targetFactsOf(target), [target]);
  const session = useSessionQuestions(facts);
  const sessionId = useSessions((s) => s.openId);
  const [creating, setCreating] = useState(false);
  const { mapping, planFor } = rows;
  const ready = rows.import.phase === 'ready';
  const questionsKey = useMemo(() => JSON.stringify(session.questions), [session.questions]);

  useEffect(() => {
    void useRows.getState().refreshRuns();
  }, []);

  // A run that stopped when the page closed opens here, its Resume in view; it never resumes by itself.
  const interrupted = useResumeOffer((s) => s.offer?.runId ?? null);
  useEffect(() => {
    if (!interrupted) return;
    const state = useRows.getState();
    if (!state.running && !state.openRun) void state.openRunById(interrupted);
    useResumeOffer.getState().done();
  }, [interrupted]);

  // A target that states its context leaves out, before the run, the rows longer than it reads.
  const contextTokens = target?.limits?.contextTokens;
  useEffect(() => {
    if (!ready || !mapping) return;
    const context = contextTokens === undefined ? undefined : { tokens: contextTokens, target: targetLabel };
    const timer = setTimeout(
      () => void planFor(questionsKey === 'null' ? null : JSON.parse(questionsKey), context),
      PLAN_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [ready, mapping, questionsKey, planFor, contextTokens, targetLabel]);

  // Each target's own rate limits pace its runs, and its price counts their cost.
  const { requestsPerMinute, tokensPerSecond } = pacingFor(target);
  useEffect(() => {
    const state = useRows.getState();
    // A run already open keeps the pacing it was made with; a new one starts at its target's limits.
    if (state.running || state.openRun) return;
    state.setPacing({ ...state.pacing, requestsPerMinute, tokensPerSecond });
  }, [requestsPerMinute, tokensPerSecond]);

  const start = async () => {
    if (!session.questions) return;
    setCreating(true);
    const id = await rows.createRun({
      questions: session.questions,
      model: session.model,
      targetId,
      ...(target ? { inputPrice: target.inputPrice } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
    setCreating(false);
    if (id) {
      rows.clearImport();
      void rows.start();
    }
  };

  const exportRun = async (kind: 'csv' | 'jsonl', options: { leftOut: boolean }) => {
    const file = await rows.exportRun(kind, options);
    if (file) downloadParts(file.fileName, file.type, file.parts);
  };

  const summary = rows.import.summary;
  const open = rows.openRun;
  return (
    <div className="rows-screen" data-testid="rows.screen">
      <aside className="rows-side">
        <RunList
          runs={rows.runs}
          openId={open?.id ?? null}
          running={rows.running}
          heldElsewhere={rows.heldElsewhere}
          busy={rows.running || rows.loadingRun}
          onOpen={(id) => void rows.openRunById(id)}
          onDelete={(id) => void rows.deleteRun(id)}
        />
        {open && (
          <button type="button" disabled={rows.running} onClick={rows.closeRun} data-testid="rows.new">
            New run from a file
          </button>
        )}
      </aside>
      <div className="rows-main">
        {(rows.error || rows.notice) && (
          <div
            className={rows.error ? 'rows-message rows-message--error' : 'rows-message'}
            role={rows.error ? 'alert' : 'status'}
            data-testid="rows.message"
          >
            <span>{rows.error ?? rows.notice}</span>
            <button type="button" className="link-button" onClick={rows.dismiss}>
              Dismiss
            </button>
          </div>
        )}
        {!open && (
          <>
            <ImportPanel
              state={rows.import}
              options={rows.parseOptions}
              disabled={creating}
              onFile={(file) => void rows.pickFile(file, Object.keys(session.questions ?? {}))}
              onOptions={(o) => void rows.setParseOptions(o)}
              onResultsFile={(file) => void rows.openResultsFile(file)}
            />
            {ready && summary && (
              <>
                <p className="rows-summary" data-testid="rows.summary">
                  {summary.fileName}: {formatCount(summary.rows)} rows read
                  {summary.issues
                    ? `, ${formatCount(summary.issues)} line(s) not read as rows (listed below)`
                    : ''}
                  .
                </p>
                {summary.quoteSpans.length > 0 && (
                  <p className="rows-message" role="status" data-testid="rows.quoteSpans">
                    <span>
                      {summary.quoteSpans
                        .map(
                          (q) =>
                            `Lines ${q.from}-${q.to} were read as one field because of the quote opened on line ${q.from}.`,
                        )
                        .join(' ')}
                    </span>
                    <button
                      type="button"
                      className="link-button"
                      disabled={creating}
                      onClick={() => void rows.setParseOptions({ literalQuotes: true })}
                      data-testid="rows.readQuotesLiterally"
                    >
                      Read quotes literally
                    </button>
                  </p>
                )}
                <PreviewTable rows={summary.preview} columns={summary.objectRows ? summary.columns : []} />
                <DefaultLabelsLine />
                {mapping && (
                  <MappingForm
                    mapping={mapping}
                    columns={summary.columns}
                    objectRows={summary.objectRows}
                    onChange={rows.setMapping}
                    samples={rows.plan?.samples ?? []}
                    disabled={creating}
                  />
                )}
                {mapping && summary.objectRows && (
                  <LabelColumnsForm
                    mapping={mapping}
                    columns={summary.columns}
                    questions={session.questions}
                    plans={rows.plan?.labels ?? []}
                    onChange={rows.setMapping}
                    disabled={creating}
                  />
                )}
                <IssueList
                  title="Lines that will not be sent"
                  issues={[...summary.parseIssues, ...(rows.plan?.issues ?? [])].sort(
                    (a, b) => a.line - b.line,
                  )}
                />
                <RowsLint />
                <PlanPanel
                  plan={rows.plan}
                  planning={rows.planning}
                  planError={rows.planError}
                  session={session}
                  targetLabel={targetLabel}
                  {...(target ? { inputPrice: target.inputPrice } : {})}
                  pacing={rows.pacing}
                  maxCost={rows.maxCost}
                  onPacing={rows.setPacing}
                  onMaxCost={rows.setMaxCost}
                  onStart={() => void start()}
                  busy={creating}
                />
              </>
            )}
          </>
        )}
        {open && rows.progress && (
          <>
            <header className="rows-run-header">
              <h2 data-testid="rows.run.title">{open.fileName}</h2>
              <span className="muted">
                {formatCount(open.rowCount)} rows · model <code>{open.model}</code> · target {open.targetId}
              </span>
            </header>
            <ProgressPanel
              progress={rows.progress}
              running={rows.running}
              watching={rows.watching}
              // An open run shows its own pacing (a results file from the command line keeps the run's).
              configuredRate={(rows.openRun?.pacing ?? rows.pacing).requestsPerMinute}
              local={(rows.openRun?.targetId ?? targetId) === 'local'}
              priceUnknown={open.inputPrice === null}
              onStart={() => void rows.start()}
              onPause={rows.pause}
              onCancel={rows.cancel}
              onRetry={(which) => void rows.retry(which)}
            />
            <details className="rows-settings">
              <summary>Pacing and budget</summary>
              <PlanSettings />
            </details>
            <ResultsView
              run={open}
              rows={rows.results()}
              version={rows.resultsVersion}
              onExport={(kind, options) => void exportRun(kind, options)}
            />
          </>
        )}
      </div>
    </div>
  );
}

/** The one line that says which columns were read as labels because they are named like questions, with its undo. */
function DefaultLabelsLine() {
  const mapping = useRows((s) => s.mapping);
  const defaulted = useRows((s) => s.defaultLabels);
  const keepInState = useRows((s) => s.keepLabelsInState);
  // Only those still mapped as the label of their question: a label the user changed is theirs now.
  const still = defaulted.filter((d) =>
    (mapping?.labels ?? []).some((l) => l.column === d.column && l.question === d.question),
  );
  if (still.length === 0) return null;
  const one = still.length === 1;
  return (
    <p className="rows-message" role="status" data-testid="rows.labels.defaulted">
      <span>
        {still.map((d, i) => (
          <span key={d.column}>
            {i > 0 ? ', ' : ''}
            <code>{d.column}</code>
          </span>
        ))}{' '}
        {one ? 'is' : 'are'} named like {one ? 'a question' : 'questions'}, so {one ? 'it is' : 'they are'}{' '}
        read as {one ? 'its' : 'their'} human label{one ? '' : 's'} and never sent to the judge.
      </span>
      <button
        type="button"
        className="link-button"
        onClick={keepInState}
        data-testid="rows.labels.defaulted.undo"
      >
        Send {one ? 'it' : 'them'} in the state instead
      </button>
    </p>
  );
}

/** The open run's pacing and budget, changeable while it runs. */
function PlanSettings() {
  const pacing = useRows((s) => s.pacing);
  const maxCost = useRows((s) => s.maxCost);
  const setPacing = useRows((s) => s.setPacing);
  const setMaxCost = useRows((s) => s.setMaxCost);
  return <PacingFields pacing={pacing} maxCost={maxCost} onPacing={setPacing} onMaxCost={setMaxCost} />;
}
