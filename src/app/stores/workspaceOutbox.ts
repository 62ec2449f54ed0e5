// Sending a labeller's labels to the workspace: every label is kept in the outbox (IndexedDB) first, then sent; it is
// forgotten only once the server acknowledges it. A dropped connection keeps it and sends it again after the client's
// backoff, or at once when the browser says it is online again; the label's client id makes every resend harmless.
// A label the server refuses for good (a closed queue, a row no longer this person's) is kept with the server's
// sentence and not sent again.
import { create } from 'zustand';
import type { StoreApi, UseBoundStore } from 'zustand';
import { backoffDelayMs } from '../../client';
import { putLabels } from '../../client/workspace';
import type { WorkspaceConnection } from '../../client/workspace';
import { isWorkspaceCallError } from '../../client/workspaceErrors';
import type { LabelInput, Progress } from '../../contract/workspace';
import { errorText } from '../../contract/text';
import { appDb } from '../persistence/db';
import { OutboxRepo } from '../persistence/outbox';
import { workspaceConnection } from '../queries/workspaceConnection';
import type { OutboxRecord } from '../persistence/outboxRecord';

/** The server takes at most this many labels per request (PutLabelsRequestSchema). */
const BATCH = 1000;

export interface OutboxDeps {
  repo: OutboxRepo;
  conn: WorkspaceConnection;
  now?: () => number;
  /** Schedules the next try; returns how to cancel it. Default a timer. */
  schedule?: (ms: number, run: () => void) => () => void;
  random?: () => number;
}

export interface OutboxState {
  /** Labels kept and not yet acknowledged (refused ones apart). */
  pending: number;
  /** Labels the server refused, with its sentence, and rows the outbox could not read. */
  refused: OutboxRecord[];
  unreadable: { clientId: string; message: string }[];
  sending: boolean;
  /** Why the last send did not get through (kept labels wait for the next try), or null. */
  problem: string | null;
  /** The latest progress each queue's server reported with an acknowledgement. */
  progress: Record<string, Progress>;
  /** Keeps a label and sends it. Resolves once it is kept (not once it is sent). */
  give: (queueId: string, label: LabelInput) => Promise<void>;
  /** Sends what is kept; one send at a time, a call during a send runs another after it. */
  flush: () => Promise<void>;
  /** Forgets a refused label the person chose to drop. */
  discard: (clientId: string) => Promise<void>;
}

const defaultSchedule = (ms: number, run: () => void): (() => void) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

type SetOutbox = StoreApi<OutboxState>['setState'];
type GetOutbox = StoreApi<OutboxState>['getState'];

/** The send loop's bookkeeping: the send under way, another asked for during it, failures in a row, the retry due. */
interface SendLoop {
  inFlight: Promise<void> | null;
  again: boolean;
  failures: number;
  cancelRetry: (() => void) | null;
}

/** Reads the outbox into the state; returns the labels still to send (refused ones apart). */
async function refreshOutbox(repo: OutboxRepo, set: SetOutbox): Promise<OutboxRecord[]> {
  const { records, unreadable } = await repo.contents();
  const refused = records.filter((r) => r.refusal !== undefined);
  const toSend = records.filter((r) => r.refusal === undefined);
  set({ pending: toSend.length, refused, unreadable });
  return toSend;
}

/**
 * Sends one batch of a queue's labels: true when the server took it or refused it for good, false when it is kept for
 * a later try (`kept` is how many labels wait in all, for the sentence).
 */
async function sendBatch(
  deps: OutboxDeps,
  set: SetOutbox,
  queueId: string,
  batch: readonly OutboxRecord[],
  kept: number,
): Promise<boolean> {
  const ids = batch.map((r) => r.clientId);
  try {
    const answer = await putLabels(
      deps.conn,
      queueId,
      batch.map((r) => r.label),
    );
    await deps.repo.acknowledged(ids);
    set((s) => ({ progress: { ...s.progress, [queueId]: answer.progress } }));
  } catch (error) {
    // The connection or the server, or a sign-in that lapsed: the labels are the person's, kept for later.
    if (!isWorkspaceCallError(error) || error.retryable || error.kind === 'signed_out') {
      set({
        problem: `${plural(kept)} kept in this browser, not sent yet: ${errorText(error)}`,
      });
      await refreshOutbox(deps.repo, set);
      return false;
    }
    await deps.repo.refused(ids, error.message);
  }
  return true;
}

/** One pass: every queue's kept labels in batches; true when everything kept went through or was refused. */
async function sendAll(deps: OutboxDeps, set: SetOutbox): Promise<boolean> {
  const toSend = await refreshOutbox(deps.repo, set);
  const byQueue = new Map<string, OutboxRecord[]>();
  for (const r of toSend) byQueue.set(r.queueId, [...(byQueue.get(r.queueId) ?? []), r]);
  for (const [queueId, records] of byQueue) {
    for (let at = 0; at < records.length; at += BATCH) {
      const batch = records.slice(at, at + BATCH);
      if (!(await sendBatch(deps, set, queueId, batch, toSend.length))) return false;
    }
  }
  await refreshOutbox(deps.repo, set);
  set({ problem: null });
  return true;
}

/** Passes until none more was asked for; a pass that did not get through schedules the next with the backoff. */
async function runSends(deps: OutboxDeps, set: SetOutbox, get: GetOutbox, loop: SendLoop): Promise<void> {
  const schedule = deps.schedule ?? defaultSchedule;
  loop.cancelRetry?.();
  loop.cancelRetry = null;
  set({ sending: true });
  let done = false;
  try {
    do {
      loop.again = false;
      done = await sendAll(deps, set);
    } while (loop.again && done);
  } catch (error) {
    set({ problem: `The labels kept in this browser could not be read: ${errorText(error)}` });
  } finally {
    set({ sending: false });
  }
  if (done) loop.failures = 0;
  else if (get().pending > 0)
    loop.cancelRetry = schedule(
      backoffDelayMs(Math.min(loop.failures++, 6), deps.random ?? Math.random),
      () => {
        void get().flush();
      },
    );
}

/** An outbox store over its dependencies; the app makes one (useOutbox), tests make their own. */
export function createOutboxStore(deps: OutboxDeps): UseBoundStore<StoreApi<OutboxState>> {
  const now = deps.now ?? Date.now;
  const loop: SendLoop = { inFlight: null, again: false, failures: 0, cancelRetry: null };

  return create<OutboxState>()((set, get) => ({
    pending: 0,
    refused: [],
    unreadable: [],
    sending: false,
    problem: null,
    progress: {},
    give: async (queueId, label) => {
      await deps.repo.keep(queueId, label, new Date(now()).toISOString());
      set((s) => ({ pending: s.pending + 1 }));
      void get().flush();
    },
    flush: () => {
      if (loop.inFlight) {
        loop.again = true;
        return loop.inFlight;
      }
      loop.inFlight = runSends(deps, set, get, loop).finally(() => {
        loop.inFlight = null;
      });
      return loop.inFlight;
    },
    discard: async (clientId) => {
      await deps.repo.discard(clientId);
      await refreshOutbox(deps.repo, set);
    },
  }));
}

const plural = (n: number): string => (n === 1 ? '1 label' : `${n} labels`);

let app: UseBoundStore<StoreApi<OutboxState>> | undefined;

/** The app's outbox: the browser's database and the same-origin workspace; sends again whenever the browser is online. */
export function appOutbox(): UseBoundStore<StoreApi<OutboxState>> {
  if (!app) {
    const store = createOutboxStore({ repo: new OutboxRepo(appDb()), conn: workspaceConnection() });
    if (typeof window !== 'undefined') window.addEventListener('online', () => void store.getState().flush());
    app = store;
  }
  return app;
}
