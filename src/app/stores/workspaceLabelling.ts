// A labeller working through a workspace queue: reserve the next row, label each of its questions in turn (every label
// goes through the outbox, so the connection may drop at any moment), skip, and go back a question. A process rather
// than a query (each "next" reserves a row), so it lives here like a rows run. When the next row cannot be fetched
// (offline), the store says so and tries again when the browser is online, or after a pause.
import { create } from 'zustand';
import type { StoreApi, UseBoundStore } from 'zustand';
import { nextRow, skipRow } from '../../client/workspace';
import type { WorkspaceConnection } from '../../client/workspace';
import { isWorkspaceCallError } from '../../client/workspaceErrors';
import type { NextResponse, Progress, WorkspaceLabelValue } from '../../contract/workspace';
import { errorText, plural } from '../../contract/text';
import { newId } from '../../core/ids';
import { workspaceConnection } from '../queries/workspaceConnection';
import type { OutboxState } from './workspaceOutbox';

/** How long to wait before asking again when every row left is reserved by someone else, or the connection is down. */
const WAIT_MS = 5_000;

export type LabellingPhase = 'idle' | 'loading' | 'row' | 'done' | 'reserved' | 'offline' | 'error';

export interface QueueLabellingState {
  queueId: string | null;
  phase: LabellingPhase;
  next: NextResponse | null;
  /** Which question of the row is asked now (questions in the queue's order). */
  questionIndex: number;
  /** What this person gave on the current row so far, by question (their earlier labels when it came back). */
  given: Record<string, WorkspaceLabelValue>;
  progress: Progress | null;
  message: string | null;
  open: (queueId: string) => Promise<void>;
  close: () => void;
  give: (value: WorkspaceLabelValue) => Promise<void>;
  skip: () => Promise<void>;
  /** Back to the row's previous question (a second answer is an edit). False when at the first. */
  back: () => boolean;
  /** Asks for the next row again (after the connection came back, or a wait). */
  retry: () => Promise<void>;
}

export interface QueueLabellingDeps {
  conn: WorkspaceConnection;
  outbox: UseBoundStore<StoreApi<OutboxState>>;
  now?: () => number;
  /** Schedules a try; returns how to cancel it. */
  schedule?: (ms: number, run: () => void) => () => void;
}

const defaultSchedule = (ms: number, run: () => void): (() => void) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** What the store's steps share: its dependencies, zustand's get and set, and what it keeps outside its state. */
interface LabellingKit {
  deps: QueueLabellingDeps;
  now: () => number;
  set: StoreApi<QueueLabellingState>['setState'];
  get: StoreApi<QueueLabellingState>['getState'];
  /** When the present question was shown (a label's seconds count from it), the wait under way, the latest ask. */
  live: { shownAt: number; cancelWait: (() => void) | null; generation: number };
}

const questionNames = ({ get }: LabellingKit): string[] => Object.keys(get().next?.questions ?? {});

function waitThenRetry({ deps, get, live }: LabellingKit): void {
  live.cancelWait?.();
  live.cancelWait = (deps.schedule ?? defaultSchedule)(WAIT_MS, () => void get().retry());
}

/** Reserves the queue's next row and shows its first question; a wait (reserved, offline) asks again later. */
async function loadNext(kit: LabellingKit): Promise<void> {
  const { deps, set, get, live } = kit;
  const { queueId } = get();
  if (!queueId) return;
  // Answers of an earlier queue or row arriving late must not overwrite the present one.
  const mine = ++live.generation;
  live.cancelWait?.();
  live.cancelWait = null;
  set({ phase: 'loading', message: null });
  try {
    // What this browser kept goes first (offline, it stays kept): asked before its labels arrive, the server hands
    // back the row it still holds for this person, unlabelled.
    await deps.outbox.getState().flush();
    if (keptUnsent(kit, mine)) return;
    const next = await nextRow(deps.conn, queueId);
    if (mine !== live.generation) return;
    live.shownAt = kit.now();
    set({
      next,
      phase: next.reason,
      questionIndex: 0,
      given: { ...(next.row?.mine ?? {}) },
      progress: next.progress,
    });
    if (next.reason === 'reserved') waitThenRetry(kit);
  } catch (error) {
    if (mine !== live.generation) return;
    const offline = isWorkspaceCallError(error) && error.retryable;
    set({ phase: offline ? 'offline' : 'error', message: errorText(error) });
    if (offline) waitThenRetry(kit);
  }
}

/**
 * True when this ask stops here: a later one took over, or labels are still kept unsent after the flush (it then
 * waits, as offline). The connection may be back for a request for a row and not yet for the labels, and the server
 * would hand back the row they are for, unlabelled.
 */
function keptUnsent(kit: LabellingKit, mine: number): boolean {
  // A later ask took over: this one stops here.
  if (mine !== kit.live.generation) return true;
  const { pending } = kit.deps.outbox.getState();
  if (pending === 0) return false;
  kit.set({
    phase: 'offline',
    message: `${plural(pending, 'label')} kept in this browser, not sent yet: the next row comes once they reach the workspace.`,
  });
  waitThenRetry(kit);
  return true;
}

/** Keeps the label through the outbox, then asks the row's next question, or the next row after its last. */
async function giveLabel(kit: LabellingKit, value: WorkspaceLabelValue): Promise<void> {
  const { deps, set, get, live } = kit;
  const { queueId, next, questionIndex } = get();
  const question = questionNames(kit)[questionIndex];
  if (!queueId || !next?.row || question === undefined) return;
  const at = kit.now();
  await deps.outbox.getState().give(queueId, {
    row: next.row.index,
    question,
    value,
    clientId: newId(),
    at: new Date(at).toISOString(),
    seconds: Math.max(0, (at - live.shownAt) / 1000),
  });
  live.shownAt = at;
  set((s) => ({ given: { ...s.given, [question]: value } }));
  if (questionIndex + 1 < questionNames(kit).length) set({ questionIndex: questionIndex + 1 });
  else await loadNext(kit);
}

/** Hands the row back to the queue and asks for the next; a refusal is said and the row stays. */
async function skipThisRow(kit: LabellingKit): Promise<void> {
  const { queueId, next } = kit.get();
  if (!queueId || !next?.row) return;
  try {
    await skipRow(kit.deps.conn, queueId, next.row.index);
  } catch (error) {
    kit.set({ message: errorText(error) });
    return;
  }
  await loadNext(kit);
}

/** Progress acknowledged with a label is fresher than the one the row came with; a wait ends once all is sent. */
function followAcknowledgedProgress({ deps, set, get }: LabellingKit): void {
  deps.outbox.subscribe((s) => {
    const { queueId } = get();
    const acknowledged = queueId ? s.progress[queueId] : undefined;
    if (acknowledged && acknowledged !== get().progress) set({ progress: acknowledged });
    // Waiting on kept labels, and the outbox got them through on its own retry: the next row at once.
    if (get().phase === 'offline' && s.pending === 0 && !s.sending) void get().retry();
  });
}

export function createQueueLabelling(deps: QueueLabellingDeps): UseBoundStore<StoreApi<QueueLabellingState>> {
  const now = deps.now ?? Date.now;
  const live: LabellingKit['live'] = { shownAt: now(), cancelWait: null, generation: 0 };

  return create<QueueLabellingState>()((set, get) => {
    const kit: LabellingKit = { deps, now, set, get, live };
    followAcknowledgedProgress(kit);
    return {
      queueId: null,
      phase: 'idle',
      next: null,
      questionIndex: 0,
      given: {},
      progress: null,
      message: null,
      open: async (queueId) => {
        set({ queueId, next: null, progress: null, given: {}, questionIndex: 0 });
        await loadNext(kit);
      },
      close: () => {
        live.generation++;
        live.cancelWait?.();
        live.cancelWait = null;
        set({ queueId: null, phase: 'idle', next: null });
      },
      give: (value) => giveLabel(kit, value),
      skip: () => skipThisRow(kit),
      back: () => {
        const { questionIndex } = get();
        if (questionIndex === 0) return false;
        set({ questionIndex: questionIndex - 1 });
        return true;
      },
      retry: () => loadNext(kit),
    };
  });
}

let app: UseBoundStore<StoreApi<QueueLabellingState>> | undefined;

/** The app's labelling store over the app's outbox; asks again for a row as soon as the browser is online. */
export function appQueueLabelling(outbox: UseBoundStore<StoreApi<OutboxState>>) {
  if (!app) {
    const store = createQueueLabelling({ conn: workspaceConnection(), outbox });
    if (typeof window !== 'undefined')
      window.addEventListener('online', () => {
        if (store.getState().phase === 'offline') void store.getState().retry();
      });
    app = store;
  }
  return app;
}
