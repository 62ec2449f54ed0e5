// The run engine end to end in Node: the real client over loopback HTTP to the real reference service (with injected
// faults), progress in IndexedDB (fake-indexeddb) through the app's own repo. A "reload" opens the database afresh.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { abortableSleep, evaluate } from '../../../../src/client';
import type { ClientTarget } from '../../../../src/client';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../src/app/persistence/rowsRepo';
import type { RowMapping } from '../../../../src/core/rows/mapping';
import { buildRun } from '../../../../src/core/rows/newRun';
import { parseCsvText } from '../../../../src/core/rows/parse';
import type { RowRun } from '../../../../src/core/rows/records';
import { plannedFromItems, planRun } from '../../../../src/core/rows/runPlan';
import type { PlannedRow } from '../../../../src/core/rows/runPlan';
import { RowRunner } from '../../../../src/core/rows/runner';
import { questionTokens, stateTokens } from '../../../../src/contract/tokens';
import { parseFaults } from '../../../../src/server/reference/options';
import type { CountingReference } from '../../../../bench/lib/countingReference';
import { serveCountingReference, tallyRows } from '../../../../bench/lib/countingReference';
import { freshDbName } from '../../app/persistence/dbHelpers';
import { serveCloudflareStandin } from '../../../helpers/standins/cloudflareServer';

const KEY = 'local-dev-key';
const clock = { now: () => Date.now(), sleep: abortableSleep };
const questions: Questions = {
  urgent: { type: 'noul', instructions: 'Does this convey urgency?' },
  team: {
    type: 'choice',
    instructions: 'Which team?',
    criteria: { billing: 'Payments and refunds', technical: 'Bugs and crashes' },
  },
};
// The row id stays in the state so the server can count answers per row.
const mapping: RowMapping = { mode: 'columns', columns: ['row_id', 'text'], idColumn: 'row_id' };
const TEXTS = [
  'I was charged twice, refund me today',
  'The app crashes when I log in',
  'Thanks, all sorted',
  'Payout failed again',
];
const csvOf = (n: number, prefix = 'r') =>
  `row_id,text\n${Array.from({ length: n }, (_, i) => `${prefix}${i + 1},"${TEXTS[i % TEXTS.length]} (${i + 1})"`).join('\n')}\n`;

let reference: CountingReference;
beforeAll(async () => {
  reference = await serveCountingReference({
    rpm: 1e9,
    tps: 1e12,
    faults: parseFaults('429=0.05,529=0.05'),
    seed: 11,
    faultRetryAfterMs: 5,
  });
});
afterAll(() => reference.close());

const opened: WorkbenchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});
const openDb = (name: string) => {
  const db = new WorkbenchDb(name);
  opened.push(db);
  return db;
};

const target = (over: Partial<ClientTarget> = {}): ClientTarget => ({
  baseUrl: reference.url,
  headers: { Authorization: `Bearer ${KEY}` },
  ...over,
});

async function createRun(repo: RowsRepo, csv: string, model: string, id: string): Promise<RowRun> {
  const parsed = parseCsvText(csv);
  const plan = planRun(parsed.rows, mapping, questions, { stateTokens, questionTokens });
  const { run, items } = buildRun({
    id,
    now: Date.now(),
    fileName: 'rows.csv',
    format: 'csv',
    columns: parsed.summary.columns,
    targetId: 'local',
    model,
    questions,
    mapping,
    pacing: { requestsPerMinute: 60_000, concurrency: 4, tokensPerSecond: 250_000 },
    maxCost: null,
    sources: parsed.rows,
    parseIssues: parsed.issues,
    plan,
  });
  await repo.createRun(run, items);
  return run;
}

/** What a reopened page does: read the run and its rows back, and build a runner from what is stored. */
async function resumeRunner(
  repo: RowsRepo,
  runId: string,
  clientTarget: ClientTarget,
  edit: (rows: PlannedRow[]) => void = () => {},
) {
  const run = (await repo.getRun(runId))!;
  const { items, unreadable } = await repo.loadItems(runId);
  expect(unreadable).toEqual([]);
  const { rows, outcomes } = plannedFromItems(items, run.mapping);
  edit(rows);
  return new RowRunner(
    {
      targetId: run.targetId,
      target: clientTarget,
      model: run.model,
      questions: run.questions,
      rows,
      outcomes,
      pacing: run.pacing,
      maxCost: run.maxCost,
    },
    { evaluate, clock, store: repo.runStore(runId) },
  );
}

const idsOf = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

describe('a run against the reference service, stored in IndexedDB', () => {
  it('survives a crash mid-run: answered rows are never resent, rows caught in flight wait for a retry on request', async () => {
    const N = 120;
    const name = freshDbName();
    const before = reference.counts();
    const firstRepo = new RowsRepo(openDb(name));
    const run = await createRun(firstRepo, csvOf(N, 'crash'), 'model-latest', 'run-crash');

    // The first page: after 40 answers, requests stop leaving the machine (the tab is gone), in flight or not.
    let crashed = false;
    const hang = (_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const first = await resumeRunner(
      firstRepo,
      run.id,
      target({ fetch: (input, init) => (crashed ? hang(input, init) : fetch(input, init)) }),
    );
    let answered = 0;
    const crashedAt = new Promise<void>((resolve) =>
      first.subscribe((u) => {
        if (u.outcome.status === 'done' && ++answered === 40) {
          crashed = true;
          resolve();
        }
      }),
    );
    void first.run();
    await crashedAt;
    // Let every in-flight row reach its hanging request (it is marked `sending` just before).
    await new Promise((r) => setTimeout(r, 50));
    const inFlightAtCrash = first.progress().inFlight;
    opened[0]!.close(); // the page is gone: its connection to the database with it

    // The reopened page.
    const repo = new RowsRepo(openDb(name));
    const second = await resumeRunner(repo, run.id, target());
    const resumed = second.progress();
    expect(resumed.done).toBeGreaterThanOrEqual(40);
    expect(resumed.unknown).toBe(inFlightAtCrash);
    expect(inFlightAtCrash).toBeGreaterThan(0);
    const end = await second.run();
    expect(end.phase).toBe('finished');
    expect(end.unknown).toBeGreaterThanOrEqual(inFlightAtCrash);

    // Never resent on its own; retried when the user asks (these never left the first page, so nothing is billed twice).
    const { unknown, failed } = second.retryable();
    await second.retry([...unknown, ...failed]);
    const final = await second.run();
    expect(final).toMatchObject({
      phase: 'finished',
      done: N,
      pending: 0,
      unknown: 0,
      failed: 0,
      invalid: 0,
    });

    const counts = reference.counts();
    const tally = tallyRows(counts, idsOf(N, 'crash'));
    expect(tally).toEqual({ once: N, twice: 0, missing: [] });
    // Faults were met on the way, and the client retried through them.
    expect((counts.statuses['429'] ?? 0) - (before.statuses['429'] ?? 0)).toBeGreaterThan(0);
    expect((counts.statuses['529'] ?? 0) - (before.statuses['529'] ?? 0)).toBeGreaterThan(0);

    // What is stored says the same: one answer per row, each readable.
    const { items } = await repo.loadItems(run.id);
    expect(items.every((i) => i.outcome?.status === 'done' && i.outcome.model === 'model-1.13.0')).toBe(true);
    const answers = await repo.answers(items.map((i) => i.outcome!.answerKey!));
    expect(answers.size).toBe(N);
    for (const item of items) {
      const answer = answers.get(item.outcome!.answerKey!)!;
      expect(Object.keys(answer.response.answers).sort()).toEqual(['team', 'urgent']);
      expect(answer.response.usage.input_tokens).toBe(item.tokens);
    }
  });

  it('reuses stored answers for a pinned model: a second run of the same file sends nothing and costs nothing', async () => {
    const N = 30;
    const repo = new RowsRepo(openDb(freshDbName()));
    const firstRun = await createRun(repo, csvOf(N, 'dedup'), 'model-1.13.0', 'run-a');
    const first = await (await resumeRunner(repo, firstRun.id, target())).run();
    expect(first.done + first.unknown + first.failed).toBe(N);
    const answeredFirst = first.done;
    const requestsBefore = reference.counts().requests;

    const secondRun = await createRun(repo, csvOf(N, 'dedup'), 'model-1.13.0', 'run-b');
    const second = await (await resumeRunner(repo, secondRun.id, target())).run();
    expect(second.reused).toBe(answeredFirst);
    expect(second.cost).toBe(0);
    // Only rows the first run could not answer are sent.
    expect(reference.counts().requests - requestsBefore).toBeLessThanOrEqual((N - answeredFirst) * 3);
    const { items } = await repo.loadItems(secondRun.id);
    expect(
      items.filter((i) => i.outcome?.status === 'reused').every((i) => i.outcome?.inputTokens === 0),
    ).toBe(true);
  });

  it('stops on 401 without answering anything, and finishes once the key is right', async () => {
    const N = 12;
    const repo = new RowsRepo(openDb(freshDbName()));
    const run = await createRun(repo, csvOf(N, 'auth'), 'model-latest', 'run-auth');
    const wrong = await resumeRunner(
      repo,
      run.id,
      target({ headers: { Authorization: 'Bearer wrong-key' } }),
    );
    const halted = await wrong.run();
    expect(halted.halt?.reason).toBe('auth');
    expect(halted.halt?.message).toMatch(/401.*check the key/);
    expect(halted.done).toBe(0);
    const right = await resumeRunner(repo, run.id, target());
    const end = await right.run();
    await right.retry([...right.retryable().unknown, ...right.retryable().failed]);
    const final = await right.run();
    expect(end.phase).toBe('finished');
    expect(final.done).toBe(N);
    expect(tallyRows(reference.counts(), idsOf(N, 'auth'))).toEqual({ once: N, twice: 0, missing: [] });
  });

  it('stops on a quota that will not reset (Cloudflare 429/4006) without retrying, and keeps every row to resend', async () => {
    const clef = await serveCloudflareStandin({ apiKey: 'cf-key', dailyAllocation: 0 });
    try {
      const repo = new RowsRepo(openDb(freshDbName()));
      const run = await createRun(repo, csvOf(8, 'quota'), 'clef', 'run-quota');
      const runner = await resumeRunner(repo, run.id, {
        baseUrl: clef.url,
        evaluatePath: '/client/v4/accounts/acct/ai/run/@cf/cloudflare/clef',
        headers: { Authorization: 'Bearer cf-key' },
      });
      const halted = await runner.run();
      expect(halted.halt?.reason).toBe('quota');
      expect(halted.halt?.message).toMatch(/^The target's quota is used up \(429, code 4006: /);
      // Only the rows already in flight when the first refusal came were sent, each once: none was retried.
      const sent = clef.received.map((b) => JSON.stringify((b as { state: unknown }).state));
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent.length).toBeLessThan(8);
      expect(halted.done).toBe(0);
      const { items } = await repo.loadItems(run.id);
      expect(items.every((i) => (i.outcome?.status ?? 'pending') === 'pending')).toBe(true);
    } finally {
      await clef.close();
    }
  });

  it('marks a row the service refuses (422) with its reason and finishes the others', async () => {
    const repo = new RowsRepo(openDb(freshDbName()));
    const run = await createRun(repo, csvOf(6, 'v'), 'model-latest', 'run-422');
    // A row whose state grew past the limit after planning (e.g. a hand-edited record): the service says 422.
    const runner = await resumeRunner(repo, run.id, target(), (rows) => {
      rows[2]!.state = { row_id: 'v3', text: 'word '.repeat(40_000) };
    });
    const end = await runner.run();
    expect(end.invalid).toBe(1);
    const { items } = await repo.loadItems(run.id);
    const bad = items.find((i) => i.number === 3)!;
    expect(bad.outcome?.status).toBe('invalid');
    expect(bad.outcome?.error?.message).toMatch(/422/);
    expect(bad.outcome?.error?.fieldErrors.length).toBeGreaterThan(0);
    expect(
      items
        .filter((i) => i.outcome?.status !== 'invalid')
        .every((i) => ['done', 'unknown', 'failed'].includes(i.outcome!.status)),
    ).toBe(true);
  });
});
