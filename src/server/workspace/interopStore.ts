// Export and import of a queue's labels against the database: who gave an imported label is kept, as a person of the
// workspace by that name (a new one, who cannot sign in, when nobody has it).
import type { ImportResponse, InteropFormat, WorkspaceLabelValue } from '../../contract/workspace';
import type { JsonValue } from '../../contract';
import type { Db, Sql } from './db';
import { exportLabels, importLabels } from './interop';
import type { ExportRow } from './interop';
import type { QueueRecord } from './queues';
import { hashToken, newId } from './tokens';

export async function exportQueue(
  db: Sql,
  queue: QueueRecord,
  format: InteropFormat,
): Promise<{ body: string; type: string; extension: string }> {
  const rows = await db.query<ExportRow>(
    'SELECT idx, key, state, judge FROM queue_rows WHERE queue_id = $1 ORDER BY idx',
    [queue.id],
  );
  const labels = await db.query<{ idx: number; question: string; name: string; value: WorkspaceLabelValue }>(
    `SELECT l.idx, l.question, p.name, l.value FROM labels l JOIN people p ON p.id = l.person_id
     WHERE l.queue_id = $1 ORDER BY l.idx, p.joined_at, p.id`,
    [queue.id],
  );
  return exportLabels(format, rows, labels, queue.questions);
}

export async function importQueue(
  db: Db,
  queue: QueueRecord,
  format: InteropFormat,
  text: string,
): Promise<ImportResponse> {
  const read = importLabels(format, text, queue.questions);
  const problems = [...read.problems];
  return db.transaction(async (tx) => {
    const keys = new Map(
      (
        await tx.query<{ idx: number; key: string }>('SELECT idx, key FROM queue_rows WHERE queue_id = $1', [
          queue.id,
        ])
      ).map((r) => [r.key, r.idx]),
    );
    const people = new Map(
      (await tx.query<{ id: string; name: string }>('SELECT id, name FROM people ORDER BY joined_at')).map(
        (p) => [p.name, p.id],
      ),
    );
    const who = new Set<string>();
    let imported = 0;
    for (const label of read.labels) {
      const idx = keys.get(label.key);
      if (idx === undefined) {
        if (problems.length < 50) problems.push(`No row of this queue has the key "${label.key}".`);
        continue;
      }
      let person = people.get(label.annotator);
      if (!person) {
        person = newId('p');
        await tx.query(`INSERT INTO people (id, name, role) VALUES ($1, $2, 'labeller')`, [
          person,
          label.annotator,
        ]);
        people.set(label.annotator, person);
      }
      who.add(label.annotator);
      // The same file imported twice stores each label once: the client id is the label's own content.
      const clientId = `import:${hashToken(`${label.key}\u0000${label.question}\u0000${label.annotator}\u0000${JSON.stringify(label.value)}`).slice(0, 24)}`;
      const written = await tx.query<{ inserted: boolean }>(
        `INSERT INTO labels (queue_id, idx, question, person_id, value, client_id, at, source)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, now(), 'import')
         ON CONFLICT (queue_id, idx, question, person_id) DO UPDATE
           SET value = EXCLUDED.value, client_id = EXCLUDED.client_id, edited_at = now()
           WHERE labels.client_id <> EXCLUDED.client_id
         RETURNING (xmax = 0) AS inserted`,
        [queue.id, idx, label.question, person, JSON.stringify(label.value satisfies JsonValue), clientId],
      );
      if (written[0]) imported++;
      if (written[0]?.inserted)
        await tx.query('UPDATE queues SET label_count = label_count + 1 WHERE id = $1', [queue.id]);
    }
    return { imported, people: [...who], problems };
  });
}
