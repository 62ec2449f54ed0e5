// A labeller's labels through the outbox (fake-indexeddb) to the real workspace server on loopback: labels given while
// the connection is down are kept and arrive once when it is back, a lost acknowledgement (the label stored, the answer
// dropped) is sent again and still stored once, and a reload (a new store over the same database) sends what was kept.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createInvite,
  createQueue,
  joinWorkspace,
  nextRow,
  queueLabels,
  startWorkspace as startOwner,
} from '../../../../src/client/workspace';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { OutboxRepo } from '../../../../src/app/persistence/outbox';
import { createOutboxStore } from '../../../../src/app/stores/workspaceOutbox';
import type { LabelInput } from '../../../../src/contract/workspace';
import { workspaceLinkOf } from '../../../../src/core/workspace/links';
import { queueOf } from '../../server/workspace/fixtures';
import { freshDbName } from '../persistence/dbHelpers';
import { browserPerson, startWorkspace } from '../../../helpers/workspace';
import type { BrowserPerson, TestWorkspace } from '../../../helpers/workspace';

let ws: TestWorkspace;
let owner: BrowserPerson;
let queueId: string;

beforeAll(async () => {
  ws = await startWorkspace();
  owner = browserPerson(ws.url);
  await startOwner(owner.conn);
  queueId = (await createQueue(owner.conn, queueOf(6, { overlap: { perRow: 2, share: 1 } }))).queue.id;
}, 120_000);
afterAll(() => ws.close());

async function labeller(name: string): Promise<BrowserPerson> {
  const person = browserPerson(ws.url);
  const invite = await createInvite(owner.conn, {});
  const token = workspaceLinkOf(new URL(invite.link).hash)!.token;
  await joinWorkspace(person.conn, token, name);
  return person;
}

/** A store whose retries wait for the test to run them, so nothing is sent behind its back. */
function outboxFor(person: BrowserPerson, db = new WorkbenchDb(freshDbName())) {
  const waiting: (() => void)[] = [];
  const store = createOutboxStore({
    repo: new OutboxRepo(db),
    conn: person.conn,
    schedule: (_ms, run) => {
      waiting.push(run);
      return () => waiting.splice(waiting.indexOf(run), 1);
    },
  });
  return { store, db, waiting };
}

const storedBy = async (name: string) =>
  (await queueLabels(owner.conn, queueId)).labels.filter((l) => l.name === name);

const labelOf = (row: number, clientId: string, value: LabelInput['value'] = 'calm'): LabelInput => ({
  row,
  question: 'tone',
  value,
  clientId,
});

describe('the outbox', () => {
  it('keeps labels given offline and sends each once when the connection is back', async () => {
    const bo = await labeller('Bo');
    const { store, waiting } = outboxFor(bo);
    const row = (await nextRow(bo.conn, queueId)).row!.index;
    bo.setOffline(true);
    await store.getState().give(queueId, labelOf(row, 'bo-1'));
    await store.getState().flush();
    await store.getState().give(queueId, { ...labelOf(row, 'bo-2', false), question: 'harmful' });
    await store.getState().flush();
    expect(store.getState().pending).toBe(2);
    expect(store.getState().problem).toMatch(/^2 labels kept in this browser, not sent yet: Could not reach/);
    expect(waiting.length).toBeGreaterThan(0);
    expect(await storedBy('Bo')).toEqual([]);

    bo.setOffline(false);
    await store.getState().flush();
    expect(store.getState()).toMatchObject({ pending: 0, problem: null });
    const stored = await storedBy('Bo');
    expect(stored.map((l) => l.clientId).sort()).toEqual(['bo-1', 'bo-2']);
    expect(store.getState().progress[queueId]?.text).toMatch(/^1 of /);
    // Flushing again sends nothing and doubles nothing.
    await store.getState().flush();
    expect(await storedBy('Bo')).toHaveLength(2);
  });

  it('sends a label again when its acknowledgement was lost, and it is still stored once', async () => {
    const cy = await labeller('Cy');
    const row = (await nextRow(cy.conn, queueId)).row!.index;
    // The server stores the label, then the answer is lost on the way back.
    let dropAnswer = true;
    const lossy = {
      ...cy.conn,
      fetch: (async (input, init) => {
        const response = await cy.conn.fetch!(input, init);
        if (dropAnswer && init?.method === 'PUT') {
          dropAnswer = false;
          throw new TypeError('fetch failed');
        }
        return response;
      }) as typeof fetch,
    };
    const { store } = outboxFor({ ...cy, conn: lossy });
    await store.getState().give(queueId, labelOf(row, 'cy-1', 'angry'));
    await store.getState().flush();
    expect(store.getState().pending).toBe(0);
    const stored = await storedBy('Cy');
    expect(stored.map((l) => [l.clientId, l.value])).toEqual([['cy-1', 'angry']]);
  });

  it('sends what a page left kept when the next page opens over the same database', async () => {
    const di = await labeller('Di');
    const row = (await nextRow(di.conn, queueId)).row!.index;
    const first = outboxFor(di);
    di.setOffline(true);
    await first.store.getState().give(queueId, labelOf(row, 'di-1'));
    await first.store.getState().flush();
    expect(first.store.getState().pending).toBe(1);

    di.setOffline(false);
    const reopened = outboxFor(di, new WorkbenchDb(first.db.name));
    await reopened.store.getState().flush();
    expect(reopened.store.getState().pending).toBe(0);
    expect((await storedBy('Di')).map((l) => l.clientId)).toEqual(['di-1']);
  });
});
