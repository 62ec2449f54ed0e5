// Labels: keyed by row, question and person, so a retry (same client id) never doubles and a second answer is an edit
// with its time. A row is labelled by a person once every question of the queue has their label.
import type {
  DisagreementsResponse,
  LabelInput,
  Person,
  PutLabelsResponse,
  StoredLabel,
  WorkspaceLabelValue,
} from '../../contract/workspace';
import { validLabel } from '../../core/labels';
import type { Db, Sql } from './db';
import { WorkspaceFault } from './fault';
import type { QueueRecord } from './queues';

type Saved = PutLabelsResponse['saved'][number];

function checkInputs(queue: QueueRecord, inputs: readonly LabelInput[]): void {
  const problems: string[] = [];
  for (const l of inputs) {
    const question = queue.questions[l.question];
    if (l.row >= queue.row_count)
      problems.push(`Row ${l.row} is not in this queue (it has ${queue.row_count}).`);
    else if (!question) problems.push(`"${l.question}" is not a question of this queue.`);
    else if (!validLabel(l.value, question))
      problems.push(`${JSON.stringify(l.value)} is not a label of "${l.question}".`);
  }
  if (problems.length) throw new WorkspaceFault(400, 'invalid_label', problems.slice(0, 10).join(' '));
}

/** Marks the rows this person has now labelled on every question; returns how many rows that was. */
async function completeRows(tx: Sql, queue: QueueRecord, person: Person, rows: number[]): Promise<number> {
  let completed = 0;
  for (const idx of rows) {
    const [mine] = await tx.query<{ n: number; seconds: number | null }>(
      `SELECT count(*)::int AS n, sum(seconds) AS seconds FROM labels
       WHERE queue_id = $1 AND idx = $2 AND person_id = $3`,
      [queue.id, idx, person.id],
    );
    if ((mine?.n ?? 0) < queue.question_count) continue;
    const done = await tx.query(
      `UPDATE row_people SET outcome = 'labelled', outcome_at = now(),
         seconds = coalesce($4, extract(epoch FROM now() - handed_at))
       WHERE queue_id = $1 AND idx = $2 AND person_id = $3 AND outcome IS DISTINCT FROM 'labelled' RETURNING idx`,
      [queue.id, idx, person.id, mine?.seconds ?? null],
    );
    if (!done.length) continue;
    completed++;
    await tx.query(
      `UPDATE queue_rows SET done_count = done_count + 1,
         open = (wanted IS NULL OR done_count + 1 < wanted),
         reserved_by = CASE WHEN reserved_by = $3 THEN NULL ELSE reserved_by END,
         reserved_until = CASE WHEN reserved_by = $3 THEN NULL ELSE reserved_until END
       WHERE queue_id = $1 AND idx = $2`,
      [queue.id, idx, person.id],
    );
  }
  return completed;
}

/** Stores labels in one transaction; a row not handed to this person is refused (the owner may label any row). */
export async function putLabels(
  db: Db,
  queue: QueueRecord,
  person: Person,
  inputs: readonly LabelInput[],
): Promise<Saved[]> {
  checkInputs(queue, inputs);
  // Rows in index order, so two transactions lock rows in the same order and never deadlock.
  const sorted = [...inputs].sort((a, b) => a.row - b.row || a.question.localeCompare(b.question));
  const rows = [...new Set(sorted.map((l) => l.row))];
  return db.transaction(async (tx) => {
    const handed = await tx.query<{ idx: number }>(
      `SELECT idx FROM row_people WHERE queue_id = $1 AND person_id = $2 AND idx = ANY($3::int[])`,
      [queue.id, person.id, `{${rows.join(',')}}`],
    );
    const mayWrite = new Set(handed.map((h) => h.idx));
    if (person.role === 'owner')
      for (const idx of rows)
        if (!mayWrite.has(idx)) {
          await tx.query(
            `INSERT INTO row_people (queue_id, idx, person_id, handed_at) VALUES ($1, $2, $3, now())
             ON CONFLICT DO NOTHING`,
            [queue.id, idx, person.id],
          );
          mayWrite.add(idx);
        }
    const refused = rows.filter((idx) => !mayWrite.has(idx));
    if (refused.length)
      throw new WorkspaceFault(
        403,
        'not_yours',
        `Row${refused.length === 1 ? '' : 's'} ${refused.slice(0, 5).join(', ')} ${refused.length === 1 ? 'was' : 'were'} never handed to you in this queue.`,
      );
    const saved: Saved[] = [];
    for (const l of sorted) {
      const at = l.at ?? new Date().toISOString();
      const written = await tx.query<{ inserted: boolean }>(
        `INSERT INTO labels (queue_id, idx, question, person_id, value, client_id, at, seconds, source)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, 'workspace')
         ON CONFLICT (queue_id, idx, question, person_id) DO UPDATE
           SET value = EXCLUDED.value, client_id = EXCLUDED.client_id, edited_at = EXCLUDED.at,
               seconds = coalesce(labels.seconds, 0) + coalesce(EXCLUDED.seconds, 0)
           WHERE labels.client_id <> EXCLUDED.client_id
         RETURNING (xmax = 0) AS inserted`,
        [queue.id, l.row, l.question, person.id, JSON.stringify(l.value), l.clientId, at, l.seconds ?? null],
      );
      const outcome = !written[0] ? 'same' : written[0].inserted ? 'new' : 'edit';
      saved.push({ row: l.row, question: l.question, clientId: l.clientId, outcome });
    }
    const completed = await completeRows(tx, queue, person, rows);
    const added = saved.filter((s) => s.outcome === 'new').length;
    if (completed || added)
      await tx.query(
        'UPDATE queues SET done_slots = done_slots + $2, label_count = label_count + $3 WHERE id = $1',
        [queue.id, completed, added],
      );
    return saved;
  });
}

interface LabelRow {
  idx: number;
  key: string;
  question: string;
  person_id: string;
  name: string;
  value: WorkspaceLabelValue;
  client_id: string;
  at: Date;
  edited_at: Date | null;
  seconds: number | null;
  source: StoredLabel['source'];
}

/** The labels of a queue: everyone's for the owner, only a labeller's own for them. */
export async function listLabels(db: Sql, queue: QueueRecord, person: Person): Promise<StoredLabel[]> {
  const own = person.role !== 'owner';
  const rows = await db.query<LabelRow>(
    `SELECT l.idx, r.key, l.question, l.person_id, p.name, l.value, l.client_id, l.at, l.edited_at, l.seconds,
       l.source
     FROM labels l JOIN people p ON p.id = l.person_id JOIN queue_rows r ON r.queue_id = l.queue_id AND r.idx = l.idx
     WHERE l.queue_id = $1 ${own ? 'AND l.person_id = $2' : ''}
     ORDER BY l.idx, l.question, p.joined_at, l.person_id`,
    own ? [queue.id, person.id] : [queue.id],
  );
  return rows.map((r) => ({
    row: r.idx,
    key: r.key,
    question: r.question,
    person: r.person_id,
    name: r.name,
    value: r.value,
    clientId: r.client_id,
    at: r.at.toISOString(),
    editedAt: r.edited_at?.toISOString() ?? null,
    seconds: r.seconds,
    source: r.source,
  }));
}

/** A person's own labels of one row, by question (what they gave before a reservation lapsed). */
export async function myRowLabels(
  db: Sql,
  queueId: string,
  person: Person,
  idx: number,
): Promise<Record<string, WorkspaceLabelValue>> {
  const rows = await db.query<{ question: string; value: WorkspaceLabelValue }>(
    'SELECT question, value FROM labels WHERE queue_id = $1 AND idx = $2 AND person_id = $3',
    [queueId, idx, person.id],
  );
  return Object.fromEntries(rows.map((r) => [r.question, r.value]));
}

/** Every row and question where people gave different labels, with each label and the settled one. */
export async function disagreements(
  db: Sql,
  queue: QueueRecord,
): Promise<DisagreementsResponse['disagreements']> {
  const rows = await db.query<{
    idx: number;
    key: string;
    question: string;
    labels: { person: string; name: string; value: WorkspaceLabelValue }[];
    settled: { value: WorkspaceLabelValue; note: string; at: string } | null;
  }>(
    `SELECT d.idx, r.key, d.question,
       (SELECT jsonb_agg(jsonb_build_object('person', l.person_id, 'name', p.name, 'value', l.value)
                         ORDER BY p.joined_at, l.person_id)
        FROM labels l JOIN people p ON p.id = l.person_id
        WHERE l.queue_id = d.queue_id AND l.idx = d.idx AND l.question = d.question) AS labels,
       (SELECT jsonb_build_object('value', a.value, 'note', a.note, 'at', a.at)
        FROM adjudications a WHERE a.queue_id = d.queue_id AND a.idx = d.idx AND a.question = d.question) AS settled
     FROM (SELECT queue_id, idx, question FROM labels WHERE queue_id = $1
           GROUP BY queue_id, idx, question HAVING count(DISTINCT value) > 1) d
     JOIN queue_rows r ON r.queue_id = d.queue_id AND r.idx = d.idx
     ORDER BY d.idx, d.question`,
    [queue.id],
  );
  return rows.map((r) => ({
    row: r.idx,
    key: r.key,
    question: r.question,
    labels: r.labels,
    settled: r.settled && { ...r.settled, at: new Date(r.settled.at).toISOString() },
  }));
}

/** Sets (or clears, with null) the settled label of a row's question. */
export async function adjudicate(
  db: Sql,
  queue: QueueRecord,
  input: { row: number; question: string; value: WorkspaceLabelValue | null; note: string },
): Promise<{ value: WorkspaceLabelValue; note: string; at: string } | null> {
  const question = queue.questions[input.question];
  if (input.row >= queue.row_count)
    throw new WorkspaceFault(400, 'invalid_label', `Row ${input.row} is not in this queue.`);
  if (!question)
    throw new WorkspaceFault(400, 'invalid_label', `"${input.question}" is not a question of this queue.`);
  if (input.value === null) {
    await db.query('DELETE FROM adjudications WHERE queue_id = $1 AND idx = $2 AND question = $3', [
      queue.id,
      input.row,
      input.question,
    ]);
    return null;
  }
  if (!validLabel(input.value, question))
    throw new WorkspaceFault(
      400,
      'invalid_label',
      `${JSON.stringify(input.value)} is not a label of "${input.question}".`,
    );
  const [row] = await db.query<{ at: Date }>(
    `INSERT INTO adjudications (queue_id, idx, question, value, note) VALUES ($1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (queue_id, idx, question) DO UPDATE SET value = EXCLUDED.value, note = EXCLUDED.note, at = now()
     RETURNING at`,
    [queue.id, input.row, input.question, JSON.stringify(input.value), input.note],
  );
  return { value: input.value, note: input.note, at: row!.at.toISOString() };
}

/** How many labels the queue holds (for events and figures). */
export async function labelCount(db: Sql, queueId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT label_count AS n FROM queues WHERE id = $1', [queueId]);
  return row?.n ?? 0;
}
