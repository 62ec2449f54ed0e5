// People and their tokens: the owner made at the first start (with a one-time owner link), labellers by single-use,
// expiring invites. Every token is stored as its sha-256 only.
import type { Person } from '../../contract/workspace';
import type { Db, Sql } from './db';
import { hashToken, newId, newToken } from './tokens';

interface PersonRow {
  id: string;
  name: string;
  role: Person['role'];
}

const personOf = (r: PersonRow): Person => ({ id: r.id, name: r.name, role: r.role });

/** A fresh session token for a person (a browser's cookie, or a command line's bearer). */
export async function newSessionFor(tx: Sql, personId: string): Promise<string> {
  const token = newToken();
  await tx.query(`INSERT INTO tokens (hash, person_id, kind) VALUES ($1, $2, 'session')`, [
    hashToken(token),
    personId,
  ]);
  return token;
}

export async function isStarted(db: Sql): Promise<boolean> {
  const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM people WHERE role = 'owner'`);
  return (rows[0]?.n ?? 0) > 0;
}

/** The person a session token belongs to, or null. */
export async function personByToken(db: Sql, token: string): Promise<Person | null> {
  const rows = await db.query<PersonRow>(
    `SELECT p.id, p.name, p.role FROM tokens t JOIN people p ON p.id = t.person_id
     WHERE t.hash = $1 AND t.kind = 'session'`,
    [hashToken(token)],
  );
  return rows[0] ? personOf(rows[0]) : null;
}

/** Starts the workspace: the owner, their session and the one-time owner link's token; null when already started. */
export async function startWorkspace(
  db: Db,
  name: string,
): Promise<{ me: Person; session: string; linkToken: string } | null> {
  return db.transaction(async (tx) => {
    if (await isStarted(tx)) return null;
    const me: Person = { id: newId('p'), name, role: 'owner' };
    await tx.query(`INSERT INTO people (id, name, role) VALUES ($1, $2, 'owner')`, [me.id, me.name]);
    const linkToken = newToken();
    await tx.query(`INSERT INTO tokens (hash, person_id, kind) VALUES ($1, $2, 'owner_link')`, [
      hashToken(linkToken),
      me.id,
    ]);
    return { me, session: await newSessionFor(tx, me.id), linkToken };
  });
}

/** An owner link opened in another browser: a new owner session, once; null for an unknown or used link. */
export async function claimOwnerLink(db: Db, token: string): Promise<{ me: Person; session: string } | null> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<PersonRow>(
      `UPDATE tokens t SET used_at = now() FROM people p
       WHERE t.hash = $1 AND t.kind = 'owner_link' AND t.used_at IS NULL AND p.id = t.person_id
       RETURNING p.id, p.name, p.role`,
      [hashToken(token)],
    );
    if (!rows[0]) return null;
    return { me: personOf(rows[0]), session: await newSessionFor(tx, rows[0].id) };
  });
}

export async function createInvite(
  db: Sql,
  note: string,
  expiresInSeconds: number,
): Promise<{ id: string; token: string; expiresAt: string }> {
  const id = newId('i');
  const token = newToken();
  const rows = await db.query<{ expires_at: Date }>(
    `INSERT INTO invites (id, hash, note, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     RETURNING expires_at`,
    [id, hashToken(token), note, expiresInSeconds],
  );
  return { id, token, expiresAt: rows[0]!.expires_at.toISOString() };
}

export type JoinOutcome =
  { ok: true; me: Person; session: string } | { ok: false; why: 'unknown' | 'used' | 'expired' };

/** A labeller joins with an invite: used once, before it expires. */
export async function joinWithInvite(db: Db, token: string, name: string): Promise<JoinOutcome> {
  return db.transaction(async (tx) => {
    const [invite] = await tx.query<{ id: string; used_at: Date | null; expired: boolean }>(
      `SELECT id, used_at, expires_at <= now() AS expired FROM invites WHERE hash = $1 FOR UPDATE`,
      [hashToken(token)],
    );
    if (!invite) return { ok: false, why: 'unknown' };
    if (invite.used_at) return { ok: false, why: 'used' };
    if (invite.expired) return { ok: false, why: 'expired' };
    const me: Person = { id: newId('p'), name, role: 'labeller' };
    await tx.query(`INSERT INTO people (id, name, role) VALUES ($1, $2, 'labeller')`, [me.id, me.name]);
    await tx.query(`UPDATE invites SET used_at = now(), used_by = $2 WHERE id = $1`, [invite.id, me.id]);
    return { ok: true, me, session: await newSessionFor(tx, me.id) };
  });
}

export async function listPeople(db: Sql): Promise<(Person & { joinedAt: string })[]> {
  const rows = await db.query<PersonRow & { joined_at: Date }>(
    `SELECT id, name, role, joined_at FROM people ORDER BY joined_at, id`,
  );
  return rows.map((r) => ({ ...personOf(r), joinedAt: r.joined_at.toISOString() }));
}
