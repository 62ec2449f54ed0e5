// A target's model list as React Query server state, fetched through the proxy with the client's listModels.
import { queryOptions } from '@tanstack/react-query';
import { listModels } from '../../client';
import { classifyModelId } from '../../contract';
import { proxyTarget } from './targets';

/**
 * The model a new session on a target starts with: `preferred` when the target lists it (or lists nothing), else the
 * first alias it lists, else the first model.
 */
export function startingModel(listed: readonly string[], preferred: string): string | undefined {
  if (listed.length === 0 || listed.includes(preferred)) return undefined;
  return listed.find((id) => classifyModelId(id) === 'alias') ?? listed[0];
}

/** GET /api/targets/<id>/v1/models. Aliases move rarely; five minutes keeps the list fresh enough without refetching. */
export const modelsQueryOptions = (targetId: string) =>
  queryOptions({
    queryKey: ['targets', targetId, 'models'] as const,
    queryFn: ({ signal }) => listModels(proxyTarget(targetId), { signal }),
    staleTime: 5 * 60_000,
  });
