// The workspace's schema as numbered, forward-only migrations: applied at start in one transaction, each once; a
// database a newer workbench migrated is refused with a sentence (this code cannot know what its tables mean).
import type { Db } from './db';

export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE people (
        id text PRIMARY KEY,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'labeller')),
        joined_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX one_owner ON people (role) WHERE role = 'owner';
      -- Tokens only as sha-256 hashes: a session (cookie or bearer) or the one-time owner link.
      CREATE TABLE tokens (
        hash text PRIMARY KEY,
        person_id text NOT NULL REFERENCES people (id),
        kind text NOT NULL CHECK (kind IN ('session', 'owner_link')),
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz
      );
      CREATE TABLE invites (
        id text PRIMARY KEY,
        hash text NOT NULL UNIQUE,
        note text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_by text REFERENCES people (id),
        used_at timestamptz
      );
      CREATE TABLE queues (
        id text PRIMARY KEY,
        name text NOT NULL,
        questions jsonb NOT NULL,
        question_count int NOT NULL,
        overlap jsonb NOT NULL,
        assignment jsonb NOT NULL,
        reservation_seconds int NOT NULL,
        row_order jsonb NOT NULL,
        row_count int NOT NULL,
        -- Row-labellings wanted (rows of a fixed count), rows everyone labels, and row-labellings done: progress in O(1).
        fixed_slots int NOT NULL,
        everyone_rows int NOT NULL,
        done_slots int NOT NULL DEFAULT 0,
        label_count int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- wanted: people per row (null: everyone); open: still wanted by someone, so the next-row scan skips the rest.
      CREATE TABLE queue_rows (
        queue_id text NOT NULL REFERENCES queues (id),
        idx int NOT NULL,
        key text NOT NULL,
        state jsonb NOT NULL,
        judge jsonb,
        position int NOT NULL,
        wanted int,
        done_count int NOT NULL DEFAULT 0,
        open boolean NOT NULL DEFAULT true,
        reserved_by text REFERENCES people (id),
        reserved_until timestamptz,
        PRIMARY KEY (queue_id, idx)
      );
      CREATE INDEX queue_rows_open ON queue_rows (queue_id, position) WHERE open;
      -- A row handed to a person, and how it ended for them (labelled or skipped).
      CREATE TABLE row_people (
        queue_id text NOT NULL,
        idx int NOT NULL,
        person_id text NOT NULL REFERENCES people (id),
        handed_at timestamptz NOT NULL,
        outcome text CHECK (outcome IN ('labelled', 'skipped')),
        outcome_at timestamptz,
        seconds double precision,
        PRIMARY KEY (queue_id, idx, person_id),
        FOREIGN KEY (queue_id, idx) REFERENCES queue_rows (queue_id, idx)
      );
      CREATE INDEX row_people_done ON row_people (queue_id, outcome_at) WHERE outcome = 'labelled';
      CREATE TABLE labels (
        queue_id text NOT NULL,
        idx int NOT NULL,
        question text NOT NULL,
        person_id text NOT NULL REFERENCES people (id),
        value jsonb NOT NULL,
        client_id text NOT NULL,
        at timestamptz NOT NULL,
        edited_at timestamptz,
        seconds double precision,
        source text NOT NULL CHECK (source IN ('workspace', 'import')),
        PRIMARY KEY (queue_id, idx, question, person_id),
        FOREIGN KEY (queue_id, idx) REFERENCES queue_rows (queue_id, idx)
      );
      CREATE TABLE adjudications (
        queue_id text NOT NULL,
        idx int NOT NULL,
        question text NOT NULL,
        value jsonb NOT NULL,
        note text NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (queue_id, idx, question),
        FOREIGN KEY (queue_id, idx) REFERENCES queue_rows (queue_id, idx)
      );
    `,
  },
  {
    // A rubric's order is part of it: a choice's options are keyed 1, 2, 3 in the order written, and named fields
    // read in theirs. jsonb sorts object keys (by length, then bytes); json keeps the text as it came.
    version: 2,
    sql: `
      ALTER TABLE queues ALTER COLUMN questions TYPE json USING questions::json;
      ALTER TABLE queue_rows ALTER COLUMN state TYPE json USING state::json;
    `,
  },
  {
    // A queue in active order keeps each row's design: its probability at the full budget and its key in the order
    // (server/workspace/activeOrder.ts), from which each label's probability of having been asked is read back.
    version: 3,
    sql: `
      ALTER TABLE queue_rows ADD COLUMN design_probability double precision;
      ALTER TABLE queue_rows ADD COLUMN design_key double precision;
    `,
  },
  {
    // The row a person holds is looked up on every "next": without an index it was a scan of the whole queue (100,000
    // rows: 15-35 ms a call, and PGlite's one connection queued every other request behind it).
    version: 4,
    sql: `
      CREATE INDEX queue_rows_reserved ON queue_rows (queue_id, reserved_by, position) WHERE reserved_by IS NOT NULL;
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)!.version;

/** Thrown when the database was migrated by a newer workbench. */
export class NewerDatabaseError extends Error {
  override readonly name = 'NewerDatabaseError';
}

// Any number, the same for every workbench: two servers starting on one PostgreSQL migrate one after the other.
const MIGRATION_LOCK = 40_400_040;

/** Applies the migrations the database lacks, all in one transaction; returns the versions applied. */
export async function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const latest = migrations.at(-1)?.version ?? 0;
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS workspace_schema (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const [row] = await tx.query<{ v: number | null }>('SELECT max(version) AS v FROM workspace_schema');
    const current = row?.v ?? 0;
    if (current > latest)
      throw new NewerDatabaseError(
        `The workspace database is at version ${current}, newer than this workbench knows (${latest}): update the workbench, or point it at another database.`,
      );
    const applied: number[] = [];
    for (const m of migrations) {
      if (m.version <= current) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO workspace_schema (version) VALUES ($1)', [m.version]);
      applied.push(m.version);
    }
    return applied;
  });
}
