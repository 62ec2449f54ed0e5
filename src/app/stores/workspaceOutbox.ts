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

/** An outbox store over its dependencies; the app makes one (useOutbox), tests make their own. */
export function createOutboxStore(deps: OutboxDeps): UseBoundStore<StoreApi<OutboxState>> {
  const now = deps.now ?? Date.now;
  const schedule = deps.schedule ?? defaultSchedule;
  let inFlight: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let cancelRetry: (() => void) | null = null;

  return create<OutboxState>()((set, get) => {
    const refresh = async (): Promise<OutboxRecord[]> => {
      const { records, unreadable } = await deps.repo.contents();
      const refused = records.filter((r) => r.refusal !== undefined);
      const toSend = records.filter((r) => r.refusal === undefined);
      set({ pending: toSend.length, refused, unreadable });
      return toSend;
    };

    /** One pass: every queue's kept labels in batches; true when everything kept went through or was refused. */
    const sendAll = async (): Promise<boolean> => {
      const toSend = await refresh();
      const byQueue = new Map<string, OutboxRecord[]>();
      for (const r of toSend) byQueue.set(r.queueId, [...(byQueue.get(r.queueId) ?? []), r]);
      for (const [queueId, records] of byQueue) {
        for (let at = 0; at < records.length; at += BATCH) {
          const batch = records.slice(at, at + BATCH);
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
                problem: `${plural(toSend.length)} kept in this browser, not sent yet: ${errorText(error)}`,
              });
              await refresh();
              return false;
            }
            await deps.repo.refused(ids, error.message);
          }
        }
      }
      await refresh();
      set({ problem: null });
      return true;
    };

    const run = async (): Promise<void> => {
      cancelRetry?.();
      cancelRetry = null;
      set({ sending: true });
      let done = false;
      try {
        do {
          again = false;
          done = await sendAll();
        } while (again && done);
      } catch (error) {
        set({ problem: `The labels kept in this browser could not be read: ${errorText(error)}` });
      } finally {
        set({ sending: false });
      }
      if (done) failures = 0;
      else if (get().pending > 0)
        cancelRetry = schedule(backoffDelayMs(Math.min(failures++, 6), deps.random ?? Math.random), () => {
          void get().flush();
        });
    };

    return {
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
        if (inFlight) {
          again = true;
          return inFlight;
        }
        inFlight = run().finally(() => {
          inFlight = null;
        });
        return inFlight;
      },
      discard: async (clientId) => {
        await deps.repo.discard(clientId);
        await refresh();
      },
    };
  });
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
