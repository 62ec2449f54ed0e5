// Labels in, end to end in Node: a CSV with label and metadata columns is planned, stored and run against the real
// reference service over loopback HTTP. Every request body the service receives is read on its side: no label,
// metadata or id column ever reaches the state. The stored rows keep the labels, and the figures come out of them.
import 'fake-indexeddb/auto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { EvaluateRequestSchema } from '../../../../src/contract';
import { abortableSleep, evaluate } from '../../../../src/client';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { RowsRepo } from '../../../../src/app/persistence/rowsRepo';
import { computeAlignment } from '../../../../src/core/alignment/compute';
import { ImportSession } from '../../../../src/core/rows/importSession';
import { mapRow } from '../../../../src/core/rows/mapping';
import type { RowMapping } from '../../../../src/core/rows/mapping';
import { parseCsvText } from '../../../../src/core/rows/parse';
import { ROWS_SCHEMA_VERSION } from '../../../../src/core/rows/records';
import { plannedFromItems } from '../../../../src/core/rows/runPlan';
import { RowRunner } from '../../../../src/core/rows/runner';
import { questionTokens, stateTokens } from '../../../../src/contract/tokens';
import { createReferenceApp } from '../../../../src/server/reference/app';
import { freshDbName } from '../../app/persistence/dbHelpers';

const questions: Questions = {
  team: {
    type: 'choice',
    instructions: 'Which team should answer `text`?',
    criteria: { billing: 'Payments and refunds', technical: 'Bugs and crashes' },
  },
  urgent: { type: 'noul', instructions: 'Does `text` convey urgency?' },
};
const CSV = [
  'ticket_id,text,human_team,human_urgent,source',
  't1,I was charged twice refund me now,Billing ,yes,email',
  't2,The app crashes when I log in,TECHNICAL,n,chat',
  't3,Payout failed again urgent,bill,TRUE,email',
  't4,Screen freezes on start,tech,0,chat',
  't5,Thanks all sorted,money,,email',
  't6,Refund please,billing,maybe,chat',
].join('\n');

let url = '';
let server: Server;
const bodies: unknown[] = [];
beforeAll(async () => {
  const app = createReferenceApp({});
  server = createAdaptorServer({
    hostname: '127.0.0.1',
    fetch: async (request: Request) => {
      if (request.method === 'POST') bodies.push(JSON.parse(await request.clone().text()));
      return app.fetch(request);
    },
  }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const mapping: RowMapping = {
  mode: 'fields',
  idColumn: 'ticket_id',
  labels: [
    { column: 'human_team', question: 'team', levelBase: 0, values: { money: 'billing' } },
    { column: 'human_urgent', question: 'urgent', levelBase: 0, values: {} },
  ],
  metadata: ['source'],
};

describe('labels in', () => {
  it('never sends a label, metadata or id column, and keeps the labels with the stored rows', async () => {
    const parsed = parseCsvText(CSV);
    const session = new ImportSession('labelled.csv');
    session.add({ rows: parsed.rows, issues: parsed.issues });
    const plan = session.plan(mapping, questions, { stateTokens, questionTokens });
    expect(plan.samples[0]!.state).toEqual({ text: 'I was charged twice refund me now' });
    const teamPlan = plan.labels!.find((l) => l.question === 'team')!.summary!;
    expect(teamPlan).toMatchObject({ labelled: 6, unmatched: 0 });
    const urgentPlan = plan.labels!.find((l) => l.question === 'urgent')!.summary!;
    expect(urgentPlan).toMatchObject({ labelled: 4, unmatched: 1, empty: 1 });

    const items = session.items('run-labels');
    expect(items.map((i) => i.labels)).toEqual([
      { team: 'billing', urgent: true },
      { team: 'technical', urgent: false },
      { team: 'billing', urgent: true },
      { team: 'technical', urgent: false },
      { team: 'billing' },
      { team: 'billing' },
    ]);

    const db = new WorkbenchDb(freshDbName());
    const repo = new RowsRepo(db);
    const now = Date.now();
    await repo.createRun(
      {
        schemaVersion: ROWS_SCHEMA_VERSION,
        id: 'run-labels',
        fileName: 'labelled.csv',
        format: 'csv',
        columns: parsed.summary.columns,
        createdAt: now,
        updatedAt: now,
        targetId: 'local',
        model: 'model-latest',
        questions,
        mapping,
        pacing: { requestsPerMinute: 60_000, concurrency: 2, tokensPerSecond: 250_000 },
        maxCost: null,
        rowCount: items.length,
        issues: [],
        totalTokens: plan.totalTokens,
        status: 'ready',
        halt: null,
      },
      items,
    );
    const run = (await repo.getRun('run-labels'))!;
    expect(run.mapping.labels).toHaveLength(2);
    const loaded = await repo.loadItems('run-labels');
    const { rows, outcomes } = plannedFromItems(loaded.items, run.mapping);
    const runner = new RowRunner(
      {
        targetId: 'local',
        target: { baseUrl: url, headers: { Authorization: 'Bearer local-dev-key' } },
        model: run.model,
        questions,
        rows,
        outcomes,
        pacing: run.pacing,
        maxCost: null,
      },
      {
        evaluate,
        clock: { now: () => Date.now(), sleep: abortableSleep },
        store: repo.runStore('run-labels'),
      },
    );
    await runner.run();
    expect(runner.progress().phase).toBe('finished');

    expect(bodies.length).toBe(6);
    for (const body of bodies) {
      const request = EvaluateRequestSchema.parse(body);
      expect(Object.keys(request.state as object)).toEqual(['text']);
      expect(JSON.stringify(request)).not.toMatch(/human_|TECHNICAL|"source"|ticket_id|t\d"/);
    }

    // A label given in the app is stored with the row, and a reload reads it back.
    await repo.setLabel('run-labels', 5, 'urgent', false);
    const again = await repo.loadItems('run-labels');
    expect(again.items[4]!.labels).toEqual({ team: 'billing', urgent: false });
    await repo.setLabel('run-labels', 5, 'urgent', null);
    expect((await repo.loadItems('run-labels')).items[4]!.labels).toEqual({ team: 'billing' });

    const keys = again.items.flatMap((i) => (i.outcome?.answerKey ? [i.outcome.answerKey] : []));
    const answers = await repo.answers(keys);
    const report = computeAlignment(
      questions,
      again.items.map((i) => ({
        id: i.id,
        labels: i.labels ?? {},
        ...(i.outcome?.answerKey ? { answers: answers.get(i.outcome.answerKey)!.response.answers } : {}),
      })),
      { bootstrap: { B: 100, seed: 1 } },
    );
    expect(report.figures['team.accuracy']!.n).toBe(6);
    expect(report.figures['urgent.accuracy']!.n).toBe(5);
    db.close();
    await db.delete();
  });

  it('refuses a text column that is mapped as a label, in a sentence', () => {
    const r = mapRow(
      { text: 'hi', human: 'billing' },
      {
        mode: 'text',
        column: 'human',
        idColumn: null,
        labels: [{ column: 'human', question: 'team', levelBase: 0, values: {} }],
      },
    );
    expect(r).toEqual({
      ok: false,
      reason: 'The column `human` is mapped as a label or metadata, so it is never sent.',
    });
  });
});
