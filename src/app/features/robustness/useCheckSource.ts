// What the robustness check checks, read from the screen: the request on screen at the chosen target (costed at its
// price, paced at its limits), or a sample of a file run's rows.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { EvaluateRequest } from '../../../contract';
import type { RowRun } from '../../../core/rows/records';
import { pacingFor } from '../../../core/rows/pacer';
import { targetsQueryOptions } from '../../queries/targets';
import { useWorkbench } from '../../stores/workbench';
import type { CheckSource } from './robustnessStore';

export interface CheckSourceInput {
  sourceKind: 'state' | 'rows';
  request: EvaluateRequest | null;
  targetId: string;
  chosenRun: RowRun | undefined;
  sample: number;
}

/** The source to plan (null when there is nothing to check yet) and a target's label by its id. */
export function useCheckSource({ sourceKind, request, targetId, chosenRun, sample }: CheckSourceInput) {
  const lastRun = useWorkbench((s) => s.current);
  // The target on screen: the check is costed at its price and paced at its limits, as a file run on it would be.
  const targets = useQuery(targetsQueryOptions());
  const targetLabelOf = (id: string): string => targets.data?.find((t) => t.id === id)?.label ?? id;
  const target = targets.data?.find((t) => t.id === targetId);
  const inputPrice = target ? target.inputPrice : null;
  const { requestsPerMinute, tokensPerSecond, concurrency } = pacingFor(target);
  const source = useMemo((): CheckSource | null => {
    if (sourceKind === 'state' && request && target)
      return {
        kind: 'state',
        targetId,
        terms: { inputPrice, pacing: { requestsPerMinute, tokensPerSecond, concurrency } },
        request,
        ...(lastRun
          ? { lastRun: { body: lastRun.body, response: lastRun.response, targetId: lastRun.targetId } }
          : {}),
      };
    if (sourceKind === 'rows' && chosenRun) return { kind: 'rows', runId: chosenRun.id, sample };
    return null;
  }, [
    sourceKind,
    request,
    target,
    targetId,
    inputPrice,
    requestsPerMinute,
    tokensPerSecond,
    concurrency,
    lastRun,
    chosenRun,
    sample,
  ]);
  return { source, targetLabelOf };
}
