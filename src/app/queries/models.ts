// A target's model list as React Query server state, fetched through the proxy with the client's listModels.
import { queryOptions } from '@tanstack/react-query';
import { listModels } from '../../client';
import { proxyTarget } from './targets';

/** GET /api/targets/<id>/v1/models. Aliases move rarely; five minutes keeps the list fresh enough without refetching. */
export const modelsQueryOptions = (targetId: string) =>
  queryOptions({
    queryKey: ['targets', targetId, 'models'] as const,
    queryFn: ({ signal }) => listModels(proxyTarget(targetId), { signal }),
    staleTime: 5 * 60_000,
  });
