// What the user is editing and has run on the main screen: the session document (exactly a SessionDoc, so sessions
// save and restore it as is) and its runs (RunRecords). Pure state with actions inside; persistence subscribes.
import { create } from 'zustand';
import { exampleDoc } from '../../core/example';
import type { AttemptRecord, RunError, RunRecord, SessionDoc } from '../../core/session';
import type { EvaluateResponse } from '../../contract';

/** Runs kept in memory for the screen; sessions keep their own history. */
const MAX_RUNS = 50;

/** The run on screen: in flight, or finished (then also recorded when its body met the contract). */
export interface RunView {
  id: string;
  at: string;
  targetId: string;
  /** The body as sent; not always a valid request (a run can be sent anyway to hear the service). */
  body: unknown;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  attempts: AttemptRecord[];
  response?: EvaluateResponse;
  error?: RunError;
  latencyMs?: number;
  replayed?: boolean;
}

/** A request to move an editor's cursor to a problem. */
export interface RevealTarget {
  area: 'state' | 'questions';
  offset: number;
  nonce: number;
}

export interface WorkbenchState {
  doc: SessionDoc;
  runs: RunRecord[];
  /** The latest run as the screen shows it (null before the first run). */
  current: RunView | null;
  reveal: RevealTarget | null;

  setStateText: (text: string) => void;
  setStateMode: (mode: SessionDoc['stateMode']) => void;
  setQuestionsText: (text: string) => void;
  setModel: (model: string) => void;
  setTargetId: (targetId: string) => void;
  /** Replaces the document (and runs) with a saved session's; the last run is shown again. */
  hydrate: (doc: SessionDoc, runs?: RunRecord[]) => void;
  /** Edits the document in one step (a form edit, a quick fix); runs and the answer on screen stay. */
  editDoc: (edit: (doc: SessionDoc) => SessionDoc) => void;
  revealAt: (area: RevealTarget['area'], offset: number) => void;
  /** Shows an earlier run of the session as it was (its answers, or its error). */
  showRun: (runId: string) => void;

  startRun: (run: Pick<RunView, 'id' | 'at' | 'targetId' | 'body'>) => void;
  addAttempt: (runId: string, attempt: AttemptRecord) => void;
  /** Settles a run; `record` is set when the body met the contract, so the run joins the session's history. */
  finishRun: (
    runId: string,
    outcome: Omit<RunView, 'id' | 'at' | 'targetId' | 'body'>,
    record?: RunRecord,
  ) => void;
}

/** The screen's view of a recorded run. */
export function runViewOf(run: RunRecord): RunView {
  return {
    id: run.id,
    at: run.at,
    targetId: run.targetId,
    body: run.request,
    status: run.response ? 'succeeded' : run.error?.kind === 'cancelled' ? 'cancelled' : 'failed',
    attempts: run.attempts,
    ...(run.response ? { response: run.response } : {}),
    ...(run.error ? { error: run.error } : {}),
    ...(run.latencyMs !== undefined ? { latencyMs: run.latencyMs } : {}),
    ...(run.replayed ? { replayed: true } : {}),
  };
}

/** The workbench store. Starts with the example session until a saved one is hydrated. */
export const useWorkbench = create<WorkbenchState>()((set) => {
  const setDoc =
    <K extends keyof SessionDoc>(key: K) =>
    (value: SessionDoc[K]): void =>
      set((s) => (s.doc[key] === value ? s : { doc: { ...s.doc, [key]: value } }));
  return {
    doc: exampleDoc(),
    runs: [],
    current: null,
    reveal: null,

    setStateText: setDoc('stateText'),
    setStateMode: setDoc('stateMode'),
    setQuestionsText: setDoc('questionsText'),
    setModel: setDoc('model'),
    setTargetId: setDoc('targetId'),
    hydrate: (doc, runs = []) => {
      // The main screen shows its own last run, never a comparison column's.
      const last = runs.findLast((r) => r.columnId === undefined);
      set({ doc, runs: runs.slice(-MAX_RUNS), current: last ? runViewOf(last) : null });
    },
    editDoc: (edit) => set((s) => ({ doc: edit(s.doc) })),
    revealAt: (area, offset) => set((s) => ({ reveal: { area, offset, nonce: (s.reveal?.nonce ?? 0) + 1 } })),
    showRun: (runId) =>
      set((s) => {
        if (s.current?.status === 'running') return s;
        const run = s.runs.find((r) => r.id === runId);
        return run ? { current: runViewOf(run) } : s;
      }),

    startRun: (run) => set({ current: { ...run, status: 'running', attempts: [] } }),
    addAttempt: (runId, attempt) =>
      set((s) =>
        s.current?.id === runId
          ? { current: { ...s.current, attempts: [...s.current.attempts, attempt] } }
          : s,
      ),
    finishRun: (runId, outcome, record) =>
      set((s) => ({
        current: s.current?.id === runId ? { ...s.current, ...outcome } : s.current,
        runs: record ? [...s.runs, record].slice(-MAX_RUNS) : s.runs,
      })),
  };
});
