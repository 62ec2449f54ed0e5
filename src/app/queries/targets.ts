// The proxy's targets as React Query server state, and the client target the browser uses for each.
import { queryOptions } from '@tanstack/react-query';
import type { ClientTarget } from '../../client';
import { listTargets, proxyClientTarget } from '../../client/workbenchApi';
import type { TargetInfo } from '../../client/workbenchApi';
import type { TargetFacts } from '../../core/runDraft';

export type { TargetInfo, TargetKind } from '../../client/workbenchApi';

/** The client target of a proxy target, same origin: `/api/targets/<id>` with the workbench header. */
export const proxyTarget = (id: string): ClientTarget => proxyClientTarget(id);

/** GET /api/targets. The list changes only when the server restarts, so it never goes stale in a session. */
export const targetsQueryOptions = () =>
  queryOptions({
    queryKey: ['targets'] as const,
    queryFn: ({ signal }) => listTargets({ signal }),
    staleTime: Infinity,
  });

/** True when no target reaches a real service: the shell then says how to add a key. */
export const onlyLocalTargets = (targets: readonly TargetInfo[]): boolean =>
  targets.every((t) => t.kind === 'local');

/**
 * The target to use: the chosen one while it exists, else the first real service, else the local reference. The
 * server lists real services first.
 */
export function pickTarget(targets: readonly TargetInfo[], chosenId: string | null): TargetInfo | undefined {
  return targets.find((t) => t.id === chosenId) ?? targets[0];
}

/** What the editor's checks and the rows runner need of a target: its dialect and its own limits, when it has any. */
export const targetFactsOf = (info: TargetInfo | undefined): TargetFacts | undefined =>
  info && (info.dialect || info.limits)
    ? { label: info.label, dialect: info.dialect, limits: info.limits }
    : undefined;
