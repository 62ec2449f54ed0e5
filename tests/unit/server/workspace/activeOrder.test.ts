// A queue in active order: rows the judge is least sure of on the chosen question are handed out first (the order the
// design gives, read back from core/trust/active), unanswered rows last, each row's design stored with it; the
// owner's figures carry the estimate of the target from the labels so far, the same as the statistics module's from
// the same numbers; an active order on a question the queue lacks is refused in a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateQueueRequest, FiguresResponse, NextResponse } from '../../../../src/contract/workspace';

type JudgeAnswerInput = NonNullable<CreateQueueRequest['rows'][number]['judge']>[string];
import { seededRandom } from '../../../../src/contract/random';
import { activeDesign, activeMean, activeOrder, answerUncertainty } from '../../../../src/core/trust/active';
import { QUESTIONS } from './fixtures';
import { startWorkspace, withTeam } from './helpers';
import type { TestWorkspace } from './helpers';

let ws: TestWorkspace;
let team: Awaited<ReturnType<typeof withTeam>>;
beforeAll(async () => {
  ws = await startWorkspace();
  team = await withTeam(ws, ['Ada']);
}, 120_000);
afterAll(() => ws.close());

const N = 120;
// P(yes) of "harmful" on each row: from sure to unsure; row 7 has no judge answer.
const yes = (i: number) => [0.02, 0.1, 0.5, 0.9, 0.98, 0.4][i % 6]!;
const ORDER = {
  kind: 'active' as const,
  question: 'harmful',
  target: { kind: 'share' as const, level: 'yes' },
  budget: 40,
  floor: 0.2,
  seed: 4,
};
const queueBody = (order: CreateQueueRequest['order']): CreateQueueRequest => ({
  name: 'Active',
  questions: QUESTIONS,
  rows: Array.from({ length: N }, (_, i) => ({
    key: `r${i}`,
    state: `ticket ${i}`,
    judge: (i === 7
      ? {}
      : {
          harmful: {
            label: yes(i) >= 0.5,
            confidence: Math.max(yes(i), 1 - yes(i)),
            probabilities: [1 - yes(i), yes(i)],
          },
        }) as Record<string, JudgeAnswerInput>,
  })),
  order,
});

describe('a queue in active order', () => {
  it('hands out the design’s order, and the owner reads the estimate of its target', async () => {
    const made = await ws.call('POST', '/api/workspace/queues', {
      body: queueBody(ORDER),
      cookie: team.owner,
    });
    expect(made.status).toBe(200);
    const queue = (made.body as { queue: { id: string } }).queue.id;

    // The design, as core/trust/active gives it over the answered rows in published order.
    const answered = Array.from({ length: N }, (_, i) => i).filter((i) => i !== 7);
    const design = activeDesign(
      answered.map((i) => answerUncertainty({ type: 'noul', yes: yes(i) })),
      40,
      { floor: 0.2, seed: 4 },
    );
    const expected = Array.from(activeOrder(design), (at) => answered[at]!);

    const ada = team.people[0]!.cookie;
    const truth = seededRandom(11);
    const labels = new Map<number, number>();
    for (let k = 0; k < 30; k++) {
      const handed = (await ws.call('POST', `/api/workspace/queues/${queue}/next`, { cookie: ada }))
        .body as NextResponse;
      expect([k, handed.row!.index]).toEqual([k, expected[k]]);
      const value = truth() < yes(handed.row!.index);
      labels.set(answered.indexOf(handed.row!.index), value ? 1 : 0);
      await ws.call('PUT', `/api/workspace/queues/${queue}/labels`, {
        cookie: ada,
        body: {
          labels: [
            { row: handed.row!.index, question: 'harmful', value, clientId: `a-${k}` },
            { row: handed.row!.index, question: 'tone', value: 'calm', clientId: `a-${k}-t` },
          ],
        },
      });
    }

    const figures = (
      await ws.call('GET', `/api/workspace/queues/${queue}/figures?basis=majority`, { cookie: team.owner })
    ).body as FiguresResponse;
    const direct = activeMean(
      answered.map((i) => yes(i)),
      design,
      labels,
      { range: [0, 1] },
    )!;
    expect(figures.active).toMatchObject({ question: 'harmful', n: 30, N: N - 1, beyondFrontier: 0 });
    expect(figures.active!.estimate.value).toBeCloseTo(direct.active.value, 12);
    expect(figures.active!.estimate.se).toBeCloseTo(direct.active.se, 12);
    expect(figures.active!.sentence).toMatch(/^Active order: ±0\.\d{3} with 30 labels/);
  });

  it('hands out the unanswered rows last', async () => {
    const made = await ws.call('POST', '/api/workspace/queues', {
      body: { ...queueBody({ ...ORDER, budget: N }), name: 'All of it' },
      cookie: team.owner,
    });
    const queue = (made.body as { queue: { id: string } }).queue.id;
    const handed: number[] = [];
    for (let k = 0; k < N; k++) {
      const n = (
        await ws.call('POST', `/api/workspace/queues/${queue}/next`, { cookie: team.people[0]!.cookie })
      ).body as NextResponse;
      handed.push(n.row!.index);
      await ws.call('POST', `/api/workspace/queues/${queue}/skip`, {
        cookie: team.people[0]!.cookie,
        body: { row: n.row!.index },
      });
    }
    expect(handed.at(-1)).toBe(7);
    expect(new Set(handed).size).toBe(N);
  });

  it('refuses an active order on a question the queue does not have, in a sentence', async () => {
    const made = await ws.call('POST', '/api/workspace/queues', {
      body: queueBody({ ...ORDER, question: 'nope' }),
      cookie: team.owner,
    });
    expect(made.status).toBe(400);
    expect(JSON.stringify(made.body)).toContain(
      'The active order names \\"nope\\", which is not a question of the queue.',
    );
  });

  it('gives no active estimate for a queue in random order', async () => {
    const made = await ws.call('POST', '/api/workspace/queues', {
      body: { ...queueBody({ kind: 'random', seed: 1 }), name: 'Random' },
      cookie: team.owner,
    });
    const queue = (made.body as { queue: { id: string } }).queue.id;
    const figures = (await ws.call('GET', `/api/workspace/queues/${queue}/figures`, { cookie: team.owner }))
      .body as FiguresResponse;
    expect(figures.active).toBeUndefined();
  });
});
