// The workspace client against the real workspace server on loopback: starting, inviting and joining by link, a
// queue published and labelled, a retried label stored once, the queue's events followed, and every refusal a typed
// error with the server's sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInvite,
  createQueue,
  followQueueEvents,
  isWorkspaceCallError,
  joinWorkspace,
  nextRow,
  putLabels,
  queueFigures,
  queueLabels,
  startWorkspace as startOwner,
  workspaceStatus,
} from '../../../src/client/workspace';
import type { WorkspaceEvent } from '../../../src/contract/workspace';
import { workspaceLinkOf } from '../../../src/core/workspace/links';
import { queueOf } from '../server/workspace/fixtures';
import { browserPerson, startWorkspace } from '../../helpers/workspace';
import type { BrowserPerson, TestWorkspace } from '../../helpers/workspace';

let ws: TestWorkspace;
let owner: BrowserPerson;
let ada: BrowserPerson;
let queueId: string;

/** The token of an invite link, read as the page reads it. */
const inviteToken = (link: string): string => {
  const parsed = workspaceLinkOf(new URL(link).hash);
  if (parsed?.kind !== 'invite') throw new Error(`not an invite link: ${link}`);
  return parsed.token;
};

beforeAll(async () => {
  ws = await startWorkspace();
  owner = browserPerson(ws.url);
  ada = browserPerson(ws.url);
}, 120_000);
afterAll(() => ws.close());

describe('people', () => {
  it('starts with one call, no sign-in, and the owner link opens as an owner link', async () => {
    expect(await workspaceStatus(owner.conn)).toEqual({ started: false, me: null });
    const started = await startOwner(owner.conn);
    expect(started.me.role).toBe('owner');
    expect(workspaceLinkOf(new URL(started.ownerLink).hash)?.kind).toBe('owner');
    expect((await workspaceStatus(owner.conn)).me?.role).toBe('owner');
  });

  it('joins by an invite link with a name, and the invite works once', async () => {
    const invite = await createInvite(owner.conn, { note: 'Ada', expiresInSeconds: 3600 });
    const joined = await joinWorkspace(ada.conn, inviteToken(invite.link), 'Ada');
    expect(joined.me).toMatchObject({ name: 'Ada', role: 'labeller' });
    expect((await workspaceStatus(ada.conn)).me?.name).toBe('Ada');

    const again = await joinWorkspace(browserPerson(ws.url).conn, inviteToken(invite.link), 'Eve').catch(
      (e: unknown) => e,
    );
    expect(isWorkspaceCallError(again) && again.status).toBeGreaterThanOrEqual(400);
    expect(isWorkspaceCallError(again) && again.retryable).toBe(false);
    expect(String((again as Error).message)).toMatch(/\(\d{3}\)/);
    // A spent invite is never sent twice by the client: a retry would find it spent anyway.
    expect(ada.sent.filter((s) => s.endsWith('/join'))).toHaveLength(1);
  });
});

describe('a queue', () => {
  beforeAll(async () => {
    queueId = (await createQueue(owner.conn, queueOf(4, { overlap: { perRow: 1, share: 1 } }))).queue.id;
  });

  it('hands a labeller a row with no judge’s answer in it', async () => {
    const next = await nextRow(ada.conn, queueId);
    expect(next.reason).toBe('row');
    expect(next.row?.state).toMatch(/^ticket number \d$/);
    expect(JSON.stringify(next)).not.toMatch(/judge|confidence/);
    expect(next.progress.text).toMatch(/^0 of 4/);
  });

  it('stores a label once however often it is sent with its client id', async () => {
    const next = await nextRow(ada.conn, queueId);
    const label = { row: next.row!.index, question: 'tone', value: 'calm', clientId: 'ada-1' };
    const first = await putLabels(ada.conn, queueId, [label]);
    const retry = await putLabels(ada.conn, queueId, [label]);
    expect(first.saved[0]!.outcome).toBe('new');
    expect(retry.saved[0]!.outcome).toBe('same');
    const stored = await queueLabels(owner.conn, queueId);
    expect(stored.labels.filter((l) => l.clientId === 'ada-1')).toHaveLength(1);
  });

  it('refuses the owner’s figures to a labeller with a typed error and the server’s sentence', async () => {
    const refused = await queueFigures(ada.conn, queueId, 'each').catch((e: unknown) => e);
    expect(isWorkspaceCallError(refused)).toBe(true);
    if (!isWorkspaceCallError(refused)) return;
    expect(refused.kind).toBe('forbidden');
    expect(refused.message).toMatch(/\(403\): this person may not do that in the workspace\.$/);
    expect(refused.message).not.toMatch(/[A-Za-z0-9_-]{40,}/);
  });

  it('follows the queue’s events: a label arrives as an event', async () => {
    const controller = new AbortController();
    const events: WorkspaceEvent[] = [];
    let live!: () => void;
    const opened = new Promise<void>((resolve) => (live = resolve));
    const following = followQueueEvents(owner.conn, queueId, (e) => events.push(e), {
      signal: controller.signal,
      onLive: (open) => open && live(),
    });
    await opened;
    const next = await nextRow(ada.conn, queueId);
    await putLabels(ada.conn, queueId, [
      { row: next.row!.index, question: 'harmful', value: false, clientId: 'ada-2' },
    ]);
    await expect.poll(() => events.map((e) => e.kind), { timeout: 5_000 }).toContain('label');
    expect(events.find((e) => e.kind === 'label')).toMatchObject({ queue: queueId, question: 'harmful' });
    controller.abort();
    await following;
  });
});

describe('the connection', () => {
  it('says in a sentence that the workspace cannot be reached, after the policy’s retries', async () => {
    const cut = browserPerson(ws.url);
    cut.setOffline(true);
    const error = await workspaceStatus(cut.conn, { sleep: async () => {} }).catch((e: unknown) => e);
    expect(isWorkspaceCallError(error) && error.kind).toBe('network');
    expect(isWorkspaceCallError(error) && error.attempts).toBe(3);
    expect((error as Error).message).toMatch(
      /^Could not reach the workspace at http:\/\/127\.0\.0\.1:\d+\/api\/workspace\/status \(fetch failed\) after 3 attempts;/,
    );
  });
});
