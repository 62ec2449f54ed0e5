// The proxy's targets as React Query server state, and the client target the browser uses for each.
import { mutationOptions, queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientTarget } from '../../client';
import { checkTarget, listTargetProblems, listTargets, proxyClientTarget } from '../../client/workbenchApi';
import type { TargetInfo } from '../../client/workbenchApi';
import { canSend } from '../../contract';
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

/** Entries of the targets file the server skipped, each with why: said on the page, not only in the terminal. */
export const targetProblemsQueryOptions = () =>
  queryOptions({
    queryKey: ['targetProblems'] as const,
    queryFn: ({ signal }) => listTargetProblems({ signal }),
    staleTime: Infinity,
  });

/** One target's public description, from the cached list (undefined while it loads or when the id is gone). */
export function useTargetInfo(targetId: string): TargetInfo | undefined {
  return useQuery({ ...targetsQueryOptions(), select: (targets) => targets.find((t) => t.id === targetId) })
    .data;
}

/** A target as a picker names it: its label, and "key missing: VAR" when it cannot send. */
export const targetOptionLabel = (t: TargetInfo): string =>
  t.keyMissing ? `${t.label} (${t.keyMissing})` : t.label;

/** The target a new session starts on: the first configured target whose key is present (local is listed last). */
export const defaultTarget = (targets: readonly TargetInfo[]): TargetInfo | undefined =>
  targets.find(canSend) ?? targets[0];

/**
 * The target to use: the chosen one while it exists (a session keeps the target it was made on, even one whose key
 * is now missing, so it says so instead of switching silently), else the default.
 */
export function pickTarget(targets: readonly TargetInfo[], chosenId: string | null): TargetInfo | undefined {
  return targets.find((t) => t.id === chosenId) ?? defaultTarget(targets);
}

/** The check of one target (POST /api/targets/<id>/check), as a mutation: it spends a few tokens, so it runs on demand. */
export const targetCheckMutationOptions = (targetId: string) =>
  mutationOptions({
    mutationKey: ['targets', targetId, 'check'] as const,
    mutationFn: (model: string | undefined) => checkTarget(targetId, model),
  });
/** What the editor's checks and the rows runner need of a target: its dialect and its own limits, when it has any. */
export const targetFactsOf = (info: TargetInfo | undefined): TargetFacts | undefined =>
  info && (info.dialect || info.limits)
    ? { label: info.label, dialect: info.dialect, limits: info.limits }
    : undefined;
