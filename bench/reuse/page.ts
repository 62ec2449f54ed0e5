// The page of the "reuse" bench: the app's own rows store (worker parser, RowsRepo on this browser's IndexedDB, the
// runner) over a file of rows, run twice. The first run stores an answer for every row; its evaluate hands back the
// reference judge's answers for the row's text, computed in Node (no network: the bench is about the lookup, not the
// service). The second run of the same file is the one measured: every row answered from storage, nothing sent.
import { z } from 'zod';
import { EvaluateResponseSchema } from '../../src/contract';
import type { EvaluateRequest } from '../../src/contract';
import { EXAMPLE_REQUEST } from '../../src/core/example';
import { newId } from '../../src/core/ids';
import type { EvaluateFn } from '../../src/core/rows/runTypes';
import { WorkbenchDb } from '../../src/app/persistence/db';
import { RowsRepo } from '../../src/app/persistence/rowsRepo';
import { createRowsParser } from '../../src/app/workers/rowsParser';
import { createBrowserClock } from '../../src/app/platform/clock';
import { createRowsStore } from '../../src/app/stores/rows';
import { reuseText } from '../../src/app/features/rows/format';
import { MODEL, TEXTS } from './fixture';

export interface ReuseResult {
  rows: number;
  /** Reading and planning the file, and storing the first run's rows. */
  prepareMs: number;
  /** The first run: every row answered by the in-page judge and stored. */
  seedMs: number;
  /** Storing the second run's rows (not part of the reuse). */
  createMs: number;
  /** The second run, from Start to finished: every row looked up and reused. */
  reuseMs: number;
  reused: number;
  sentInReuse: number;
  settledStored: number;
  progressLine: string;
}

declare global {
  interface Window {
    runReuseBench: (rows: number, answersJson: string) => Promise<ReuseResult>;
  }
}

/** The judge's answers by text, as the Node side hands them over. */
const AnswersByTextSchema = z.record(z.string(), EvaluateResponseSchema.shape.answers);

window.runReuseBench = async (n, answersJson) => {
  const answersByText = AnswersByTextSchema.parse(JSON.parse(answersJson));
  const db = new WorkbenchDb(`reuse-bench-${Date.now()}`);
  const repo = new RowsRepo(db);
  let sent = 0;
  const evaluate: EvaluateFn = async (_target, request: EvaluateRequest) => {
    sent++;
    const a = answersByText[String(request.state).replace(/ \(#\d+\)$/, '')];
    if (!a) throw new Error(`No answer for ${String(request.state)}.`);
    return {
      response: { model: MODEL, answers: a, usage: { input_tokens: 40 } },
      attempts: [{ attempt: 0, outcome: 200, durationMs: 0 }],
      latencyMs: 0,
      possiblyBilledAttempts: 0,
    };
  };
  const store = createRowsStore({
    repo,
    parser: createRowsParser,
    evaluate,
    clock: createBrowserClock(),
    targetFor: () => ({ baseUrl: 'http://127.0.0.1:9', headers: {} }),
    newId,
  });
  const csv = [
    'id,text',
    ...Array.from({ length: n }, (_, i) => `r${i + 1},"${TEXTS[i % TEXTS.length]} (#${i + 1})"`),
  ];
  const file = new File([`${csv.join('\n')}\n`], 'reuse.csv', { type: 'text/csv' });
  const spec = { questions: EXAMPLE_REQUEST.questions, model: MODEL, targetId: 'local' };
  // Unpaced: the seed run is not what is measured, and the reuse run sends nothing.
  const pacing = { requestsPerMinute: 1_000_000, concurrency: 64, tokensPerSecond: 1e12 };

  const prepare = async (): Promise<void> => {
    await store.getState().pickFile(file);
    await store.getState().planFor(spec.questions);
    store.getState().setPacing(pacing);
    if (!store.getState().plan) throw new Error(store.getState().planError ?? 'The file was not planned.');
  };

  let t = performance.now();
  await prepare();
  const first = await store.getState().createRun(spec);
  if (!first) throw new Error(store.getState().error ?? 'The first run was not created.');
  const prepareMs = performance.now() - t;
  t = performance.now();
  await store.getState().start();
  const seedMs = performance.now() - t;
  const seeded = store.getState().progress;
  if (seeded?.done !== n)
    throw new Error(
      `The first run answered ${seeded?.done} of ${n} rows: ${JSON.stringify(seeded)} ${store.getState().error ?? ''} ${JSON.stringify(store.getState().results()[0])}`,
    );

  await prepare();
  t = performance.now();
  const second = await store.getState().createRun(spec);
  if (!second) throw new Error(store.getState().error ?? 'The second run was not created.');
  const createMs = performance.now() - t;
  sent = 0;
  t = performance.now();
  await store.getState().start();
  const reuseMs = performance.now() - t;
  const end = store.getState().progress!;
  const settledStored = await repo.countSettled(second);
  db.close();
  await db.delete();
  return {
    rows: n,
    prepareMs,
    seedMs,
    createMs,
    reuseMs,
    reused: end.reused,
    sentInReuse: sent,
    settledStored,
    progressLine: reuseText(end),
  };
};
