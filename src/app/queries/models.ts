// A target's model list as React Query server state, fetched through the proxy with the client's listModels.
import { queryOptions } from '@tanstack/react-query';
import { listModels } from '../../client';
import { classifyModelId } from '../../contract';
import type { ModelList } from '../../contract';
import { proxyTarget, targetsQueryOptions } from './targets';

/** A target's models; `unlisted` when the target is set with no list (`"modelsPath": null`): its ids are typed. */
export type TargetModels = ModelList & { unlisted?: true };

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
    queryFn: async ({ signal, client }): Promise<TargetModels> => {
      // A target with no list is not asked for one: its server would answer 404, which is no fault of anyone's.
      const targets = await client.fetchQuery(targetsQueryOptions()).catch(() => undefined);
      if (targets?.find((t) => t.id === targetId)?.modelsPath === null) return { models: [], unlisted: true };
      return listModels(proxyTarget(targetId), { signal });
    },
    staleTime: 5 * 60_000,
  });
