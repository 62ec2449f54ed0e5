// Queues: rows published with their questions, handed out one at a time. A row handed to a person is reserved until
// they label it, skip it or the reservation lapses; `FOR UPDATE SKIP LOCKED` keeps two people off one row on
// PostgreSQL, and PGlite's one connection runs transactions one after another, which gives the same guarantee.
import { seededRandom } from '../../contract/random';
import type {
  CreateQueueRequestSchema,
  QueueOrder,
  NextResponse,
  Person,
  Progress,
  QueueSummary,
} from '../../contract/workspace';
import type { z } from 'zod';
import { validLabel } from '../../core/labels';
import { activePositions } from './activeOrder';
import type { Db, Sql } from './db';
import { WorkspaceFault } from './fault';
import { progressText } from './progress';
import { newId } from './tokens';

export type CreateQueue = z.output<typeof CreateQueueRequestSchema>;

export interface QueueRecord {
  id: string;
  name: string;
  questions: QueueSummary['questions'];
  question_count: number;
  overlap: QueueSummary['overlap'];
  assignment: QueueSummary['assignment'];
  reservation_seconds: number;
  row_order: QueueOrder;
  row_count: number;
  fixed_slots: number;
  everyone_rows: number;
  done_slots: number;
  created_at: Date;
}

/** Rows inserted per statement: large enough to be quick, small enough for one message. */
const INSERT_CHUNK = 2000;

/** Every problem of a queue before it is stored: judge answers to unknown questions, labels no question has. */
function queueProblems(q: CreateQueue, people: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const keys = new Set<string>();
  q.rows.forEach((row, i) => {
    if (keys.has(row.key)) problems.push(`Row ${i + 1}: the key "${row.key}" is used twice.`);
    keys.add(row.key);
    for (const [name, answer] of Object.entries(row.judge ?? {})) {
      const question = q.questions[name];
      if (!question) problems.push(`Row ${i + 1}: the judge answers "${name}", which is not a question.`);
      else if (!validLabel(answer.label, question))
        problems.push(`Row ${i + 1}: the judge's "${String(answer.label)}" is not a label of "${name}".`);
    }
  });
  if (q.order.kind === 'active' && !q.questions[q.order.question])
    problems.push(`The active order names "${q.order.question}", which is not a question of the queue.`);
  if (q.assignment.kind === 'assigned')
    for (const id of q.assignment.people)
      if (!people.has(id)) problems.push(`The queue is assigned to "${id}", who is not in the workspace.`);
  return problems.slice(0, 20);
}

/** Positions in the published, random (seeded) or active order, with an active order's design per row. */
function positionsOf(
  q: CreateQueue,
): Pick<ReturnType<typeof activePositions>, 'position'> & Partial<ReturnType<typeof activePositions>> {
  const n = q.rows.length;
  if (q.order.kind === 'active')
    return activePositions(
      q.rows.map((r) => r.judge),
      q.questions[q.order.question]!,
      q.order,
    );
  const order = Array.from({ length: n }, (_, i) => i);
  if (q.order.kind === 'random') {
    const draw = seededRandom(q.order.seed);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(draw() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
  }
  const position = new Int32Array(n);
  order.forEach((idx, rank) => (position[idx] = rank));
  return { position };
}

/** Positions, an active order's design, and people wanted per row (null: everyone). */
function plan(q: CreateQueue) {
  const n = q.rows.length;
  const seed = q.order.kind === 'given' ? 0 : q.order.seed;
  const positions = positionsOf(q);
  // k people on a share of the rows: the share drawn at random too, one person on the others.
  const overlapped = new Set<number>();
  const shareDraw = seededRandom(seed + 1);
  const picks = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(shareDraw() * (i + 1));
    [picks[i], picks[j]] = [picks[j]!, picks[i]!];
  }
  picks.slice(0, Math.round(q.overlap.share * n)).forEach((i) => overlapped.add(i));
  const perRow = q.overlap.perRow === 'everyone' ? null : q.overlap.perRow;
  const wanted = q.rows.map((_, i) => (overlapped.has(i) ? perRow : 1));
  return { ...positions, wanted };
}

export async function createQueue(db: Db, q: CreateQueue): Promise<QueueRecord> {
  const people = new Set((await db.query<{ id: string }>('SELECT id FROM people')).map((p) => p.id));
  const problems = queueProblems(q, people);
  if (problems.length) throw new WorkspaceFault(400, 'invalid_queue', problems.join(' '));
  const { position, probability, key, wanted } = plan(q);
  const id = newId('q');
  const fixed = wanted.reduce<number>((s, w) => s + (w ?? 0), 0);
  const everyone = wanted.filter((w) => w === null).length;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO queues (id, name, questions, question_count, overlap, assignment, reservation_seconds, row_order,
         row_count, fixed_slots, everyone_rows)
       VALUES ($1, $2, $3::json, $4, $5::jsonb, $6::jsonb, $7, $8::jsonb, $9, $10, $11)`,
      [
        id,
        q.name,
        JSON.stringify(q.questions),
        Object.keys(q.questions).length,
        JSON.stringify(q.overlap),
        JSON.stringify(q.assignment),
        q.reservationSeconds,
        JSON.stringify(q.order),
        q.rows.length,
        fixed,
        everyone,
      ],
    );
    for (let start = 0; start < q.rows.length; start += INSERT_CHUNK) {
      const chunk = q.rows.slice(start, start + INSERT_CHUNK).map((row, k) => {
        const idx = start + k;
        return {
          idx,
          key: row.key,
          state: row.state,
          judge: row.judge ?? null,
          position: position[idx],
          wanted: wanted[idx],
          design_probability: probability?.[idx] ?? null,
          design_key: key?.[idx] ?? null,
        };
      });
      await tx.query(
        `INSERT INTO queue_rows (queue_id, idx, key, state, judge, position, wanted, design_probability, design_key)
         SELECT $1, x.idx, x.key, x.state, x.judge, x.position, x.wanted, x.design_probability, x.design_key
         FROM json_to_recordset($2::json) AS x(idx int, key text, state json, judge jsonb, position int, wanted int,
                                                design_probability double precision, design_key double precision)`,
        [id, JSON.stringify(chunk)],
      );
    }
  });
  // The planner's row counts of a fresh queue: without them it sorts a whole queue to hand out one row. PGlite has no
  // autovacuum to gather them, and a team's PostgreSQL would only after its threshold.
  await db.query('ANALYZE queue_rows');
  return (await queueById(db, id))!;
}

export async function queueById(db: Sql, id: string): Promise<QueueRecord | null> {
  const rows = await db.query<QueueRecord>('SELECT * FROM queues WHERE id = $1', [id]);
  return rows[0] ?? null;
}

/** Whether a person may work on a queue: the owner always, a labeller when it is "any" or assigned to them. */
export const mayLabel = (queue: Pick<QueueRecord, 'assignment'>, person: Person): boolean =>
  person.role === 'owner' || queue.assignment.kind === 'any' || queue.assignment.people.includes(person.id);

/** How many people "everyone" is on this queue. */
async function everyoneCount(db: Sql, queue: QueueRecord): Promise<number> {
  if (queue.assignment.kind === 'assigned') return queue.assignment.people.length;
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM people WHERE role = 'labeller'`,
  );
  return Math.max(1, row?.n ?? 0);
}

/** The queue's progress: row-labellings done of those wanted, and the time left at the recent median pace. */
export async function queueProgress(db: Sql, queue: QueueRecord): Promise<Progress> {
  const [fresh] = await db.query<{ done_slots: number }>('SELECT done_slots FROM queues WHERE id = $1', [
    queue.id,
  ]);
  const total = queue.fixed_slots + queue.everyone_rows * (await everyoneCount(db, queue));
  const done = Math.min(total, fresh?.done_slots ?? 0);
  // The median of the last 500 rows labelled, over the people among them who labelled in the last ten minutes: 500
  // rows read by index whatever the queue's size (counting everyone of the last ten minutes read thousands a call).
  const [pace] = await db.query<{ median: number | null; active: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS median,
       (count(DISTINCT person_id) FILTER (WHERE outcome_at > now() - interval '10 minutes'))::int AS active
     FROM (SELECT seconds, person_id, outcome_at FROM row_people WHERE queue_id = $1 AND outcome = 'labelled'
           ORDER BY outcome_at DESC LIMIT 500) recent`,
    [queue.id],
  );
  const secondsLeft =
    pace?.median === null || pace?.median === undefined
      ? null
      : ((total - done) * pace.median) / Math.max(1, pace.active);
  return { done, total, secondsLeft, text: progressText(done, total, secondsLeft) };
}

export const summaryOf = (queue: QueueRecord, progress: Progress): QueueSummary => ({
  id: queue.id,
  name: queue.name,
  questions: queue.questions,
  rows: queue.row_count,
  overlap: queue.overlap,
  assignment: queue.assignment,
  reservationSeconds: queue.reservation_seconds,
  createdAt: queue.created_at.toISOString(),
  progress,
});

export async function listQueues(db: Sql, person: Person): Promise<QueueSummary[]> {
  const queues = await db.query<QueueRecord>('SELECT * FROM queues ORDER BY created_at, id');
  const visible = queues.filter((q) => mayLabel(q, person));
  return Promise.all(visible.map(async (q) => summaryOf(q, await queueProgress(db, q))));
}

interface HandedRow {
  idx: number;
  key: string;
  state: NonNullable<NextResponse['row']>['state'];
  reserved_until: Date;
}

/** The row a person ($2) holds in a queue ($1), if any: by the reserved rows' index, not a scan of the queue. */
export const HELD_ROW_SQL = `SELECT idx, key, state, reserved_until FROM queue_rows
  WHERE queue_id = $1 AND reserved_by = $2 AND reserved_until > now() ORDER BY position LIMIT 1`;

/**
 * The first open row in order that nobody holds and the person ($2) has not labelled or skipped. Their outcome is a
 * scalar subquery, one index probe per row walked: as an anti-join the planner paired every row walked with every row
 * of theirs (22 ms at 150 labels), or sorted the whole queue.
 */
export const FREE_ROW_SQL = `SELECT r.idx FROM queue_rows r
  WHERE r.queue_id = $1 AND r.open AND (r.reserved_by IS NULL OR r.reserved_until <= now())
    AND (SELECT d.outcome FROM row_people d WHERE d.queue_id = r.queue_id AND d.idx = r.idx AND d.person_id = $2) IS NULL
  ORDER BY r.position LIMIT 1 FOR UPDATE SKIP LOCKED`;

/** Reserves the next row for a person (or gives back the one they hold), in one transaction. */
export async function nextRow(
  db: Db,
  queue: QueueRecord,
  person: Person,
): Promise<{ row: HandedRow | null; reason: NextResponse['reason'] }> {
  return db.transaction(async (tx) => {
    const held = await tx.query<HandedRow>(HELD_ROW_SQL, [queue.id, person.id]);
    if (held[0]) return { row: held[0], reason: 'row' as const };
    const [free] = await tx.query<{ idx: number }>(FREE_ROW_SQL, [queue.id, person.id]);
    if (!free) {
      const [waiting] = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM queue_rows r WHERE r.queue_id = $1 AND r.open
           AND NOT EXISTS (SELECT 1 FROM row_people d WHERE d.queue_id = r.queue_id AND d.idx = r.idx
                           AND d.person_id = $2 AND d.outcome IS NOT NULL)`,
        [queue.id, person.id],
      );
      return { row: null, reason: (waiting?.n ?? 0) > 0 ? ('reserved' as const) : ('done' as const) };
    }
    const [row] = await tx.query<HandedRow>(
      `UPDATE queue_rows SET reserved_by = $3, reserved_until = now() + make_interval(secs => $4)
       WHERE queue_id = $1 AND idx = $2 RETURNING idx, key, state, reserved_until`,
      [queue.id, free.idx, person.id, queue.reservation_seconds],
    );
    await tx.query(
      `INSERT INTO row_people (queue_id, idx, person_id, handed_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (queue_id, idx, person_id) DO UPDATE SET handed_at = now() WHERE row_people.outcome IS NULL`,
      [queue.id, free.idx, person.id],
    );
    return { row: row!, reason: 'row' as const };
  });
}

/** A person hands a row back: not offered to them again, free for the others at once. */
export async function skipRow(db: Db, queue: QueueRecord, person: Person, idx: number): Promise<void> {
  await db.transaction(async (tx) => {
    const skipped = await tx.query(
      `UPDATE row_people SET outcome = 'skipped', outcome_at = now()
       WHERE queue_id = $1 AND idx = $2 AND person_id = $3 AND outcome IS NULL RETURNING idx`,
      [queue.id, idx, person.id],
    );
    if (!skipped.length)
      throw new WorkspaceFault(409, 'not_yours', `Row ${idx} is not a row you hold in this queue.`);
    await tx.query(
      `UPDATE queue_rows SET reserved_by = NULL, reserved_until = NULL
       WHERE queue_id = $1 AND idx = $2 AND reserved_by = $3`,
      [queue.id, idx, person.id],
    );
  });
}
