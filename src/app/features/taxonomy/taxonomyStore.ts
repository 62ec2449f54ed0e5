// The large-taxonomy screen's run: its steps as they finish, the result or why it stopped. Kept while the user visits
// other screens. The input (labels, format, instructions) is part of the session document (doc.taxonomy), so it is
// saved, exported and shared with the session.
import { create } from 'zustand';
import { TaxonomyRunError, runTaxonomy } from '../../../core/taxonomy';
import type { TaxonomyResult, TaxonomyRunInput, TaxonomyStep } from '../../../core/taxonomy';

export type TaxonomyRunStatus = 'idle' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface TaxonomyState {
  status: TaxonomyRunStatus;
  steps: TaxonomyStep[];
  result: TaxonomyResult | null;
  error: string | null;
  /** Starts a run (one at a time); steps arrive as each request ends. */
  run: (input: Omit<TaxonomyRunInput, 'signal' | 'onStep'>) => Promise<void>;
  cancel: () => void;
}

let controller: AbortController | null = null;

/** The taxonomy screen's store. */
export const useTaxonomy = create<TaxonomyState>()((set, get) => ({
  status: 'idle',
  steps: [],
  result: null,
  error: null,
  run: async (input) => {
    if (get().status === 'running') return;
    const mine = new AbortController();
    controller = mine;
    set({ status: 'running', steps: [], result: null, error: null });
    try {
      const result = await runTaxonomy({
        ...input,
        signal: mine.signal,
        onStep: (step) => {
          if (controller === mine) set((s) => ({ steps: [...s.steps, step] }));
        },
      });
      if (controller === mine) set({ status: 'succeeded', result, steps: result.steps });
    } catch (error) {
      if (controller !== mine) return;
      const steps = error instanceof TaxonomyRunError ? error.steps : get().steps;
      set({
        status: mine.signal.aborted ? 'cancelled' : 'failed',
        steps,
        error: mine.signal.aborted ? null : error instanceof Error ? error.message : String(error),
      });
    } finally {
      if (controller === mine) controller = null;
    }
  },
  cancel: () => controller?.abort(),
}));
