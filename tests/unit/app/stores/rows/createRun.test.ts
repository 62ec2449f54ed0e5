// @vitest-environment jsdom
// A run is stored from a plan of its own mapping: a label column chosen a moment before Start (the plan of the edit not
// yet made) still labels the stored rows, and the screen's Start waits while an edit is waiting to be planned.
// jsdom: the store reads the picked file with FileReader, as the browser does.
import { afterEach, describe, expect, it } from 'vitest';
import type { Questions } from '../../../../../src/contract';
import { abortableSleep } from '../../../../../src/client';
import { newId } from '../../../../../src/core/ids';
import { WorkbenchDb } from '../../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../../src/app/persistence/rowsRepo';
import { createInlineParser } from '../../../../../src/app/workers/rowsParser';
import { createRowsStore } from '../../../../../src/app/stores/rows';
import { freshDbName } from '../../persistence/dbHelpers';

const questions: Questions = {
  department: { type: 'choice', criteria: { billing: 'Payments', technical: 'Crashes' } },
};
const CSV = 'ticket,text,human\nk1,I was charged twice,billing\nk2,The app crashes,technical\n';

const opened: WorkbenchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

async function plannedFile() {
  const db = new WorkbenchDb(freshDbName());
  opened.push(db);
  const repo = new RowsRepo(db);
  const store = createRowsStore({
    repo,
    parser: createInlineParser,
    evaluate: () => Promise.reject(new Error('nothing is sent in this test')),
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: 'http://127.0.0.1:9', headers: {} }),
    newId,
  });
  // No column is named like the question, so the file is planned with no label column.
  await store.getState().pickFile(new File([CSV], 'tickets.csv'), Object.keys(questions));
  await store.getState().planFor(questions);
  expect(store.getState().mapping?.labels ?? []).toEqual([]);
  return { repo, store };
}

describe('storing a run from the file as mapped', () => {
  it('labels the stored rows with a label column chosen just before Start, before its plan was made', async () => {
    const { repo, store } = await plannedFile();
    const mapping = store.getState().mapping!;
    store.getState().setMapping({
      ...mapping,
      mode: 'text',
      column: 'text',
      labels: [{ column: 'human', question: 'department', levelBase: 0, values: {} }],
    });
    const id = await store.getState().createRun({ questions, model: 'model-1.13.0', targetId: 'local' });
    expect(id).not.toBeNull();
    const run = (await repo.getRun(id!))!;
    expect(run.mapping.labels).toEqual([
      { column: 'human', question: 'department', levelBase: 0, values: {} },
    ]);
    const { items } = await repo.loadItems(id!);
    expect(items.map((i) => i.labels)).toEqual([{ department: 'billing' }, { department: 'technical' }]);
  });

  it('says an edit is waiting to be planned until the plan of it is made', async () => {
    const { store } = await plannedFile();
    expect(store.getState().planning).toBe(false);
    store.getState().planPending();
    expect(store.getState().planning).toBe(true);
    await store.getState().planFor(questions);
    expect(store.getState().planning).toBe(false);
    store.getState().planPending();
    await store.getState().planFor(null);
    expect(store.getState().planning).toBe(false);
  });
});
