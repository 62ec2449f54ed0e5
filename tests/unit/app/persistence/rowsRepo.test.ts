// The rows repo over fake-indexeddb: runs and rows round-trip, unreadable records are reported and not dropped,
// writes coalesce into few transactions without losing any, and deleting a run keeps the answers for reuse.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../src/app/persistence/rowsRepo';
import { storedRun } from '../../../helpers/fixtures';
import type { RowItem, RowOutcome, RowRun, StoredAnswer } from '../../../../src/core/rows/records';
import { freshDbName } from './dbHelpers';

const opened: WorkbenchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});
const open = (name = freshDbName()) => {
  const db = new WorkbenchDb(name);
  opened.push(db);
  return db;
};

const run = (id: string, rowCount: number): RowRun =>
  storedRun({
    id,
    questions: { q: { type: 'noul', instructions: 'Urgent?' } },
    rowCount,
    issues: [{ line: 3, number: 2, kind: 'empty', severity: 'skip', reason: 'Empty row.' }],
    totalTokens: rowCount * 10,
  });

const items = (runId: string, n: number): RowItem[] =>
  Array.from({ length: n }, (_, i) => ({
    runId,
    number: i + 1,
    line: i + 2,
    id: `r${i + 1}`,
    data: { id: `r${i + 1}`, text: `text ${i + 1}` },
    tokens: 10,
  }));

const outcome = (status: RowOutcome['status'], extra: Partial<RowOutcome> = {}): RowOutcome => ({
  status,
  at: 5,
  attempts: 1,
  possiblyBilledAttempts: 0,
  requeues: 0,
  ...extra,
});

const answer = (key: string): StoredAnswer => ({
  key,
  targetId: 'local',
  model: 'model-1.13.0',
  at: 7,
  response: {
    model: 'model-1.13.0',
    answers: { q: { type: 'noul', noul: 0.4 } },
    usage: { input_tokens: 10 },
  },
});

describe('RowsRepo', () => {
  it('stores a run with its rows and reads both back in file order', async () => {
    const repo = new RowsRepo(open());
    const progress: number[] = [];
    await repo.createRun(run('a', 12_000), items('a', 12_000), (n) => progress.push(n));
    expect(progress).toEqual([5000, 10_000, 12_000]);
    expect(await repo.getRun('a')).toEqual(run('a', 12_000));
    const loaded = await repo.loadItems('a');
    expect(loaded.unreadable).toEqual([]);
    expect(loaded.items).toHaveLength(12_000);
    expect(loaded.items[11_999]).toEqual(items('a', 12_000)[11_999]);
    expect((await repo.listRuns()).runs.map((r) => r.id)).toEqual(['a']);
  });

  it('reports unreadable records instead of dropping them or failing the whole run', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 3), items('a', 3));
    await db.rowItems.update(['a', 2], { tokens: -5 } as never);
    await db.rowRuns.put({ id: 'broken', schemaVersion: 99 } as never);
    const loaded = await repo.loadItems('a');
    expect(loaded.items.map((i) => i.number)).toEqual([1, 3]);
    expect(loaded.unreadable).toEqual([2]);
    const listed = await repo.listRuns();
    expect(listed.unreadable).toEqual(['broken']);
    await expect(repo.getRun('broken')).rejects.toThrow(/cannot be read/);
    expect(await db.rowRuns.get('broken')).toBeDefined();
  });

  it('coalesces concurrent writes into a few transactions, resolving each only once it is stored', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 200), items('a', 200));
    let transactions = 0;
    const original = db.transaction.bind(db) as (...args: unknown[]) => unknown;
    (db as unknown as { transaction: (...args: unknown[]) => unknown }).transaction = (
      ...args: unknown[]
    ) => {
      transactions++;
      return original(...args);
    };
    const store = repo.runStore('a');
    const writes = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? store.saveOutcome(i + 1, outcome('sending'))
        : store.saveAnswered(i + 1, outcome('done', { answerKey: `k${i + 1}` }), answer(`k${i + 1}`)),
    );
    await Promise.all(writes);
    expect(transactions).toBeLessThan(10);
    const { items: stored } = await repo.loadItems('a');
    expect(stored.filter((i) => i.outcome?.status === 'sending')).toHaveLength(100);
    expect(stored.filter((i) => i.outcome?.status === 'done')).toHaveLength(100);
    expect((await repo.answers(stored.map((i) => i.outcome?.answerKey ?? ''))).size).toBe(100);
    // Later writes of a row win, in the order they were made.
    await Promise.all([store.saveOutcome(1, outcome('sending')), store.saveOutcome(1, outcome('unknown'))]);
    expect((await repo.loadItems('a')).items[0]!.outcome?.status).toBe('unknown');
  });

  it('rejects a write for a row that is not stored, and an outcome that does not parse', async () => {
    const repo = new RowsRepo(open());
    await repo.createRun(run('a', 2), items('a', 2));
    const store = repo.runStore('a');
    await expect(store.saveOutcome(99, outcome('done'))).rejects.toThrow(/no longer stored/);
    await expect(store.saveOutcome(1, { ...outcome('done'), attempts: -1 })).rejects.toThrow();
    // The store still works afterwards.
    await store.saveOutcome(2, outcome('invalid'));
    expect((await repo.loadItems('a')).items[1]!.outcome?.status).toBe('invalid');
  });

  it('finds stored answers for reuse, but never an answer that no longer parses', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 2), items('a', 2));
    const store = repo.runStore('a');
    await store.saveAnswered(1, outcome('done', { answerKey: 'good' }), answer('good'));
    await db.rowAnswers.put({ ...answer('bad'), response: { model: '' } } as never);
    const found = await store.findAnswers(['good', 'bad', 'missing', 'good']);
    expect([...found]).toEqual([['good', answer('good')]]);
  });

  it('finds answers per question: through the questionKeys index, a one-question answer by its key, never one that no longer parses', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 3), items('a', 3));
    const store = repo.runStore('a');
    const both = { ...answer('whole'), questionKeys: ['qa', 'qb'] };
    await store.saveAnswered(1, outcome('done', { answerKey: 'whole' }), both);
    await store.saveAnswered(2, outcome('done', { answerKey: 'qc' }), answer('qc'));
    await db.rowAnswers.put({ ...answer('bad'), questionKeys: ['qd'], response: { model: '' } } as never);
    const found = await store.findQuestionAnswers!(['qa', 'qb', 'qc', 'qd', 'none']);
    expect([...found.keys()].sort()).toEqual(['qa', 'qb', 'qc']);
    expect(found.get('qa')).toEqual(both);
    expect(found.get('qc')).toEqual(answer('qc'));
    // An answer's question keys are not its key: a whole lookup does not find it under them.
    expect((await store.findAnswers(['qa'])).size).toBe(0);
  });

  it('stores the answer of a row put together from per-question answers with its reused chunk', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 2), items('a', 2));
    const store = repo.runStore('a');
    const assembled = { ...answer('row2'), questionKeys: ['qa', 'qb'] };
    await store.saveReused([
      { number: 1, outcome: outcome('reused', { reusedFrom: 'earlier', answerKey: 'k1', inputTokens: 0 }) },
      {
        number: 2,
        outcome: outcome('reused', { answerKey: 'row2', inputTokens: 0, reusedQuestions: ['q'] }),
        answer: assembled,
      },
    ]);
    expect(await db.rowReuses.count()).toBe(1);
    expect(await repo.answers(['row2'])).toEqual(new Map([['row2', assembled]]));
    expect((await store.findQuestionAnswers!(['qb'])).get('qb')).toEqual(assembled);
    const { items: loaded } = await repo.loadItems('a');
    expect(loaded[1]?.outcome?.reusedQuestions).toEqual(['q']);
    // An answer that does not parse stores nothing, chunk included.
    await expect(
      store.saveReused([
        { number: 1, outcome: outcome('reused'), answer: { ...answer('x'), response: {} } as never },
      ]),
    ).rejects.toThrow();
    expect(await db.rowReuses.count()).toBe(1);
  });

  it('deletes a run and its rows but keeps the answers every run shares', async () => {
    const repo = new RowsRepo(open());
    await repo.createRun(run('a', 2), items('a', 2));
    await repo.createRun(run('b', 2), items('b', 2));
    await repo.runStore('a').saveAnswered(1, outcome('done', { answerKey: 'k' }), answer('k'));
    await repo.deleteRun('a');
    expect(await repo.getRun('a')).toBeUndefined();
    expect((await repo.loadItems('a')).items).toEqual([]);
    expect((await repo.loadItems('b')).items).toHaveLength(2);
    expect((await repo.answers(['k'])).size).toBe(1);
    expect(await repo.clearAnswers()).toBe(1);
  });

  it('saves a chunk of reused rows as one record, read back over the rows, counted, and deleted with the run', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 4), items('a', 4));
    const store = repo.runStore('a');
    // Row 1 was answered by the service before; a reused chunk naming it too must not replace that answer.
    await store.saveAnswered(1, outcome('done', { answerKey: 'k1' }), answer('k1'));
    const reused = (key: string) =>
      outcome('reused', { reusedFrom: 'earlier', answerKey: key, inputTokens: 0 });
    await store.saveReused([
      { number: 1, outcome: reused('k1') },
      { number: 2, outcome: reused('k2') },
      { number: 3, outcome: reused('k3') },
    ]);
    expect(await db.rowReuses.count()).toBe(1);
    const { items: loaded, unreadable } = await repo.loadItems('a');
    expect(unreadable).toEqual([]);
    expect(loaded.map((i) => i.outcome?.status)).toEqual(['done', 'reused', 'reused', undefined]);
    expect(loaded[1]?.outcome).toEqual(reused('k2'));
    expect(await repo.countSettled('a')).toBe(3);
    // An interrupted tab may later write a non-answered outcome for a reused row: the reuse still counts.
    await store.saveOutcome(2, outcome('unknown'));
    expect((await repo.loadItems('a')).items[1]?.outcome?.status).toBe('reused');
    await repo.deleteRun('a');
    expect(await db.rowReuses.count()).toBe(0);
  });

  it('a reused chunk whose record no longer parses is reported, and its rows read as not yet answered', async () => {
    const db = open();
    const repo = new RowsRepo(db);
    await repo.createRun(run('a', 2), items('a', 2));
    await db.rowReuses.add({
      runId: 'a',
      chunk: 'broken',
      rows: [{ number: 1, outcome: { status: 'odd' } }],
    } as never);
    const { items: loaded, unreadable } = await repo.loadItems('a');
    expect(unreadable).toEqual([-1]);
    expect(loaded.map((i) => i.outcome)).toEqual([undefined, undefined]);
    await expect(
      repo.runStore('a').saveReused([{ number: 2, outcome: { status: 'reused' } as never }]),
    ).rejects.toThrow();
  });

  it('sets many labels in one save, clears one with null, and stores none when a row is missing', async () => {
    const repo = new RowsRepo(open());
    await repo.createRun(run('l', 3), items('l', 3));
    const after = await repo.setLabels('l', [
      { number: 1, question: 'q', value: true },
      { number: 3, question: 'q', value: false },
      { number: 3, question: 'tone', value: 'warm' },
    ]);
    expect([...after]).toEqual([
      [1, { labels: { q: true } }],
      [3, { labels: { q: false, tone: 'warm' } }],
    ]);
    await repo.setLabel('l', 3, 'tone', null);
    await repo.setLabel('l', 1, 'q', null);
    const read = (await repo.loadItems('l')).items.map((i) => i.labels);
    expect(read).toEqual([undefined, undefined, { q: false }]);
    await expect(
      repo.setLabels('l', [
        { number: 2, question: 'q', value: true },
        { number: 9, question: 'q', value: true },
      ]),
    ).rejects.toThrow('Row 9 of run l is no longer stored.');
    expect((await repo.loadItems('l')).items[1]!.labels).toBeUndefined();
  });

  it("keeps each labeller's label apart, the row's label their majority, and undoes one labeller's own", async () => {
    const db = open();
    const repo = new RowsRepo(db);
    const stored = items('n', 3);
    stored[0] = { ...stored[0]!, labels: { q: true } };
    stored[1] = { ...stored[1]!, labels: { q: false }, annotations: { q: { zoe: false, ana: true } } };
    await repo.createRun(run('n', 3), stored);
    const after = await repo.setLabels(
      'n',
      [
        // Row 1's label came from the column "human": it stays as that annotator's.
        { number: 1, question: 'q', value: false, annotator: 'bob' },
        { number: 1, question: 'q', value: false, annotator: 'cy' },
        // The stored annotators keep their order (zoe first): bob's label breaks the tie for true.
        { number: 2, question: 'q', value: true, annotator: 'bob' },
        { number: 3, question: 'q', value: true, annotator: 'bob' },
      ],
      { q: 'human' },
    );
    expect([...after]).toEqual([
      [1, { labels: { q: false }, annotations: { q: { human: true, bob: false, cy: false } } }],
      [2, { labels: { q: true }, annotations: { q: { zoe: false, ana: true, bob: true } } }],
      [3, { labels: { q: true }, annotations: { q: { bob: true } } }],
    ]);
    expect(Object.keys(after.get(2)!.annotations!['q']!)).toEqual(['zoe', 'ana', 'bob']);

    // Undoing bob's label of row 2 clears only his: zoe and ana tie again and zoe, listed first, wins.
    expect(await repo.setLabel('n', 2, 'q', null, 'bob')).toEqual({
      labels: { q: false },
      annotations: { q: { zoe: false, ana: true } },
    });
    await repo.setLabel('n', 3, 'q', null, 'bob');
    // A reload (a new repo over the same database) reads what was stored, absent fields removed.
    const read = (await new RowsRepo(db).loadItems('n')).items;
    expect(read.map((i) => [i.labels, i.annotations])).toEqual([
      [{ q: false }, { q: { human: true, bob: false, cy: false } }],
      [{ q: false }, { q: { zoe: false, ana: true } }],
      [undefined, undefined],
    ]);
    expect(Object.keys(read[2]!)).not.toContain('annotations');
    // A blank labeller's name is refused before anything is written.
    await expect(repo.setLabel('n', 3, 'q', true, '  ')).rejects.toThrow();
    expect((await repo.loadItems('n')).items[2]!.labels).toBeUndefined();
  });

  it('updates a run and says so when it is gone', async () => {
    const repo = new RowsRepo(open());
    await repo.createRun(run('a', 1), items('a', 1));
    await repo.updateRun('a', { status: 'halted', halt: { reason: 'budget', message: 'Stopped.' } }, 99);
    expect(await repo.getRun('a')).toMatchObject({
      status: 'halted',
      halt: { reason: 'budget' },
      updatedAt: 99,
    });
    await expect(repo.updateRun('zzz', { status: 'finished' })).rejects.toThrow(/no longer stored/);
  });
});
