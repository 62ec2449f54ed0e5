// The labeller's store over the outbox (fake-indexeddb) and the real workspace server on loopback: after the last
// question of a row, the next row is asked for once the label reached the workspace. Asked sooner (a slow network
// delays the label's PUT), the server hands back the row it still holds for this person, and the page seemed stuck.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInvite,
  createQueue,
  joinWorkspace,
  startWorkspace as startOwner,
} from '../../../../src/client/workspace';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { OutboxRepo } from '../../../../src/app/persistence/outbox';
import { createOutboxStore } from '../../../../src/app/stores/workspaceOutbox';
import { createQueueLabelling } from '../../../../src/app/stores/workspaceLabelling';
import { workspaceLinkOf } from '../../../../src/core/workspace/links';
import { queueOf } from '../../server/workspace/fixtures';
import { freshDbName } from '../persistence/dbHelpers';
import { browserPerson, startWorkspace } from '../../../helpers/workspace';
import type { BrowserPerson, TestWorkspace } from '../../../helpers/workspace';

let ws: TestWorkspace;
let owner: BrowserPerson;

beforeAll(async () => {
  ws = await startWorkspace();
  owner = browserPerson(ws.url);
  await startOwner(owner.conn);
}, 120_000);
afterAll(() => ws.close());

describe('labelling a queue', () => {
  it('moves to another row after the last question, even when the label is slow to reach the workspace', async () => {
    const queueId = (await createQueue(owner.conn, queueOf(4))).queue.id;
    const ada = browserPerson(ws.url);
    const token = workspaceLinkOf(new URL((await createInvite(owner.conn, {})).link).hash)!.token;
    await joinWorkspace(ada.conn, token, 'Ada');
    // A slow network on the way out: every label's PUT takes 300 ms longer than the request for the next row.
    const slow = {
      ...ada.conn,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method === 'PUT') await new Promise((r) => setTimeout(r, 300));
        return ada.conn.fetch!(input, init);
      }) as typeof fetch,
    };
    const outbox = createOutboxStore({ repo: new OutboxRepo(new WorkbenchDb(freshDbName())), conn: slow });
    const labelling = createQueueLabelling({ conn: slow, outbox });
    await labelling.getState().open(queueId);
    const first = labelling.getState().next!.row!.index;
    await labelling.getState().give('calm');
    await labelling.getState().give(false);
    expect(labelling.getState().phase).toBe('row');
    expect(labelling.getState().next!.row!.index).not.toBe(first);
    expect(labelling.getState().progress?.text).toMatch(/^1 of 4/);
    expect(outbox.getState().pending).toBe(0);
  });

  it('after the connection comes back, sends the label kept offline before asking for a row', async () => {
    const queueId = (await createQueue(owner.conn, queueOf(4))).queue.id;
    const bo = browserPerson(ws.url);
    const token = workspaceLinkOf(new URL((await createInvite(owner.conn, {})).link).hash)!.token;
    await joinWorkspace(bo.conn, token, 'Bo');
    const outbox = createOutboxStore({
      repo: new OutboxRepo(new WorkbenchDb(freshDbName())),
      conn: bo.conn,
      // Retries wait for the test: only the labelling store's own request may send the kept label.
      schedule: () => () => {},
    });
    const labelling = createQueueLabelling({ conn: bo.conn, outbox, schedule: () => () => {} });
    await labelling.getState().open(queueId);
    const first = labelling.getState().next!.row!.index;
    await labelling.getState().give('angry');
    await outbox.getState().flush();
    bo.setOffline(true);
    await labelling.getState().give(true);
    expect(labelling.getState().phase).toBe('offline');
    expect(outbox.getState().pending).toBe(1);
    bo.setOffline(false);
    await labelling.getState().retry();
    expect(labelling.getState().next!.row!.index).not.toBe(first);
    expect(outbox.getState().pending).toBe(0);
  });

  it('asks for no row while a kept label cannot be sent (the row held for it would come back unlabelled)', async () => {
    const queueId = (await createQueue(owner.conn, queueOf(4))).queue.id;
    const cy = browserPerson(ws.url);
    const token = workspaceLinkOf(new URL((await createInvite(owner.conn, {})).link).hash)!.token;
    await joinWorkspace(cy.conn, token, 'Cy');
    // The connection is back for some requests and not yet for the label's PUT (a network still settling).
    let putFails = false;
    const settling = {
      ...cy.conn,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (putFails && init?.method === 'PUT')
          throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
        return cy.conn.fetch!(input, init);
      }) as typeof fetch,
    };
    const outbox = createOutboxStore({
      repo: new OutboxRepo(new WorkbenchDb(freshDbName())),
      conn: settling,
      schedule: () => () => {},
    });
    const labelling = createQueueLabelling({ conn: settling, outbox, schedule: () => () => {} });
    await labelling.getState().open(queueId);
    const first = labelling.getState().next!.row!.index;
    putFails = true;
    await labelling.getState().give('calm');
    await labelling.getState().give(false);
    expect(outbox.getState().pending).toBe(2);
    expect(labelling.getState().phase).toBe('offline');
    expect(labelling.getState().message).toMatch(/2 labels kept in this browser, not sent yet/);
    putFails = false;
    await labelling.getState().retry();
    expect(outbox.getState().pending).toBe(0);
    expect(labelling.getState().phase).toBe('row');
    expect(labelling.getState().next!.row!.index).not.toBe(first);
  });
});
