// Human labels on the open run's rows, and variants: the same rows and labels run again with other questions, model
// or target.
import { plainAnnotatorsOf } from '../../../core/rows/labels';
import type { RowItem, RowRun } from '../../../core/rows/records';
import { errorText } from './kit';
import type { RowsKit } from './kit';
import type { RowsEngine } from './run';
import type { RowsState } from './types';

export function labelActions(
  { deps, set, get, live }: RowsKit,
  { attach, saveRun }: RowsEngine,
): Pick<RowsState, 'setLabel' | 'setLabels' | 'setLabelOrder' | 'createVariant'> {
  return {
    async setLabelOrder(question, order) {
      const run = get().openRun;
      if (!run) return;
      await saveRun(run.id, { labelOrders: { ...run.labelOrders, [question]: order } });
    },

    setLabel: (number, question, value, annotator) =>
      get().setLabels([{ number, question, value, ...(annotator !== undefined ? { annotator } : {}) }]),

    async setLabels(changes) {
      const run = get().openRun;
      const known = changes.filter((c) => live.indexOf.has(c.number));
      if (!run || known.length === 0) return;
      try {
        // A plain label of a question with a label column speaks for that column once labellers label it too.
        const after = await deps.repo.setLabels(run.id, known, plainAnnotatorsOf(run.mapping));
        for (const [number, { labels, annotations }] of after) {
          const at = live.indexOf.get(number);
          if (at === undefined) continue;
          const { labels: _labels, annotations: _annotations, ...rest } = live.results[at]!;
          live.results[at] = {
            ...rest,
            ...(labels ? { labels } : {}),
            ...(annotations ? { annotations } : {}),
          };
        }
        set((s) => ({ resultsVersion: s.resultsVersion + 1 }));
      } catch (error) {
        set({
          error: `The label${known.length === 1 ? '' : 's'} could not be saved: ${errorText(error)}`,
        });
      }
    },

    async createVariant(spec) {
      const base = get().openRun;
      if (!base || get().running) return null;
      const id = deps.newId();
      const now = deps.clock.now();
      try {
        const { items: stored } = await deps.repo.loadItems(base.id);
        const only = spec.onlyRows ? new Set(spec.onlyRows) : null;
        const items: RowItem[] = stored
          .filter((item) => only === null || only.has(item.number))
          .map(({ outcome: _outcome, ...item }) => ({ ...item, runId: id }));
        // A variant is escalated only when asked: a plain variant of an escalated run holds every row of it.
        const { escalatedFrom: _escalated, ...inherited } = base;
        const run: RowRun = {
          ...inherited,
          id,
          ...(spec.sessionId ? { sessionId: spec.sessionId } : {}),
          createdAt: now,
          updatedAt: now,
          targetId: spec.targetId,
          model: spec.model,
          questions: spec.questions,
          rowCount: items.length,
          status: 'ready',
          halt: null,
          variantOf: base.variantOf ?? base.id,
          ...(spec.escalatedFrom ? { escalatedFrom: spec.escalatedFrom } : {}),
        };
        await deps.repo.createRun(run, items);
        attach(run, items, new Map(), 0);
      } catch (error) {
        set({ error: `The variant could not be stored: ${errorText(error)}` });
        return null;
      }
      await get().refreshRuns();
      return id;
    },
  };
}
