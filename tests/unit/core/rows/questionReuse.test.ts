// Reuse per question, end to end in Node: the real client over loopback to the real reference service, which keeps
// every body it answered, and progress and answers in IndexedDB (fake-indexeddb) through the app's own repo. A
// variant that rewords one question sends only that one; what storage answers whole is not sent at all.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateRequest, Questions } from '../../../../src/contract';
import { abortableSleep, evaluate, toEvaluationError } from '../../../../src/client';
import type { ClientTarget } from '../../../../src/client';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../src/app/persistence/rowsRepo';
import { dedupKeySync, dedupText, questionIdentities, sha256HexSync } from '../../../../src/core/rows/dedup';
import {
  mayReuseByQuestion,
  mergedResponse,
  questionsFound,
  questionsLeft,
} from '../../../../src/core/rows/questionReuse';
import { storedRun } from '../../../helpers/fixtures';
import type { RowItem, StoredAnswer } from '../../../../src/core/rows/records';
import type { PlannedRow } from '../../../../src/core/rows/runPlan';
import { RowRunner } from '../../../../src/core/rows/runner';
import type { CountingReference } from '../../../../bench/lib/countingReference';
import { serveCountingReference } from '../../../../bench/lib/countingReference';
import { freshDbName } from '../../app/persistence/dbHelpers';
import { ManualClock } from './manualClock';
import { MemoryStore } from './memoryStore';

const KEY = 'local-dev-key';
const PINNED = 'model-1.13.0';
const clock = { now: () => Date.now(), sleep: abortableSleep };

const QUESTIONS: Questions = {
  urgent: { type: 'noul', instructions: 'Does this convey urgency?' },
  team: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: { billing: 'Payments and refunds', technical: 'Bugs and crashes' },
  },
  mood: {
    type: 'score',
    instructions: 'How upset is the customer?',
    criteria: ['Calm', 'Annoyed', 'Furious'],
  },
};
/** The same questions with `team` reworded: a variant. */
const REWORDED: Questions = {
  ...QUESTIONS,
  team: {
    type: 'choice',
    instructions: 'Which team owns the problem described here?',
    criteria: { billing: 'Charges, refunds and payouts', technical: 'Errors, crashes and log-in trouble' },
  },
};

const TEXTS = [
  'I was charged twice, refund me today',
  'The app crashes when I log in',
  'Thanks, all sorted',
  'Payout failed again and I am furious',
];
const N = 12;

let reference: CountingReference;
beforeAll(async () => {
  reference = await serveCountingReference({ rpm: 1e9, tps: 1e12, keepBodies: true });
});
afterAll(() => reference.close());

const opened: WorkbenchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});
const openRepo = (): RowsRepo => {
  const db = new WorkbenchDb(freshDbName());
  opened.push(db);
  return new RowsRepo(db);
};

const targetNow = (): ClientTarget => ({
  baseUrl: reference.url,
  headers: { Authorization: `Bearer ${KEY}` },
});

/** N rows whose state carries the row id, so each body the service saw names its row. */
const planned = (prefix: string): PlannedRow[] =>
  Array.from({ length: N }, (_, i) => ({
    number: i + 1,
    line: i + 2,
    id: `${prefix}${i + 1}`,
    state: { row_id: `${prefix}${i + 1}`, text: `${TEXTS[i % TEXTS.length]} (${i + 1})` },
    tokens: 200,
  }));

/** Stores a run of these rows (the repo's runStore writes outcomes over them) and runs it to the end. */
async function runRows(
  repo: RowsRepo,
  runId: string,
  rows: PlannedRow[],
  questions: Questions,
  model = PINNED,
) {
  const items: RowItem[] = rows.map((r) => ({
    runId,
    number: r.number,
    line: r.line,
    id: r.id,
    data: r.state,
    tokens: r.tokens,
  }));
  await repo.createRun(
    {
      schemaVersion: 1,
      id: runId,
      fileName: 'rows.csv',
      format: 'csv',
      columns: ['row_id', 'text'],
      createdAt: 1,
      updatedAt: 1,
      targetId: 'local',
      model,
      questions,
      mapping: { mode: 'columns', columns: ['row_id', 'text'], idColumn: 'row_id' },
      pacing: { requestsPerMinute: 60_000, concurrency: 4, tokensPerSecond: 250_000 },
      maxCost: null,
      rowCount: rows.length,
      issues: [],
      totalTokens: 0,
      status: 'ready',
      halt: null,
    },
    items,
  );
  const runner = new RowRunner(
    {
      targetId: 'local',
      target: targetNow(),
      model,
      questions,
      rows,
      pacing: { requestsPerMinute: 60_000, concurrency: 4, tokensPerSecond: 250_000 },
      maxCost: null,
    },
    { evaluate, clock, store: repo.runStore(runId) },
  );
  const sentBefore = reference.bodies().length;
  const progress = await runner.run();
  const sent = reference.bodies().slice(sentBefore) as EvaluateRequest[];
  const { items: stored } = await repo.loadItems(runId);
  const answers = await repo.answers(stored.flatMap((i) => i.outcome?.answerKey ?? []));
  const responseOf = (number: number) => answers.get(stored[number - 1]!.outcome!.answerKey!)!.response;
  return { progress, sent, stored, responseOf };
}

const rowIdOf = (body: EvaluateRequest): string => (body.state as { row_id: string }).row_id;

describe('reuse per question against the reference service', () => {
  it('a variant that rewords one of three questions sends only that question, merges the answers, bills only it', async () => {
    const repo = openRepo();
    const rows = planned('v');
    const first = await runRows(repo, 'first', rows, QUESTIONS);
    expect(first.progress).toMatchObject({ done: N, reused: 0, partlyReused: 0 });
    expect(first.sent.every((b) => Object.keys(b.questions).length === 3)).toBe(true);

    const variant = await runRows(repo, 'variant', rows, REWORDED);
    // The service saw one request per row, each with the reworded question alone.
    expect(variant.sent).toHaveLength(N);
    expect(variant.sent.map(rowIdOf).sort()).toEqual(rows.map((r) => r.id).sort());
    for (const body of variant.sent) expect(body.questions).toEqual({ team: REWORDED.team });
    expect(variant.progress).toMatchObject({ done: N, reused: 0, partlyReused: N, pending: 0 });

    let billed = 0;
    for (const item of variant.stored) {
      const outcome = item.outcome!;
      expect(outcome).toMatchObject({ status: 'done', reusedQuestions: ['urgent', 'mood'] });
      const merged = variant.responseOf(item.number);
      // All three answers, in the questions' order: the two stored ones exactly as the first run got them.
      expect(Object.keys(merged.answers)).toEqual(['urgent', 'team', 'mood']);
      const before = first.responseOf(item.number);
      expect(merged.answers['urgent']).toEqual(before.answers['urgent']);
      expect(merged.answers['mood']).toEqual(before.answers['mood']);
      // The reworded question's answer and usage are those of asking it alone.
      const alone = await evaluate(targetNow(), {
        state: rows[item.number - 1]!.state,
        model: PINNED,
        questions: { team: REWORDED.team! },
      });
      expect(merged.answers['team']).toEqual(alone.response.answers['team']);
      expect(outcome.inputTokens).toBe(alone.response.usage.input_tokens);
      expect(merged.usage.input_tokens).toBe(alone.response.usage.input_tokens);
      expect(outcome.inputTokens).toBeLessThan(first.stored[item.number - 1]!.outcome!.inputTokens!);
      billed += outcome.inputTokens!;
    }
    expect(variant.progress.billedTokens).toBe(billed);

    // The variant run again: its rows' whole answers are stored now, so nothing is sent.
    const again = await runRows(repo, 'again', rows, REWORDED);
    expect(again.sent).toEqual([]);
    expect(again.progress).toMatchObject({ reused: N, reusedEarlier: N, billedTokens: 0 });
  });

  it('a row whose every question is stored is reused without a request, its answer put together and kept', async () => {
    const repo = openRepo();
    const rows = planned('all');
    const first = await runRows(repo, 'first', rows, QUESTIONS);
    // Two of the three questions: no whole answer has this key, every question has one.
    const { urgent, mood } = QUESTIONS;
    const subset = await runRows(repo, 'subset', rows, { mood: mood!, urgent: urgent! });
    expect(subset.sent).toEqual([]);
    expect(subset.progress).toMatchObject({ reused: N, reusedEarlier: N, done: 0, billedTokens: 0, cost: 0 });
    for (const item of subset.stored) {
      expect(item.outcome).toMatchObject({
        status: 'reused',
        reusedFrom: 'earlier',
        inputTokens: 0,
        reusedQuestions: ['mood', 'urgent'],
      });
      const response = subset.responseOf(item.number);
      expect(Object.keys(response.answers)).toEqual(['mood', 'urgent']);
      expect(response.answers['urgent']).toEqual(first.responseOf(item.number).answers['urgent']);
      expect(response.usage.input_tokens).toBe(0);
    }
  });

  it('another model finds nothing stored: every question of every row is sent', async () => {
    const repo = openRepo();
    const rows = planned('m');
    await runRows(repo, 'first', rows, QUESTIONS);
    const other = await runRows(repo, 'other', rows, REWORDED, 'model-1.12.0');
    expect(other.sent).toHaveLength(N);
    for (const body of other.sent)
      expect(Object.keys(body.questions).sort()).toEqual(['mood', 'team', 'urgent']);
    expect(other.progress).toMatchObject({ done: N, reused: 0, partlyReused: 0 });
    expect(other.stored.every((i) => i.outcome?.reusedQuestions === undefined)).toBe(true);
  });
});

describe('per-question keys and merging', () => {
  it("a question's key is exactly the key of a request asking only that question", () => {
    const id = {
      targetId: 'local',
      model: PINNED,
      state: { text: 'hi' },
      questions: QUESTIONS,
      tag: 'order:1',
    };
    const each = questionIdentities(id);
    expect(each.map(([name]) => name)).toEqual(['urgent', 'team', 'mood']);
    const [, team] = each[1]!;
    const alone = { ...id, questions: { team: QUESTIONS.team! } };
    expect(dedupKeySync(team)).toBe(dedupKeySync(alone));
    expect(dedupKeySync(team)).toBe(sha256HexSync(new TextEncoder().encode(dedupText(alone))));
    // The tag and the model are part of it; the other questions are not.
    expect(dedupKeySync(team)).not.toBe(dedupKeySync({ ...alone, tag: undefined }));
    expect(dedupKeySync(team)).not.toBe(dedupKeySync({ ...alone, model: 'model-1.12.0' }));
    expect(dedupKeySync(questionIdentities({ ...id, questions: REWORDED })[0]![1])).toBe(
      dedupKeySync(each[0]![1]),
    );
  });

  const stored = (answers: StoredAnswer['response']['answers'], at = 1): StoredAnswer => ({
    key: 'k',
    targetId: 'local',
    model: PINNED,
    response: { model: PINNED, answers, usage: { input_tokens: 50 } },
    at,
  });

  it('takes a stored answer only for a question of its kind, and merges in the questions order', () => {
    const found = questionsFound(
      QUESTIONS,
      ['ku', 'kt', 'km'],
      new Map([
        ['ku', stored({ urgent: { type: 'noul', noul: 0.9 } })],
        // Stored under the key but answering another kind: asked again.
        ['kt', stored({ team: { type: 'noul', noul: 0.1 } })],
        ['km', stored({ mood: { type: 'refusal', question_type: 'score' } })],
      ]),
    );
    expect([...found.keys()]).toEqual(['urgent', 'mood']);
    expect(Object.keys(questionsLeft(QUESTIONS, found))).toEqual(['team']);
    const sent = {
      model: PINNED,
      answers: {
        team: {
          type: 'choice' as const,
          choice: 'billing',
          confidence: 0.5,
          probabilities: { billing: 0.75, technical: 0.25 },
        },
      },
      usage: { input_tokens: 42 },
    };
    const merged = mergedResponse(QUESTIONS, found, sent, PINNED);
    expect(Object.keys(merged.answers)).toEqual(['urgent', 'team', 'mood']);
    expect(merged.usage).toEqual({ input_tokens: 42 });
    expect(mergedResponse(QUESTIONS, found, null, PINNED).usage).toEqual({ input_tokens: 0 });
  });
});

describe('the runner, reusing per question', () => {
  /** A service on a manual clock answering each question asked with a noul, billed 10 tokens a question. */
  function service(manual: ManualClock, behaviour: () => 'ok' | 'timeout' = () => 'ok') {
    const asked: string[][] = [];
    const fn = async (_t: ClientTarget, request: EvaluateRequest) => {
      asked.push(Object.keys(request.questions));
      await manual.sleep(10);
      if (behaviour() === 'timeout') {
        throw toEvaluationError({ type: 'timeout', timeoutMs: 30_000 }, [
          { attempt: 0, outcome: 'timeout', durationMs: 30_000, possiblyBilled: true },
        ]);
      }
      const names = Object.keys(request.questions);
      return {
        response: {
          model: PINNED,
          answers: Object.fromEntries(names.map((n) => [n, { type: 'noul' as const, noul: 0.5 }])),
          usage: { input_tokens: 10 * names.length },
        },
        attempts: [{ attempt: 0, outcome: 200 as const, durationMs: 10 }],
        latencyMs: 10,
        possiblyBilledAttempts: 0,
      };
    };
    return { asked, fn };
  }
  const noul = (instructions: string) => ({ type: 'noul' as const, instructions });
  const runner = (
    store: MemoryStore,
    manual: ManualClock,
    questions: Questions,
    fn: unknown,
    questionReuse?: boolean,
  ) =>
    new RowRunner(
      {
        targetId: 'local',
        target: { baseUrl: 'http://unused' },
        model: PINNED,
        questions,
        rows: [{ number: 1, line: 2, id: 'a', state: 'row a', tokens: 30 }],
        pacing: { requestsPerMinute: 6000, concurrency: 1, tokensPerSecond: 1e9 },
        maxCost: null,
        ...(questionReuse === undefined ? {} : { questionReuse }),
      },
      { evaluate: fn as never, clock: manual, store },
    );

  it('marks a partly reused row sending before it leaves, and never resends it after a timeout', async () => {
    const store = new MemoryStore();
    const manual = new ManualClock();
    const first = service(manual);
    await manual.runUntil(runner(store, manual, { a: noul('A?'), b: noul('B?') }, first.fn).run());
    expect(first.asked).toEqual([['a', 'b']]);

    const second = service(manual, () => 'timeout');
    const variant = runner(store, manual, { a: noul('A?'), b: noul('B, reworded?') }, second.fn);
    const end = await manual.runUntil(variant.run());
    expect(second.asked).toEqual([['b']]);
    expect(store.history.get(1)).toEqual(['sending', 'done', 'sending', 'unknown']);
    expect(end).toMatchObject({ unknown: 1, done: 0 });
    // Unknown stays unknown: running again sends nothing by itself.
    await manual.runUntil(variant.run());
    expect(second.asked).toEqual([['b']]);
  });

  it('looks up questions only for rows whose whole answer is missing, in one batched read', async () => {
    const store = new MemoryStore();
    const manual = new ManualClock();
    const first = service(manual);
    await manual.runUntil(runner(store, manual, { a: noul('A?'), b: noul('B?') }, first.fn).run());
    // Nothing stored yet: the row missed whole, and its two questions were looked up in one read.
    expect(store.questionLookups.map((keys) => keys.length)).toEqual([2]);
    // The same request again: found whole, so no question lookup at all.
    await manual.runUntil(runner(store, manual, { a: noul('A?'), b: noul('B?') }, first.fn).run());
    expect(first.asked).toEqual([['a', 'b']]);
    expect(store.questionLookups).toHaveLength(1);
    const third = service(manual);
    const end = await manual.runUntil(
      runner(store, manual, { a: noul('A?'), b: noul('B?'), c: noul('C?') }, third.fn).run(),
    );
    expect(store.questionLookups.map((keys) => keys.length)).toEqual([2, 3]);
    expect(third.asked).toEqual([['c']]);
    expect(end).toMatchObject({ done: 1, partlyReused: 1, billedTokens: 10 });
  });

  it('reads no question keys when told no stored run could answer any in part', async () => {
    const store = new MemoryStore();
    const manual = new ManualClock();
    const first = service(manual);
    await manual.runUntil(runner(store, manual, { a: noul('A?'), b: noul('B?') }, first.fn, false).run());
    const second = service(manual);
    await manual.runUntil(
      runner(store, manual, { a: noul('A?'), b: noul('B, reworded?') }, second.fn, false).run(),
    );
    expect(store.questionLookups).toEqual([]);
    expect(second.asked).toEqual([['a', 'b']]);
  });
});

describe('mayReuseByQuestion', () => {
  const base = storedRun({
    id: 'base',
    fileName: 'tickets.csv',
    rowCount: 500,
    questions: { a: { type: 'noul', instructions: 'A?' }, b: { type: 'noul', instructions: 'B?' } },
  });
  const reworded = {
    ...base,
    id: 'new',
    questions: { ...base.questions, b: { type: 'noul' as const, instructions: 'B2?' } },
  };

  it('is on for the same file asked a question worded the same among others', () => {
    expect(mayReuseByQuestion(reworded, [base])).toBe(true);
    expect(mayReuseByQuestion({ ...base, id: 'new', questions: { a: base.questions['a']! } }, [base])).toBe(
      true,
    );
  });

  it('is off for a new file, another model or target, identical questions, or no question in common', () => {
    expect(mayReuseByQuestion(reworded, [])).toBe(false);
    expect(mayReuseByQuestion({ ...reworded, fileName: 'other.csv' }, [base])).toBe(false);
    expect(mayReuseByQuestion({ ...reworded, rowCount: 499 }, [base])).toBe(false);
    expect(mayReuseByQuestion({ ...reworded, model: 'model-2' }, [base])).toBe(false);
    expect(mayReuseByQuestion({ ...reworded, targetId: 'hosted' }, [base])).toBe(false);
    expect(mayReuseByQuestion({ ...base, id: 'new' }, [base])).toBe(false);
    expect(mayReuseByQuestion({ ...base, id: 'new', questions: { c: { type: 'noul' } } }, [base])).toBe(
      false,
    );
    expect(mayReuseByQuestion(base, [base])).toBe(false);
  });
});
