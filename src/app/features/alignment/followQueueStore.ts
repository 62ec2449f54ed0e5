// Which team workspace queue the owner's alignment screen follows for each run (issue 40): the queue's labels are
// pulled into the run as each person's annotations, live. Held for the page's life; choosing again is one click.
import { create } from 'zustand';

export interface FollowQueueState {
  /** The queue followed, by run id. */
  byRun: Readonly<Record<string, string>>;
  /** Whether the picker is open (it asks the workspace who this browser is only once opened). */
  picking: boolean;
  setPicking: (picking: boolean) => void;
  follow: (runId: string, queueId: string | null) => void;
}

export const useFollowQueue = create<FollowQueueState>()((set) => ({
  byRun: {},
  picking: false,
  setPicking: (picking) => set({ picking }),
  follow: (runId, queueId) =>
    set((s) => {
      const byRun = { ...s.byRun };
      if (queueId === null) delete byRun[runId];
      else byRun[runId] = queueId;
      return { byRun };
    }),
}));
