// The rows screen: import a file, map it, check the estimate, run it paced with the session's questions and model,
// watch it, and read, filter, chart and export the results. Wiring only: the logic is in src/core/rows.
import { useMemo, useState } from 'react';
import { targetFactsOf } from '../../queries/targets';
import type { TargetInfo } from '../../queries/targets';
import { useRows } from '../../stores/rows';
import type { SessionQuestions } from '../../stores/sessionQuestions';
import { useSessionQuestions } from '../../stores/sessionQuestions';
import { useSessions } from '../../stores/sessions';
import { FileSetup } from './FileSetup';
import { OpenRunView } from './OpenRunView';
import { RunList } from './RunList';
import { usePlanOnEdit, useRunsOnArrival, useTargetPacing } from './useRowsScreenEffects';
import './rows.css';

export interface RowsScreenProps {
  /** The target runs go to: the one picked in the top bar. */
  targetId: string;
  targetLabel: string;
  /** The target's description: its rate limits pace new runs and its price counts their cost. */
  target?: TargetInfo;
}

/** Creates a run from the file as mapped, with the session's questions and model, and starts it. */
function useStartRun(session: SessionQuestions, targetId: string, target: TargetInfo | undefined) {
  const rows = useRows();
  const sessionId = useSessions((s) => s.openId);
  const [creating, setCreating] = useState(false);
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
  return { creating, start };
}

/** The stored runs, and the way back to a new run from a file while one is open. */
function RowsSide() {
  const rows = useRows();
  const open = rows.openRun;
  return (
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
  );
}

/** The store's error or notice, with its Dismiss. */
function RowsMessage() {
  const error = useRows((s) => s.error);
  const notice = useRows((s) => s.notice);
  const dismiss = useRows((s) => s.dismiss);
  if (!(error || notice)) return null;
  return (
    <div
      className={error ? 'rows-message rows-message--error' : 'rows-message'}
      role={error ? 'alert' : 'status'}
      data-testid="rows.message"
    >
      <span>{error ?? notice}</span>
      <button type="button" className="link-button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** The whole rows screen. */
export function RowsScreen({ targetId, targetLabel, target }: RowsScreenProps) {
  // The target's dialect and limits flag what it would refuse before the run; App passes the picked target.
  const facts = useMemo(() => targetFactsOf(target), [target]);
  const session = useSessionQuestions(facts);
  const open = useRows((s) => s.openRun);
  const { creating, start } = useStartRun(session, targetId, target);
  useRunsOnArrival();
  usePlanOnEdit(session.questions, target, targetLabel);
  // Each target's own rate limits pace its runs, and its price counts their cost.
  useTargetPacing(target);
  return (
    <div className="rows-screen" data-testid="rows.screen">
      <RowsSide />
      <div className="rows-main">
        <RowsMessage />
        {!open && (
          <FileSetup
            session={session}
            targetLabel={targetLabel}
            target={target}
            creating={creating}
            onStart={() => void start()}
          />
        )}
        {open && <OpenRunView open={open} targetId={targetId} />}
      </div>
    </div>
  );
}
