// The team workspace as React Query server state: status, queues, a queue's labels, disagreements and figures, and
// the calls that change them. The browser speaks for its person by the workspace's cookie (same origin), so every
// factory takes the connection only for tests; the app passes none.
import { mutationOptions, queryOptions } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import {
  adjudicate,
  claimOwner,
  createInvite,
  createQueue,
  exportQueue,
  importLabels,
  joinWorkspace,
  listPeople,
  listQueues,
  queueDisagreements,
  queueFigures,
  queueLabels,
  startWorkspace,
  workspaceStatus,
} from '../../client/workspace';
import { workspaceConnection } from './workspaceConnection';
import type { CreateQueueRequest, FiguresBasis, InteropFormat } from '../../contract/workspace';

/** The keys, one root: signing in or out invalidates everything under it. */
export const workspaceKeys = {
  all: ['workspace'] as const,
  status: () => ['workspace', 'status'] as const,
  people: () => ['workspace', 'people'] as const,
  queues: () => ['workspace', 'queues'] as const,
  queue: (id: string) => ['workspace', 'queue', id] as const,
  labels: (id: string) => ['workspace', 'queue', id, 'labels'] as const,
  disagreements: (id: string) => ['workspace', 'queue', id, 'disagreements'] as const,
  figures: (id: string, basis: FiguresBasis) => ['workspace', 'queue', id, 'figures', basis] as const,
};

/** GET status: whether a workspace runs here and who this browser is in it. */
export const workspaceStatusQueryOptions = (conn = workspaceConnection()) =>
  queryOptions({
    queryKey: workspaceKeys.status(),
    queryFn: ({ signal }) => workspaceStatus(conn, { signal }),
    staleTime: 30_000,
  });

/** GET people (owner). */
export const workspacePeopleQueryOptions = (conn = workspaceConnection()) =>
  queryOptions({
    queryKey: workspaceKeys.people(),
    queryFn: ({ signal }) => listPeople(conn, { signal }),
  });

/** GET queues: every queue for the owner, a labeller's own; progress moves, so it is refetched every half minute. */
export const workspaceQueuesQueryOptions = (conn = workspaceConnection()) =>
  queryOptions({
    queryKey: workspaceKeys.queues(),
    queryFn: ({ signal }) => listQueues(conn, { signal }),
    refetchInterval: 30_000,
  });

/** GET :id/labels. */
export const queueLabelsQueryOptions = (id: string, conn = workspaceConnection()) =>
  queryOptions({
    queryKey: workspaceKeys.labels(id),
    queryFn: ({ signal }) => queueLabels(conn, id, { signal }),
  });

/** GET :id/disagreements (owner): changes as people label, so the queue's events invalidate it. */
export const queueDisagreementsQueryOptions = (id: string, conn = workspaceConnection()) =>
  queryOptions({
    queryKey: workspaceKeys.disagreements(id),
    queryFn: ({ signal }) => queueDisagreements(conn, id, { signal }),
  });

/** GET :id/figures under one basis (owner). The figures follow the queue's events; no polling. */
export const queueFiguresQueryOptions = (id: string, basis: FiguresBasis, conn = workspaceConnection()) =>
  queryOptions({
    queryKey: workspaceKeys.figures(id, basis),
    queryFn: ({ signal }) => queueFigures(conn, id, basis, { signal }),
    placeholderData: (previous) => previous,
  });

/** Everything a queue's labels feed: what an event invalidates. */
export const invalidateQueue = (client: QueryClient, id: string) =>
  Promise.all([
    client.invalidateQueries({ queryKey: workspaceKeys.queue(id) }),
    client.invalidateQueries({ queryKey: workspaceKeys.queues() }),
  ]);

/** POST start: this browser becomes the owner. */
export const startWorkspaceMutationOptions = (conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'start'] as const,
    mutationFn: (name: string | undefined) => startWorkspace(conn, name),
  });

/** POST claim: an owner link opened in this browser. */
export const claimOwnerMutationOptions = (conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'claim'] as const,
    mutationFn: (token: string) => claimOwner(conn, token),
  });

/** POST invites (owner). */
export const createInviteMutationOptions = (conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'invite'] as const,
    mutationFn: (invite: { note: string; expiresInSeconds: number }) => createInvite(conn, invite),
  });

/** POST join: an invite link and a name. */
export const joinWorkspaceMutationOptions = (conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'join'] as const,
    mutationFn: ({ invite, name }: { invite: string; name: string }) => joinWorkspace(conn, invite, name),
  });

/** POST queues (owner): publish a run's rows. */
export const publishQueueMutationOptions = (conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'publish'] as const,
    mutationFn: (queue: CreateQueueRequest) => createQueue(conn, queue),
  });

/** PUT :id/adjudications (owner). */
export const adjudicateMutationOptions = (id: string, conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'queue', id, 'adjudicate'] as const,
    mutationFn: (settle: {
      row: number;
      question: string;
      value: string | number | boolean | null;
      note: string;
    }) => adjudicate(conn, id, settle),
  });

/** POST :id/import (owner). */
export const importLabelsMutationOptions = (id: string, conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'queue', id, 'import'] as const,
    mutationFn: ({ format, text }: { format: InteropFormat; text: string }) =>
      importLabels(conn, id, format, text),
  });

/** GET :id/export (owner): the file's text, for the page to hand to the person. */
export const exportQueueMutationOptions = (id: string, conn = workspaceConnection()) =>
  mutationOptions({
    mutationKey: ['workspace', 'queue', id, 'export'] as const,
    mutationFn: async (format: InteropFormat) => ({ format, text: await exportQueue(conn, id, format) }),
  });
