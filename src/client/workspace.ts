// The team workspace's endpoints (issue 40), one function each, every answer parsed by the contract's schema
// (src/contract/workspace.ts). Calls that spend a single-use token (start, claim, join, an invite) are never retried:
// a retry after a lost answer would find the token spent.
import type { z } from 'zod';
import {
  AdjudicationResponseSchema,
  ClaimResponseSchema,
  CreateQueueResponseSchema,
  DisagreementsResponseSchema,
  FiguresResponseSchema,
  ImportResponseSchema,
  InviteResponseSchema,
  JoinResponseSchema,
  LabelsResponseSchema,
  NextResponseSchema,
  PeopleResponseSchema,
  PutLabelsResponseSchema,
  QueueListResponseSchema,
  SkipResponseSchema,
  StartResponseSchema,
  StatusResponseSchema,
  WORKSPACE_PATHS,
  queuePath,
} from '../contract/workspace';
import type {
  CreateQueueRequest,
  FiguresBasis,
  InteropFormat,
  LabelInput,
  AdjudicationRequestSchema,
} from '../contract/workspace';
import { workspaceJson, workspaceText } from './workspaceCall';
import type { WorkspaceCallOptions, WorkspaceConnection } from './workspaceCall';

export type { WorkspaceCallOptions, WorkspaceConnection } from './workspaceCall';
export { WorkspaceCallError, isWorkspaceCallError } from './workspaceErrors';
export type { WorkspaceFailureKind } from './workspaceErrors';
export { followQueueEvents } from './serverEvents';

const once: WorkspaceCallOptions = { maxRetries: 0 };

/** GET status: whether a workspace was started and who this browser is in it. */
export const workspaceStatus = (conn: WorkspaceConnection, options?: WorkspaceCallOptions) =>
  workspaceJson(
    conn,
    { method: 'GET', path: WORKSPACE_PATHS.status, what: 'workspace status' },
    StatusResponseSchema,
    options,
  );

/** POST start (from this machine): makes this browser the owner; the answer holds the one-time owner link. */
export const startWorkspace = (conn: WorkspaceConnection, name?: string) =>
  workspaceJson(
    conn,
    { method: 'POST', path: WORKSPACE_PATHS.start, json: name ? { name } : {}, what: 'started workspace' },
    StartResponseSchema,
    once,
  );

/** POST claim: an owner link's token becomes this browser's owner cookie. */
export const claimOwner = (conn: WorkspaceConnection, token: string) =>
  workspaceJson(
    conn,
    { method: 'POST', path: WORKSPACE_PATHS.claim, json: { token }, what: 'claimed owner' },
    ClaimResponseSchema,
    once,
  );

/** POST invites (owner): a single-use link that expires. */
export const createInvite = (
  conn: WorkspaceConnection,
  invite: { note?: string; expiresInSeconds?: number },
) =>
  workspaceJson(
    conn,
    { method: 'POST', path: WORKSPACE_PATHS.invites, json: invite, what: 'invite' },
    InviteResponseSchema,
    once,
  );

/** POST join: an invite's token and the labeller's name. */
export const joinWorkspace = (conn: WorkspaceConnection, invite: string, name: string) =>
  workspaceJson(
    conn,
    { method: 'POST', path: WORKSPACE_PATHS.join, json: { invite, name }, what: 'joined person' },
    JoinResponseSchema,
    once,
  );

/** GET people (owner). */
export const listPeople = (conn: WorkspaceConnection, options?: WorkspaceCallOptions) =>
  workspaceJson(
    conn,
    { method: 'GET', path: WORKSPACE_PATHS.people, what: 'list of people' },
    PeopleResponseSchema,
    options,
  );

/** POST queues (owner): publishes rows with their questions. Not retried: a lost answer would publish twice. */
export const createQueue = (conn: WorkspaceConnection, queue: CreateQueueRequest) =>
  workspaceJson(
    conn,
    { method: 'POST', path: WORKSPACE_PATHS.queues, json: queue, what: 'published queue' },
    CreateQueueResponseSchema,
    { ...once, timeoutMs: 120_000 },
  );

/** GET queues: the owner's every queue, a labeller's own. */
export const listQueues = (conn: WorkspaceConnection, options?: WorkspaceCallOptions) =>
  workspaceJson(
    conn,
    { method: 'GET', path: WORKSPACE_PATHS.queues, what: 'list of queues' },
    QueueListResponseSchema,
    options,
  );

const inQueue = <T>(
  conn: WorkspaceConnection,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  id: string,
  schema: z.ZodType<T>,
  what: string,
  extra: { json?: unknown; query?: Record<string, string> } = {},
  options?: WorkspaceCallOptions,
) => workspaceJson(conn, { method, path: queuePath(path, id), what, ...extra }, schema, options);

/** POST :id/next: reserves this person's next row (a retry gets the same reservation back). */
export const nextRow = (conn: WorkspaceConnection, id: string, options?: WorkspaceCallOptions) =>
  inQueue(conn, 'POST', WORKSPACE_PATHS.next, id, NextResponseSchema, 'next row', { json: {} }, options);

/** PUT :id/labels: idempotent by row, question, person and client id, so it is retried freely. */
export const putLabels = (
  conn: WorkspaceConnection,
  id: string,
  labels: readonly LabelInput[],
  options?: WorkspaceCallOptions,
) =>
  inQueue(
    conn,
    'PUT',
    WORKSPACE_PATHS.labels,
    id,
    PutLabelsResponseSchema,
    'saved labels',
    { json: { labels } },
    options,
  );

/** POST :id/skip: hands the reserved row back. */
export const skipRow = (conn: WorkspaceConnection, id: string, row: number) =>
  inQueue(conn, 'POST', WORKSPACE_PATHS.skip, id, SkipResponseSchema, 'skip', { json: { row } });

/** GET :id/labels: the owner's every label, a labeller's own. */
export const queueLabels = (conn: WorkspaceConnection, id: string, options?: WorkspaceCallOptions) =>
  inQueue(conn, 'GET', WORKSPACE_PATHS.labels, id, LabelsResponseSchema, 'labels', {}, options);

/** GET :id/disagreements (owner). */
export const queueDisagreements = (conn: WorkspaceConnection, id: string, options?: WorkspaceCallOptions) =>
  inQueue(
    conn,
    'GET',
    WORKSPACE_PATHS.disagreements,
    id,
    DisagreementsResponseSchema,
    'disagreements',
    {},
    options,
  );

/** PUT :id/adjudications (owner): a settled label with a note (value null clears it). */
export const adjudicate = (
  conn: WorkspaceConnection,
  id: string,
  settle: z.input<typeof AdjudicationRequestSchema>,
) =>
  inQueue(conn, 'PUT', WORKSPACE_PATHS.adjudications, id, AdjudicationResponseSchema, 'settled label', {
    json: settle,
  });

/** GET :id/figures (owner): the labels in TrustData's shape under one basis, and per-labeller figures. */
export const queueFigures = (
  conn: WorkspaceConnection,
  id: string,
  basis: FiguresBasis,
  options?: WorkspaceCallOptions,
) =>
  inQueue(
    conn,
    'GET',
    WORKSPACE_PATHS.figures,
    id,
    FiguresResponseSchema,
    'figures',
    { query: { basis } },
    options,
  );

/** GET :id/export?format=: the file's text as the server wrote it. */
export const exportQueue = (
  conn: WorkspaceConnection,
  id: string,
  format: InteropFormat,
  options?: WorkspaceCallOptions,
) =>
  workspaceText(
    conn,
    { method: 'GET', path: queuePath(WORKSPACE_PATHS.export, id), query: { format }, what: 'export' },
    options,
  );

/** POST :id/import?format=: a file's text; imported labels keep who gave them. Not retried: an import is no retry. */
export const importLabels = (conn: WorkspaceConnection, id: string, format: InteropFormat, text: string) =>
  workspaceJson(
    conn,
    {
      method: 'POST',
      path: queuePath(WORKSPACE_PATHS.import, id),
      query: { format },
      text: { body: text, type: format === 'csv' ? 'text/csv' : 'application/json' },
      what: 'import report',
    },
    ImportResponseSchema,
    { ...once, timeoutMs: 120_000 },
  );
