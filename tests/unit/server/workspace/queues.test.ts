// Queues: a row is reserved by one person at a time (even when many ask at once), a retry never doubles a label, a
// second answer is an edit, a reservation lapses, a skip hands the row back, and "k people per row" is kept; the next
// row of a large queue is found by index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NextResponse, PutLabelsResponse } from '../../../../src/contract/workspace';
import { FREE_ROW_SQL, HELD_ROW_SQL } from '../../../../src/server/workspace/queues';
import { queueOf } from './fixtures';
import { startWorkspace, withTeam } from './helpers';
import type { TestWorkspace } from './helpers';

let ws: TestWorkspace;
let team: Awaited<ReturnType<typeof withTeam>>;

beforeAll(async () => {
  ws = await startWorkspace();
  team = await withTeam(ws, ['Ada', 'Bo', 'Cy', 'Di', 'Ed', 'Fay']);
}, 120_000);
afterAll(() => ws.close());

async function publish(rows: number, extra: Parameters<typeof queueOf>[1] = {}): Promise<string> {
  const q = await ws.call('POST', '/api/workspace/queues', {
    body: queueOf(rows, extra),
    cookie: team.owner,
  });
  expect(q.status).toBe(200);
  return (q.body as { queue: { id: string } }).queue.id;
}
const next = async (queue: string, cookie: string) =>
  (await ws.call('POST', `/api/workspace/queues/${queue}/next`, { cookie })).body as NextResponse;
const label = (queue: string, cookie: string, labels: object[]) =>
  ws.call('PUT', `/api/workspace/queues/${queue}/labels`, { cookie, body: { labels } });
const both = (row: number, id: string, tone = 'calm') => [
  { row, question: 'tone', value: tone, clientId: `${id}-t` },
  { row, question: 'harmful', value: false, clientId: `${id}-h` },
];

describe('what a labeller is handed', () => {
  it("keeps the rubric's order: a choice's options and a state's fields as they were published", async () => {
    const questions = {
      urgency: { type: 'choice', criteria: { soon: 'within a day', whenever: null, now: 'at once' } },
      tone: { type: 'choice', criteria: { calm: 'polite', angry: 'rude' } },
    };
    const q = await ws.call('POST', '/api/workspace/queues', {
      body: {
        name: 'Ordered',
        questions,
        rows: [{ key: 'r0', state: { zeta: 'last field first', alpha: 'first field last' }, judge: {} }],
      },
      cookie: team.owner,
    });
    expect(q.body).toMatchObject({ queue: { name: 'Ordered' } });
    const handed = await next((q.body as { queue: { id: string } }).queue.id, team.people[0]!.cookie);
    expect(Object.keys(handed.questions)).toEqual(['urgency', 'tone']);
    const urgency = handed.questions.urgency as { criteria: Record<string, unknown> };
    expect(Object.keys(urgency.criteria)).toEqual(['soon', 'whenever', 'now']);
    expect(Object.keys(handed.row!.state as object)).toEqual(['zeta', 'alpha']);
  });
});

describe('reservations', () => {
  it('never hands one row to two people, however many ask at once', async () => {
    const queue = await publish(4, { overlap: { perRow: 3, share: 1 } });
    const replies = await Promise.all(team.people.map((p) => next(queue, p.cookie)));
    const rows = replies.filter((r) => r.row).map((r) => r.row!.index);
    expect(rows).toHaveLength(4);
    expect(new Set(rows).size).toBe(4);
    expect(replies.filter((r) => !r.row).map((r) => r.reason)).toEqual(['reserved', 'reserved']);
    const held = await ws.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM queue_rows WHERE queue_id = $1 AND reserved_by IS NOT NULL',
      [queue],
    );
    expect(held[0]!.n).toBe(4);
  });

  it('gives the same row back to the person who holds it', async () => {
    const queue = await publish(3);
    const ada = team.people[0]!.cookie;
    const first = await next(queue, ada);
    const again = await next(queue, ada);
    expect(again.row!.index).toBe(first.row!.index);
  });

  it('lets a reservation lapse: the row goes to someone else', async () => {
    const queue = await publish(1, { reservationSeconds: 1 });
    const first = await next(queue, team.people[0]!.cookie);
    expect((await next(queue, team.people[1]!.cookie)).reason).toBe('reserved');
    await new Promise((r) => setTimeout(r, 1200));
    const second = await next(queue, team.people[1]!.cookie);
    expect(second.row!.index).toBe(first.row!.index);
  });

  it('hands a skipped row to the next person at once, never back to the one who skipped', async () => {
    const queue = await publish(1, { overlap: { perRow: 2, share: 1 } });
    const ada = team.people[0]!.cookie;
    const row = (await next(queue, ada)).row!.index;
    const skip = await ws.call('POST', `/api/workspace/queues/${queue}/skip`, { cookie: ada, body: { row } });
    expect(skip.status).toBe(200);
    expect((await next(queue, ada)).reason).toBe('done');
    expect((await next(queue, team.people[1]!.cookie)).row!.index).toBe(row);
  });

  it('keeps k people per row: a row labelled by two of two is offered to nobody else', async () => {
    const queue = await publish(1, { overlap: { perRow: 2, share: 1 } });
    for (const p of team.people.slice(0, 2)) {
      const row = (await next(queue, p.cookie)).row!.index;
      expect((await label(queue, p.cookie, both(row, p.name))).status).toBe(200);
    }
    const third = await next(queue, team.people[2]!.cookie);
    expect(third).toMatchObject({ row: null, reason: 'done' });
    expect(third.progress).toMatchObject({ done: 2, total: 2 });
    expect(third.progress.text).toMatch(/^2 of 2, done$/);
  });

  it('orders rows at random by the seed, the same seed giving the same order', async () => {
    const orderOf = async (seed: number) => {
      const queue = await publish(30, { order: { kind: 'random', seed } });
      const rows = await ws.db.query<{ idx: number }>(
        'SELECT idx FROM queue_rows WHERE queue_id = $1 ORDER BY position',
        [queue],
      );
      return rows.map((r) => r.idx);
    };
    const a = await orderOf(7);
    expect(await orderOf(7)).toEqual(a);
    expect(a).not.toEqual([...a].sort((x, y) => x - y));
  });
});

describe('labels', () => {
  it('stores a retried label once, and a second answer as an edit with its time', async () => {
    const queue = await publish(2);
    const bo = team.people[1]!.cookie;
    const row = (await next(queue, bo)).row!.index;
    const first = (await label(queue, bo, both(row, 'a'))).body as PutLabelsResponse;
    expect(first.saved.map((s) => s.outcome)).toEqual(['new', 'new']);
    const retry = (await label(queue, bo, both(row, 'a'))).body as PutLabelsResponse;
    expect(retry.saved.map((s) => s.outcome)).toEqual(['same', 'same']);
    const edit = (await label(queue, bo, [{ row, question: 'tone', value: 'angry', clientId: 'b-t' }]))
      .body as PutLabelsResponse;
    expect(edit.saved[0]!.outcome).toBe('edit');
    const stored = await ws.db.query<{ value: string; edited_at: Date | null }>(
      'SELECT value, edited_at FROM labels WHERE queue_id = $1 ORDER BY question',
      [queue],
    );
    expect(stored).toHaveLength(2);
    expect(stored.find((s) => s.value === 'angry')!.edited_at).toBeInstanceOf(Date);
    // The row counts once for its labeller, whatever the retries.
    expect(edit.progress.done).toBe(1);
  });

  it('refuses a label no question has, with a sentence, and stores nothing of the request', async () => {
    const queue = await publish(1);
    const cy = team.people[2]!.cookie;
    const row = (await next(queue, cy)).row!.index;
    const bad = await label(queue, cy, [
      { row, question: 'harmful', value: true, clientId: 'ok' },
      { row, question: 'tone', value: 'furious', clientId: 'bad' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('\\"furious\\" is not a label of \\"tone\\"');
    const stored = await ws.db.query('SELECT 1 FROM labels WHERE queue_id = $1', [queue]);
    expect(stored).toEqual([]);
  });

  it('says the progress as a person reads it, with the time left from the median pace', async () => {
    const queue = await publish(10);
    const di = team.people[3]!.cookie;
    const row = (await next(queue, di)).row!.index;
    const saved = (
      await label(
        queue,
        di,
        both(row, 'd').map((l) => ({ ...l, seconds: 30 })),
      )
    ).body as PutLabelsResponse;
    expect(saved.progress).toMatchObject({ done: 1, total: 10 });
    // 9 rows left at 60 s per row (two labels of 30 s) by one person: 9 minutes.
    expect(saved.progress.text).toBe('1 of 10, about 9 minutes left');
  });
});

describe('the next row of a large queue', () => {
  /** The plan's node types and index names, from EXPLAIN (FORMAT JSON). */
  const planOf = async (sql: string, params: unknown[]): Promise<string[]> => {
    const [row] = await ws.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const plan = row!['QUERY PLAN'];
    const nodes: string[] = [];
    const walk = (node: Record<string, unknown>): void => {
      nodes.push(`${String(node['Node Type'])}${node['Index Name'] ? ` ${String(node['Index Name'])}` : ''}`);
      for (const child of (node['Plans'] as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
      Plan: Record<string, unknown>;
    }[];
    walk(parsed[0]!.Plan);
    return nodes;
  };

  it('is found by index, walking the order, never by sorting the queue', async () => {
    const queue = await publish(20_000, { overlap: { perRow: 3, share: 1 } });
    const ed = team.people[4]!;
    for (let k = 0; k < 30; k++) {
      const row = (await next(queue, ed.cookie)).row!.index;
      expect((await label(queue, ed.cookie, both(row, `plan-${k}`))).status).toBe(200);
    }
    const free = await planOf(FREE_ROW_SQL, [queue, ed.id]);
    expect(free).toContain('Index Scan queue_rows_open');
    expect(free).toContain('Index Scan row_people_pkey');
    expect(free.filter((n) => /^(Sort|Seq Scan|Bitmap Heap Scan|Nested Loop|Materialize)/.test(n))).toEqual(
      [],
    );
    const held = await planOf(HELD_ROW_SQL, [queue, ed.id]);
    expect(held.some((n) => n.endsWith('queue_rows_reserved'))).toBe(true);
    expect(held.filter((n) => /^(Seq Scan|Sort)/.test(n))).toEqual([]);
  });
});
