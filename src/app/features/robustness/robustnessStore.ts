// The robustness check as UI state: what is checked (the main screen's request, or a sample of a file run's rows), the
// settings, the budget said before anything is sent, the run (paced through the rows runner, as file rows are) and
// its report, which is saved into the open session. Kept next to its feature, since nothing else reads it. Its shapes
// are robustnessTypes.ts's, its planning robustnessPlanning.ts's, the steps of its run robustnessRun.ts's.
import { create } from 'zustand';
import type { RowAnswer } from '../../../core/robustness/check';
import { DEFAULT_REPEATS, DEFAULT_THRESHOLD } from '../../../core/robustness/plan';
import { VARIANT_KINDS } from '../../../core/robustness/variants';
import type { RunProgress } from '../../../core/rows/runTypes';
import type { RowRunner } from '../../../core/rows/runner';
import { appDb } from '../../persistence/db';
import { robustnessRunStore } from '../../persistence/robustnessAnswers';
import { appRunnerSeam } from '../../stores/runnerDeps';
import { useSessions } from '../../stores/sessions';
import { errorClause as errorText } from '../../../contract/text';

import { planRows, planState } from './robustnessPlanning';
import { checkProgress, checkReport, checkRunner, endNotes } from './robustnessRun';
import type { RobustnessDeps, RobustnessState } from './robustnessTypes';

export * from './robustnessTypes';

/** The store's state before anything is planned: the default settings, nothing ready, run or said. */
const idleCheck = (): Pick<
  RobustnessState,
  'settings' | 'phase' | 'ready' | 'progress' | 'report' | 'unsaved' | 'error' | 'notice'
> => ({
  settings: {
    orders: null,
    repeats: DEFAULT_REPEATS,
    variants: [...VARIANT_KINDS],
    threshold: DEFAULT_THRESHOLD,
  },
  phase: 'idle',
  ready: null,
  progress: null,
  report: null,
  unsaved: false,
  error: null,
  notice: null,
});

/** Makes a store over its dependencies; the app uses the one below. */
export function createRobustnessStore(deps: RobustnessDeps) {
  let runner: RowRunner | null = null;
  let prepareSeq = 0;

  return create<RobustnessState>()((set, get) => {
    return {
      ...idleCheck(),

      setSettings(patch) {
        if (get().phase === 'running') return;
        set((s) => ({ settings: { ...s.settings, ...patch } }));
      },

      async prepare(source) {
        if (get().phase === 'running') return;
        const seq = ++prepareSeq;
        set({ phase: 'planning', error: null, notice: null });
        try {
          const counter = await deps.tokens();
          const ready =
            source.kind === 'state'
              ? await planState(deps, get().settings, source, counter)
              : await planRows(deps, get().settings, source, counter);
          if (seq !== prepareSeq) return;
          set({ phase: 'ready', ready, progress: null });
        } catch (error) {
          if (seq !== prepareSeq) return;
          set({ phase: 'idle', ready: null, error: `The check could not be planned: ${errorText(error)}.` });
        }
      },

      async run(planKey) {
        const ready = get().ready;
        // A plan made for what was on screen before (another target, model, request or setting) is never sent.
        if (!ready || get().phase !== 'ready' || ready.planKey !== planKey) return;
        const answers = new Map<number, RowAnswer>();
        const sessionId = deps.sessionId();
        let saveFailed = false;
        const store = robustnessRunStore(deps.db(), {
          seeds: ready.seeds,
          onSaveError: () => (saveFailed = true),
        });
        const current = checkRunner(deps, ready, store);
        runner = current;
        current.subscribe((update) => {
          if (update.answer)
            answers.set(update.number, {
              response: update.answer.response,
              reused: update.outcome.status === 'reused',
            });
          set({ progress: checkProgress(current) });
        });
        set({ phase: 'running', error: null, notice: null, progress: checkProgress(current) });
        let end: RunProgress;
        try {
          end = await current.run();
        } catch (error) {
          end = current.progress();
          set({ error: `The check stopped: ${errorText(error)}.` });
        }
        if (runner !== current) return;
        runner = null;
        const report = checkReport(deps, ready, answers);
        const unsaved = !deps.saveReport(report, sessionId);
        const notes = endNotes(end, report, { saveFailed, unsaved });
        set({
          phase: 'done',
          report,
          unsaved,
          progress: checkProgress(current),
          notice: notes.length ? notes.join(' ') : null,
        });
      },

      cancel() {
        runner?.cancel();
      },
    };
  });
}

/** The app's robustness store: the real client through the proxy, IndexedDB, the lazily loaded tokenizer. */
export const useRobustness = createRobustnessStore({
  db: appDb,
  ...appRunnerSeam,
  tokens: async () => {
    const { questionTokens, stateTokens } = await import('../../../contract/tokens');
    return { questionTokens, stateTokens };
  },
  sessionId: () => useSessions.getState().openId,
  saveReport: (report, sessionId) => {
    const sessions = useSessions.getState();
    if (sessions.openId !== sessionId) return false;
    sessions.setRobustness(report);
    return true;
  },
});
