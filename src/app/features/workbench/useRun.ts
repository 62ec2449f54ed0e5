// Runs the editors' request: checks first, then one React Query mutation with an AbortController; attempts stream
// into the store as they end, and the finished run is recorded when its body met the contract.
import { useMutation } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { newId } from '../../../core/ids';
import { checkDoc } from '../../../core/runDraft';
import type { TargetFacts } from '../../../core/runDraft';
import { evaluateRunMutation } from '../../queries/evaluate';
import { runViewOf, useWorkbench } from '../../stores/workbench';

export interface RunControls {
  /** Runs unless an error blocks it; `force` sends a body that parses despite errors. */
  run: (force?: boolean) => void;
  cancel: () => void;
  running: boolean;
  /** Set when the last Run was refused by the checks (cleared by the next run). */
  refused: boolean;
}

/** The run of the main screen on `targetId`; `listedModels` are the target's aliases, for the model id check. */
export function useRun(listedModels: readonly string[], targetId: string, target?: TargetFacts): RunControls {
  const controller = useRef<AbortController | null>(null);
  // Read at run time, so the run callback keeps its identity (it is registered as a Monaco action).
  const targetRef = useRef(target);
  targetRef.current = target;
  const [refused, setRefused] = useState(false);
  const mutation = useMutation({
    ...evaluateRunMutation(),
    // NOTE: options-level callbacks still run if the screen unmounts mid-run, so no run is left "running".
    onSuccess: (record, vars) => {
      const { id: _id, at: _at, targetId: _t, body: _b, ...outcome } = runViewOf(record);
      useWorkbench.getState().finishRun(vars.runId, outcome, vars.valid ? record : undefined);
    },
    onError: (error, vars) => {
      useWorkbench.getState().finishRun(vars.runId, {
        status: 'failed',
        attempts: useWorkbench.getState().current?.attempts ?? [],
        error: {
          kind: 'bug',
          message: `The workbench failed: ${error.message}`,
          fieldErrors: [],
          possiblyBilled: true,
        },
      });
    },
  });
  const { mutate, isPending } = mutation;
  // Read by run() without making it change on every status flip (it is registered as a Monaco action).
  const isPendingRef = useRef(isPending);
  isPendingRef.current = isPending;
  const listedKey = listedModels.join('\u0000');

  const run = useCallback(
    (force = false) => {
      if (isPendingRef.current) return;
      const store = useWorkbench.getState();
      const listed = listedKey ? listedKey.split('\u0000') : [];
      const checked = checkDoc(store.doc, listed, [], { mode: 'single' }, targetRef.current);
      const body = checked.draft.body;
      if (!body || (checked.blocked && !force)) {
        setRefused(true);
        return;
      }
      setRefused(false);
      const runId = newId();
      const at = new Date().toISOString();
      const abort = new AbortController();
      controller.current = abort;
      store.startRun({ id: runId, at, targetId, body });
      mutate({
        runId,
        at,
        targetId,
        body,
        valid: checked.draft.request !== null,
        signal: abort.signal,
        onAttempt: (attempt) => useWorkbench.getState().addAttempt(runId, attempt),
      });
    },
    [listedKey, mutate, targetId],
  );
  const cancel = useCallback(() => controller.current?.abort(), []);
  return { run, cancel, running: isPending, refused };
}
