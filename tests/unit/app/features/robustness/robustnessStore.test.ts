// The check's store end to end in Node: a file run stored in IndexedDB (fake-indexeddb, the app's own repo), a sample
// of its rows checked through the real client against the real reference over loopback, the report handed to the
// session; and on the main screen's request, the answer already on screen counted as stored before anything is sent.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateRequest, Questions } from '../../../../../src/contract';
import { formatCost } from '../../../../../src/contract';
import { abortableSleep, evaluate } from '../../../../../src/client';
import type { ClientTarget } from '../../../../../src/client';
import { WorkbenchDb } from '../../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../../src/app/persistence/rowsRepo';
import { createRobustnessStore, planKeyOf } from '../../../../../src/app/features/robustness/robustnessStore';
import type { CheckSource, TargetTerms } from '../../../../../src/app/features/robustness/robustnessStore';
import { DEFAULT_PACING } from '../../../../../src/core/rows/pacer';
import type { Clock } from '../../../../../src/core/rows/pacer';
import type { RobustnessReport } from '../../../../../src/core/robustness/card';
import { RobustnessReportSchema } from '../../../../../src/core/robustness/card';
import type { RowMapping } from '../../../../../src/core/rows/mapping';
import { buildRun } from '../../../../../src/core/rows/newRun';
import { parseCsvText } from '../../../../../src/core/rows/parse';
import { planRun } from '../../../../../src/core/rows/runPlan';
import { questionTokens, stateTokens } from '../../../../../src/contract/tokens';
import { referenceOptionsFromEnv } from '../../../../../src/server/reference/options';
import type { RunningReference } from '../../../../../src/server/reference/serve';
import { freshDbName } from '../../persistence/dbHelpers';
import { KEY, start } from '../../../server/reference/http';

const questions: Questions = {
  team: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: {
      billing: 'Payments and refunds',
      technical: 'Bugs and crashes',
      account: 'Logins and passwords',
    },
  },
};
const mapping: RowMapping = { mode: 'columns', columns: ['text'], idColumn: 'row_id' };
const csv = `row_id,text
a1,"I was charged twice, refund me"
a2,"The app crashes when I open it"
a3,"I cannot log in to my account"
a4,"Payout failed again"
a5,"Thanks, all sorted"
a6,"Invoice is wrong"
`;

let reference: RunningReference;
let db: WorkbenchDb;
beforeAll(async () => {
  reference = await start(referenceOptionsFromEnv({ REFERENCE_ORDER_BIAS: 'first=1.5' }));
  db = new WorkbenchDb(freshDbName());
});
afterAll(async () => {
  db.close();
  await db.delete();
  await reference.close();
});

const LOCAL_TERMS: TargetTerms = { inputPrice: 0.042, pacing: DEFAULT_PACING };

/** A clock whose sleeps pass at once in virtual time, so pacing is asserted on send times, not waited out. */
function virtualClock() {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      now += Math.max(0, ms);
    },
  };
}

function makeStore(clock: Clock = { now: () => Date.now(), sleep: abortableSleep }) {
  const saved: RobustnessReport[] = [];
  const sentAt: number[] = [];
  const target: ClientTarget = { baseUrl: reference.url, headers: { Authorization: `Bearer ${KEY}` } };
  let sent = 0;
  const store = createRobustnessStore({
    db: () => db,
    evaluate: (t, request, options) => {
      sent++;
      sentAt.push(clock.now());
      return evaluate(t, request, options);
    },
    clock,
    targetFor: () => target,
    tokens: async () => ({ stateTokens, questionTokens }),
    sessionId: () => 'session-1',
    saveReport: (r, id) => {
      expect(id).toBe('session-1');
      saved.push(r);
      return true;
    },
  });
  return { store, saved, sent: () => sent, sentAt };
}

describe('the robustness store', () => {
  it('checks a sample of a file run’s rows: budget first, then the report with the position bias named', async () => {
    const repo = new RowsRepo(db);
    const parsed = parseCsvText(csv);
    const plan = planRun(parsed.rows, mapping, questions, { stateTokens, questionTokens });
    const { run, items } = buildRun({
      id: 'run-1',
      now: Date.now(),
      fileName: 'tickets.csv',
      format: 'csv',
      columns: parsed.summary.columns,
      targetId: 'local',
      model: 'model-1.13.0',
      questions,
      mapping,
      pacing: { requestsPerMinute: 60_000, concurrency: 4, tokensPerSecond: 250_000 },
      maxCost: null,
      sources: parsed.rows,
      parseIssues: parsed.issues,
      plan,
    });
    await repo.createRun(run, items);

    const { store, saved, sent } = makeStore();
    await store.getState().prepare({ kind: 'rows', runId: 'run-1', sample: 3 });
    const ready = store.getState().ready!;
    expect(store.getState().phase).toBe('ready');
    // Per row: the original, 2 more orders (3 labels), 4 repeats, whitespace and casing (a one-column state).
    expect(ready.plan.states).toHaveLength(3);
    expect(ready.budget.requests).toBe(3 * 9);
    expect(ready.budgetText).toMatch(/^27 requests, about \$/);
    expect(ready.notes[0]).toMatch(/^3 of 6 rows of “tickets.csv”, picked at random/);
    expect(sent()).toBe(0);

    await store.getState().run(ready.planKey);
    expect(store.getState().phase).toBe('done');
    expect(sent()).toBe(27);
    const report = RobustnessReportSchema.parse(saved[0]);
    expect(report.source).toEqual({
      kind: 'rows',
      runId: 'run-1',
      fileName: 'tickets.csv',
      sampled: 3,
      rowCount: 6,
    });
    expect(report.billedTokens).toBe(ready.budget.tokens);
    const team = report.cards[0]!;
    expect(team.order!.comparisons).toBe(6);
    expect(team.order!.positionBias).toBe('first');

    // Planned again, every request is answered from storage: the second check costs nothing.
    await store.getState().prepare({ kind: 'rows', runId: 'run-1', sample: 3 });
    expect(store.getState().ready!.budget).toMatchObject({ requests: 27, reused: 27, cost: 0 });
  });

  it('counts the answer on screen as stored when the check’s original is that same request', async () => {
    const request: EvaluateRequest = { state: 'My payout failed twice', model: 'model-latest', questions };
    const { store } = makeStore();
    const response = await evaluate(
      { baseUrl: reference.url, headers: { Authorization: `Bearer ${KEY}` } },
      { ...request },
    );
    await store.getState().prepare({
      kind: 'state',
      targetId: 'local',
      terms: LOCAL_TERMS,
      request,
      lastRun: { body: request, response: response.response, targetId: 'local' },
    });
    const ready = store.getState().ready!;
    expect(ready.model).toBe('model-1.13.0');
    expect(ready.budget.reused).toBe(1);
    expect(ready.notes[0]).toMatch(/model-latest answered as model-1\.13\.0 on the last run/);

    // Another state on screen: the alias is still pinned, but the last answer is not this request's.
    await store.getState().prepare({
      kind: 'state',
      targetId: 'local',
      terms: LOCAL_TERMS,
      request: { ...request, state: 'Another text entirely' },
      lastRun: { body: request, response: response.response, targetId: 'local' },
    });
    expect(store.getState().ready!.budget.reused).toBe(0);
  });

  it('says in a sentence why a file run cannot be checked, and sends nothing', async () => {
    const { store, sent } = makeStore();
    await store.getState().prepare({ kind: 'rows', runId: 'gone', sample: 3 });
    expect(store.getState().error).toBe('The check could not be planned: that file run is no longer stored.');
    expect(store.getState().phase).toBe('idle');
    expect(sent()).toBe(0);
  });

  // Issue 29 items 10-12: the check of the request on screen on a priced, rate-limited target.
  const priced: TargetTerms = {
    inputPrice: 5,
    pacing: { requestsPerMinute: 30, concurrency: 4, tokensPerSecond: 250_000 },
  };
  // Each test checks its own state: answers stored by one test are reused (not sent) by the next.
  let checks = 0;
  const onScreen = (terms: TargetTerms, targetId = 'priced'): CheckSource => ({
    kind: 'state',
    targetId,
    terms,
    request: { state: `The payout failed twice this week (${++checks})`, model: 'model-1.13.0', questions },
  });

  it("costs the plan and the report at the target's price, not the published one", async () => {
    const { store } = makeStore(virtualClock());
    await store.getState().prepare(onScreen(priced));
    const ready = store.getState().ready!;
    const dollars = (ready.budget.tokens * 5) / 1_000_000;
    expect(ready.budget.cost).toBeCloseTo(dollars, 12);
    expect(ready.budgetText).toBe(`${ready.budget.requests} requests, about ${formatCost(dollars)}`);
    await store.getState().run(ready.planKey);
    const report = store.getState().report!;
    expect(report.inputPrice).toBe(5);
    expect(report.estimatedCost).toBeCloseTo(dollars, 12);
    expect(store.getState().progress!.cost).toBeCloseTo((report.billedTokens * 5) / 1_000_000, 12);
  });

  it('says the cost is unknown on a target that states no price', async () => {
    const { store } = makeStore(virtualClock());
    await store.getState().prepare(onScreen({ ...priced, inputPrice: null }));
    const ready = store.getState().ready!;
    expect(ready.budget.cost).toBeNull();
    expect(ready.budgetText).toMatch(/input tokens \(cost unknown: this target states no price\)$/);
  });

  it("paces the check at the target's own rate limit (30 a minute: 2 s apart)", async () => {
    const { store, sentAt } = makeStore(virtualClock());
    await store.getState().prepare(onScreen(priced));
    await store.getState().run(store.getState().ready!.planKey);
    expect(sentAt.length).toBe(store.getState().ready!.budget.requests);
    const gaps = sentAt.slice(1).map((t, i) => t - sentAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2_000);
  });

  it('never runs a plan made for another target: Run needs the key of what is on screen', async () => {
    const { store, sent } = makeStore(virtualClock());
    const before = onScreen(LOCAL_TERMS, 'local');
    await store.getState().prepare(before);
    const stale = store.getState().ready!;
    const now = { ...before, targetId: 'priced', terms: priced };
    expect(planKeyOf(now, store.getState().settings)).not.toBe(stale.planKey);
    await store.getState().run(planKeyOf(now, store.getState().settings));
    expect(sent()).toBe(0);
    expect(store.getState().phase).toBe('ready');
  });
});
