// Two tabs on one run of rows: two rows stores over two connections to one IndexedDB (fake-indexeddb), sharing one
// set of Web Locks (tests/helpers/memoryLocks) and a real BroadcastChannel, sending to the real reference service over
// loopback, which counts the answers it gives per row. Nothing is billed twice unless the user asks for it.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Questions } from '../../../../../src/contract';
import { abortableSleep, evaluate } from '../../../../../src/client';
import { WorkbenchDb } from '../../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../../src/app/persistence/rowsRepo';
import { openChannel } from '../../../../../src/app/persistence/tabs';
import { createInlineParser } from '../../../../../src/app/workers/rowsParser';
import { createRowsStore } from '../../../../../src/app/stores/rows';
import type { RowMapping } from '../../../../../src/core/rows/mapping';
import { buildRun } from '../../../../../src/core/rows/newRun';
import { parseCsvText } from '../../../../../src/core/rows/parse';
import { planRun } from '../../../../../src/core/rows/runPlan';
import type { EvaluateFn } from '../../../../../src/core/rows/runTypes';
import { RunMessageSchema } from '../../../../../src/core/rows/runSync';
import { runLockName } from '../../../../../src/core/rows/runLock';
import { createResumeOfferStore } from '../../../../../src/app/stores/resumeOffer';
import { questionTokens, stateTokens } from '../../../../../src/contract/tokens';
import { newId } from '../../../../../src/core/ids';
import { DEFAULT_API_KEY } from '../../../../../src/server/reference/options';
import type { CountingReference } from '../../../../../bench/lib/countingReference';
import { serveCountingReference } from '../../../../../bench/lib/countingReference';
import { LockRegistry } from '../../../../helpers/memoryLocks';
import { freshDbName } from '../../persistence/dbHelpers';

const questions: Questions = {
  urgent: { type: 'noul', instructions: 'Does this convey urgency?' },
  team: { type: 'choice', instructions: 'Which team?', criteria: { billing: 'Payments', technical: 'Bugs' } },
};
const mapping: RowMapping = { mode: 'columns', columns: ['row_id', 'text'], idColumn: 'row_id' };
const csvOf = (n: number) =>
  `row_id,text\n${Array.from({ length: n }, (_, i) => `r${i + 1},"Ticket number ${i + 1} about a refund"`).join('\n')}\n`;

let reference: CountingReference;
beforeAll(async () => {
  reference = await serveCountingReference({ rpm: 1e9, tps: 1e12 });
});
afterAll(() => reference.close());

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** A row counts as sent once per 200 the reference gave for it, since the start of the test. */
function answersSince(): () => Record<string, number> {
  const before = reference.counts().answers;
  return () => {
    const now = reference.counts().answers;
    const out: Record<string, number> = {};
    for (const [id, n] of Object.entries(now)) if (n - (before[id] ?? 0) > 0) out[id] = n - (before[id] ?? 0);
    return out;
  };
}

async function seedRun(dbName: string, rows: number, model: string): Promise<string> {
  const db = new WorkbenchDb(dbName);
  const parsed = parseCsvText(csvOf(rows));
  const plan = planRun(parsed.rows, mapping, questions, { stateTokens, questionTokens });
  const id = newId();
  const { run, items } = buildRun({
    id,
    now: Date.now(),
    fileName: 'tickets.csv',
    format: 'csv',
    columns: parsed.summary.columns,
    targetId: 'local',
    model,
    questions,
    mapping,
    pacing: { requestsPerMinute: 60_000, concurrency: 4, tokensPerSecond: 1_000_000 },
    maxCost: null,
    sources: parsed.rows,
    parseIssues: parsed.issues,
    plan,
  });
  await new RowsRepo(db).createRun(run, items);
  db.close();
  return id;
}

/** One tab: its own connection to the database, its own channel object, its own client of the shared locks. */
function tab(dbName: string, channelName: string, locks: LockRegistry, send: EvaluateFn = evaluate) {
  const db = new WorkbenchDb(dbName);
  const channel = openChannel(channelName, RunMessageSchema)!;
  const lockClient = locks.client();
  const store = createRowsStore({
    repo: new RowsRepo(db),
    parser: createInlineParser,
    evaluate: send,
    clock: { now: () => Date.now(), sleep: abortableSleep },
    targetFor: () => ({ baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } }),
    newId,
    locks: lockClient,
    channel,
    flushMs: 10,
  });
  cleanup.push(
    () => channel.close(),
    () => db.close(),
  );
  return { store, db, channel, lockId: lockClient.id, repo: new RowsRepo(db) };
}

const waitFor = async (check: () => boolean, timeoutMs = 20_000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('Timed out waiting.');
    await new Promise((r) => setTimeout(r, 10));
  }
};

it('a tab that opened the run before another tab answered it re-reads under the lock and sends nothing again, and never turns an answer into "reused"', async () => {
  const dbName = freshDbName();
  const runId = await seedRun(dbName, 40, 'model-1.13.0'); // pinned: answers are reusable, the case that rewrote rows
  const locks = new LockRegistry();
  const a = tab(dbName, `rows-${dbName}`, locks);
  // B hears nothing from A (no shared channel): only the lock and the storage tell it what happened.
  const b = tab(dbName, `rows-${dbName}-alone`, locks);
  const sent = answersSince();

  await b.store.getState().openRunById(runId);
  expect(b.store.getState().progress?.pending).toBe(40);
  await a.store.getState().openRunById(runId);
  await a.store.getState().start();
  expect(a.store.getState().progress?.done).toBe(40);

  await b.store.getState().start();
  expect(b.store.getState().progress).toMatchObject({ done: 40, reused: 0, pending: 0, phase: 'finished' });
  expect(Object.values(sent())).toEqual(Array<number>(40).fill(1));
  const { items } = await b.repo.loadItems(runId);
  expect(items.map((i) => i.outcome?.status)).toEqual(Array<string>(40).fill('done'));
  expect(items.every((i) => (i.outcome?.inputTokens ?? 0) > 0)).toBe(true);
});

it('while one tab drives the run, another watches it live, cannot resume or delete it, and pauses it from afar', async () => {
  const dbName = freshDbName();
  const runId = await seedRun(dbName, 60, 'model-latest');
  const locks = new LockRegistry();
  // A answers slowly enough to be watched.
  const slow: EvaluateFn = async (target, request, options) => {
    await new Promise((r) => setTimeout(r, 40));
    return evaluate(target, request, options);
  };
  const a = tab(dbName, `rows-${dbName}`, locks, slow);
  const bSends: unknown[] = [];
  const b = tab(dbName, `rows-${dbName}`, locks, (t, r, o) => {
    bSends.push(r.state);
    return evaluate(t, r, o);
  });

  await a.store.getState().openRunById(runId);
  const driving = a.store.getState().start();
  await waitFor(() => (a.store.getState().progress?.done ?? 0) >= 5);

  await b.store.getState().refreshRuns();
  expect(b.store.getState().heldElsewhere).toEqual([runId]);
  await b.store.getState().openRunById(runId);
  expect(b.store.getState().watching).toBe(true);
  expect(b.store.getState().notice).toMatch(/going on in another tab/);
  expect(b.store.getState().notice).not.toMatch(/interrupted/);

  // Resume in B: refused, nothing sent, and the stored status is not rewritten.
  await b.store.getState().start();
  expect(bSends).toEqual([]);
  expect((await b.repo.getRun(runId))?.status).toBe('running');
  // Delete in B: refused.
  await b.store.getState().deleteRun(runId);
  expect(b.store.getState().error).toMatch(/cannot be deleted now/);
  expect(await b.repo.getRun(runId)).toBeDefined();

  // B follows A's progress live, rows and counts.
  const seen = b.store.getState().progress?.done ?? 0;
  await waitFor(() => (b.store.getState().progress?.done ?? 0) > seen + 3);
  const answeredInB = b.store
    .getState()
    .results()
    .filter((r) => r.outcome?.status === 'done');
  expect(answeredInB.length).toBeGreaterThan(seen);
  expect(answeredInB.every((r) => r.response !== undefined)).toBe(true);

  // Pause pressed in B reaches A.
  b.store.getState().pause();
  await driving;
  expect(a.store.getState().progress?.halt?.reason).toBe('paused');
  // A let the lock go: B reads the run again and may now resume it.
  await waitFor(() => !b.store.getState().watching && !b.store.getState().loadingRun);
  await waitFor(() => b.store.getState().progress?.phase !== 'running');
  const doneAtPause = (await a.repo.loadItems(runId)).items.filter(
    (i) => i.outcome?.status === 'done',
  ).length;
  expect(b.store.getState().progress?.done).toBe(doneAtPause);
  expect(doneAtPause).toBeLessThan(60);

  await b.store.getState().start();
  expect(b.store.getState().progress).toMatchObject({ done: 60, pending: 0, unknown: 0 });
  expect(bSends).toHaveLength(60 - doneAtPause);
});

it('a tab killed mid-run: the watching tab takes over, rows in flight at the kill stay unknown, nothing else is sent twice', async () => {
  const dbName = freshDbName();
  const N = 80;
  const runId = await seedRun(dbName, N, 'model-latest');
  const locks = new LockRegistry();
  let killed = false;
  let inside = 0;
  // After the kill, A's requests still reach the service (and are billed) but A never hears back: it is gone.
  const aSend: EvaluateFn = async (target, request, options) => {
    inside++;
    await new Promise((r) => setTimeout(r, 20));
    const result = await evaluate(target, request, options);
    inside--;
    return killed ? new Promise(() => undefined) : result;
  };
  const a = tab(dbName, `rows-${dbName}`, locks, aSend);
  const b = tab(dbName, `rows-${dbName}`, locks);
  const sent = answersSince();

  await a.store.getState().openRunById(runId);
  void a.store.getState().start();
  await waitFor(() => (a.store.getState().progress?.done ?? 0) >= 20);
  await b.store.getState().openRunById(runId);
  expect(b.store.getState().watching).toBe(true);

  // The kill, while requests are in flight: A's page goes away, with its locks, its channel and its connection.
  await waitFor(() => inside > 0);
  killed = true;
  a.channel.close();
  a.db.close({ disableAutoOpen: true });
  locks.kill(a.lockId);

  await waitFor(() => !b.store.getState().watching && !b.store.getState().loadingRun);
  expect(b.store.getState().notice).toMatch(/interrupted/);
  await b.store.getState().start();
  const afterTakeover = b.store.getState().progress!;
  expect(afterTakeover.pending).toBe(0);
  expect(afterTakeover.done + afterTakeover.unknown).toBe(N);
  expect(afterTakeover.unknown).toBeGreaterThan(0);
  expect(afterTakeover.unknown).toBeLessThanOrEqual(4); // at most the concurrency was in flight
  const unknownIds = b.store
    .getState()
    .results()
    .filter((r) => r.outcome?.status === 'unknown')
    .map((r) => r.id);
  // Every answered row was answered once by the service.
  await waitFor(() => Object.keys(sent()).length === N);
  const once = sent();
  for (const [id, n] of Object.entries(once)) expect(n, id).toBe(1);

  // Unknown rows go again only on request; then every row is answered, and only those were answered twice.
  await b.store.getState().retry('unknown');
  expect(b.store.getState().progress).toMatchObject({ done: N, unknown: 0, pending: 0 });
  const twice = Object.entries(sent())
    .filter(([, n]) => n > 1)
    .map(([id]) => id)
    .sort();
  expect(twice).toEqual([...unknownIds].sort());
});

it('the store never rewrites an answered row, whoever writes to it', async () => {
  const dbName = freshDbName();
  const runId = await seedRun(dbName, 3, 'model-1.13.0');
  const db = new WorkbenchDb(dbName);
  cleanup.push(() => db.close());
  const repo = new RowsRepo(db);
  const fresh = repo.runStore(runId);
  const stale = repo.runStore(runId); // a second writer that read the rows before they were answered
  const answer = {
    key: 'k1',
    targetId: 'local',
    model: 'model-1.13.0',
    at: 1,
    response: { model: 'model-1.13.0', answers: {}, usage: { input_tokens: 42, output_tokens: 0 } },
  };
  await fresh.saveAnswered(
    1,
    {
      status: 'done',
      at: 1,
      attempts: 1,
      possiblyBilledAttempts: 0,
      requeues: 0,
      answerKey: 'k1',
      inputTokens: 42,
    },
    answer,
  );
  await stale.saveOutcome(1, {
    status: 'reused',
    at: 2,
    attempts: 0,
    possiblyBilledAttempts: 0,
    requeues: 0,
    answerKey: 'k1',
    inputTokens: 0,
  });
  await stale.saveOutcome(1, {
    status: 'sending',
    at: 3,
    attempts: 0,
    possiblyBilledAttempts: 0,
    requeues: 0,
  });
  await stale.saveOutcome(2, {
    status: 'sending',
    at: 3,
    attempts: 0,
    possiblyBilledAttempts: 0,
    requeues: 0,
  });
  const { items } = await repo.loadItems(runId);
  expect(items.map((i) => [i.outcome?.status, i.outcome?.inputTokens])).toEqual([
    ['done', 42],
    ['sending', undefined],
    [undefined, undefined],
  ]);
});

it('after a reload, offers the run that was going when the page closed, with how far it got, but not one another tab drives', async () => {
  const dbName = freshDbName();
  const runId = await seedRun(dbName, 10, 'model-latest');
  const db = new WorkbenchDb(dbName);
  cleanup.push(() => db.close());
  const repo = new RowsRepo(db);
  await repo.updateRun(runId, { status: 'running' });
  const store = repo.runStore(runId);
  const outcome = { at: 1, attempts: 1, possiblyBilledAttempts: 0, requeues: 0 };
  for (const n of [1, 2, 3]) await store.saveOutcome(n, { ...outcome, status: 'failed' });
  await store.saveOutcome(4, { ...outcome, status: 'sending' });
  const locks = new LockRegistry();

  const offer = createResumeOfferStore(async () => repo, locks.client());
  await offer.getState().check();
  expect(offer.getState().offer).toEqual({ runId, fileName: 'tickets.csv', settled: 4, total: 10 });
  offer.getState().take();
  expect(offer.getState().pendingOpen).toBe(runId);

  // Another tab holds the run's lock: it is running there, not interrupted, and nothing is offered.
  let release!: () => void;
  const other = locks.client();
  void other.request(runLockName(runId), {}, () => new Promise<void>((resolve) => (release = resolve)));
  const whileHeld = createResumeOfferStore(async () => repo, locks.client());
  await whileHeld.getState().check();
  expect(whileHeld.getState().offer).toBeNull();
  release();
});
