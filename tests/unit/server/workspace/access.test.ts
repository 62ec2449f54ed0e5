// People and access, and the hostile list of issue 40: a labeller's token tried against everything gets its refusal,
// and no answer or log line carries a token or a judge's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueOf } from './fixtures';
import { startWorkspace, withTeam } from './helpers';
import type { TestWorkspace } from './helpers';

let ws: TestWorkspace;
let team: Awaited<ReturnType<typeof withTeam>>;
let queueId: string;
let otherQueue: string;
const tokens: string[] = [];

const cookieToken = (cookie: string) => cookie.split('=')[1]!;
const errorOf = (body: unknown) => (body as { error: { type: string; message: string } }).error;

beforeAll(async () => {
  ws = await startWorkspace();
  team = await withTeam(ws, ['Ada', 'Bo']);
  tokens.push(cookieToken(team.owner), ...team.people.map((p) => cookieToken(p.cookie)));
  tokens.push(new URL(team.ownerLink).hash.split('=')[1]!);
  const q = await ws.call('POST', '/api/workspace/queues', { body: queueOf(6), cookie: team.owner });
  queueId = (q.body as { queue: { id: string } }).queue.id;
  const assigned = await ws.call('POST', '/api/workspace/queues', {
    body: queueOf(3, { name: 'Only Bo', assignment: { kind: 'assigned', people: [team.people[1]!.id] } }),
    cookie: team.owner,
  });
  otherQueue = (assigned.body as { queue: { id: string } }).queue.id;
}, 120_000);
afterAll(async () => {
  // Nothing any test did wrote a token into the log.
  const log = ws.logs.map((l) => l.line).join('\n');
  for (const t of tokens.slice(0, -1)) expect(log).not.toContain(t);
  await ws.close();
});

describe('starting and joining', () => {
  it('says who this browser is: the owner after start, nobody without a cookie', async () => {
    const mine = await ws.call('GET', '/api/workspace/status', { cookie: team.owner });
    expect(mine.body).toEqual({
      started: true,
      me: expect.objectContaining({ name: 'Olive', role: 'owner' }),
    });
    const nobody = await ws.call('GET', '/api/workspace/status');
    expect(nobody.body).toEqual({ started: true, me: null });
  });

  it('sets an HttpOnly, SameSite=Strict cookie and keeps only the hash of the token', async () => {
    const invite = await ws.call('POST', '/api/workspace/invites', { body: {}, cookie: team.owner });
    const token = new URL((invite.body as { link: string }).link).hash.split('=')[1]!;
    const joined = await ws.call('POST', '/api/workspace/join', { body: { invite: token, name: 'Cy' } });
    const setCookie = joined.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(joined.text).not.toContain(cookieToken(joined.cookie!));
    const stored = await ws.db.query<{ hash: string }>('SELECT hash FROM tokens');
    const all = JSON.stringify(stored) + JSON.stringify(await ws.db.query('SELECT hash FROM invites'));
    expect(all).not.toContain(cookieToken(joined.cookie!));
    expect(all).not.toContain(token);
    expect(stored.every((s) => /^[0-9a-f]{64}$/.test(s.hash))).toBe(true);
  });

  it('refuses a second start', async () => {
    const again = await ws.call('POST', '/api/workspace/start', { body: {} });
    expect(again.status).toBe(409);
  });

  it('turns the owner link into an owner cookie in another browser, once', async () => {
    const token = new URL(team.ownerLink).hash.split('=')[1]!;
    const claimed = await ws.call('POST', '/api/workspace/claim', { body: { token } });
    expect(claimed.status).toBe(200);
    expect((claimed.body as { me: { role: string } }).me.role).toBe('owner');
    const twice = await ws.call('POST', '/api/workspace/claim', { body: { token } });
    expect(twice.status).toBe(401);
  });
});

describe('a labeller tried against everything', () => {
  const ada = () => team.people[0]!;

  it('sees only their own queues, without any judge answer', async () => {
    const list = await ws.call('GET', '/api/workspace/queues', { cookie: ada().cookie });
    const ids = (list.body as { queues: { id: string }[] }).queues.map((q) => q.id);
    expect(ids).toEqual([queueId]);
    const next = await ws.call('POST', `/api/workspace/queues/${queueId}/next`, { cookie: ada().cookie });
    expect(next.status).toBe(200);
    expect(next.text).not.toMatch(/judge|confidence/);
  });

  it('is refused another queue as if it did not exist', async () => {
    const other = await ws.call('POST', `/api/workspace/queues/${otherQueue}/next`, { cookie: ada().cookie });
    expect(other.status).toBe(404);
    expect(errorOf(other.body).type).toBe('no_queue');
  });

  it("never gets another person's labels", async () => {
    const bo = team.people[1]!;
    const next = await ws.call('POST', `/api/workspace/queues/${queueId}/next`, { cookie: bo.cookie });
    const row = (next.body as { row: { index: number } }).row.index;
    await ws.call('PUT', `/api/workspace/queues/${queueId}/labels`, {
      cookie: bo.cookie,
      body: { labels: [{ row, question: 'tone', value: 'angry', clientId: 'bo-1' }] },
    });
    const mine = await ws.call('GET', `/api/workspace/queues/${queueId}/labels`, { cookie: ada().cookie });
    expect((mine.body as { labels: unknown[] }).labels).toEqual([]);
    const owners = await ws.call('GET', `/api/workspace/queues/${queueId}/labels`, { cookie: team.owner });
    expect((owners.body as { labels: { name: string }[] }).labels.map((l) => l.name)).toEqual(['Bo']);
  });

  it('cannot label a row it was never handed', async () => {
    const handed = await ws.db.query<{ idx: number }>(
      'SELECT idx FROM row_people WHERE queue_id = $1 AND person_id = $2',
      [queueId, ada().id],
    );
    const row = [0, 1, 2, 3, 4, 5].find((i) => !handed.some((h) => h.idx === i))!;
    const put = await ws.call('PUT', `/api/workspace/queues/${queueId}/labels`, {
      cookie: ada().cookie,
      body: { labels: [{ row, question: 'tone', value: 'calm', clientId: 'x' }] },
    });
    expect(put.status).toBe(403);
    expect(errorOf(put.body).type).toBe('not_yours');
  });

  it.each([
    ['GET', 'people'],
    ['POST', 'invites'],
    ['POST', 'tokens'],
    ['POST', 'queues'],
    ['GET', 'queues/:q/figures'],
    ['GET', 'queues/:q/disagreements'],
    ['PUT', 'queues/:q/adjudications'],
    ['GET', 'queues/:q/export?format=csv'],
    ['POST', 'queues/:q/import?format=csv'],
    ['GET', 'queues/:q/events'],
  ])("is refused the owner's route %s %s", async (method, path) => {
    const reply = await ws.call(method, `/api/workspace/${path.replace(':q', queueId)}`, {
      cookie: ada().cookie,
      ...(method === 'GET' ? {} : { body: {} }),
    });
    expect(reply.status).toBe(403);
    expect(errorOf(reply.body)).toEqual({
      type: 'owner_only',
      message: "Only the workspace's owner may do this.",
    });
  });

  it('cannot reuse an invite, nor use an expired one', async () => {
    const invite = await ws.call('POST', '/api/workspace/invites', { body: {}, cookie: team.owner });
    const token = new URL((invite.body as { link: string }).link).hash.split('=')[1]!;
    await ws.call('POST', '/api/workspace/join', { body: { invite: token, name: 'Di' } });
    const reused = await ws.call('POST', '/api/workspace/join', { body: { invite: token, name: 'Eve' } });
    expect(reused.status).toBe(403);
    expect(errorOf(reused.body).type).toBe('invite_used');
    const fresh = await ws.call('POST', '/api/workspace/invites', {
      body: { expiresInSeconds: 60 },
      cookie: team.owner,
    });
    const late = new URL((fresh.body as { link: string }).link).hash.split('=')[1]!;
    await ws.db.query(`UPDATE invites SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      (fresh.body as { id: string }).id,
    ]);
    const expired = await ws.call('POST', '/api/workspace/join', { body: { invite: late, name: 'Eve' } });
    expect(expired.status).toBe(403);
    expect(errorOf(expired.body).type).toBe('invite_expired');
    expect(expired.text).not.toContain(late);
  });

  it('refuses a forged cookie without echoing it', async () => {
    const forged = 'workbench_workspace=' + 'A'.repeat(43);
    const reply = await ws.call('GET', '/api/workspace/queues', { cookie: forged });
    expect(reply.status).toBe(401);
    expect(reply.text).not.toContain('A'.repeat(43));
    expect(ws.logs.some((l) => l.line.includes('refused GET /api/workspace/queues'))).toBe(true);
    expect(ws.logs.map((l) => l.line).join('\n')).not.toContain('A'.repeat(43));
  });

  it('refuses a cross-origin POST, and a POST without the workbench header', async () => {
    const cross = await ws.call('POST', `/api/workspace/queues/${queueId}/next`, {
      cookie: ada().cookie,
      headers: { origin: 'http://evil.example' },
    });
    expect(cross.status).toBe(403);
    const bare = await fetch(`${ws.url}/api/workspace/queues/${queueId}/next`, {
      method: 'POST',
      headers: { cookie: ada().cookie },
    });
    expect(bare.status).toBe(403);
  });
});

describe('wrong tokens from one address', () => {
  it(
    'are slowed down, then refused, and each refusal is logged without the token',
    { timeout: 60_000 },
    async () => {
      const guarded = await startWorkspace({ backoff: { free: 2, refuseAfter: 4 } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const guess = `workbench_workspace=${String(i).repeat(43)}`;
          statuses.push((await guarded.call('GET', '/api/workspace/status', { cookie: guess })).status);
        }
        expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
        const refusals = guarded.logs.filter((l) => l.line.includes('[workspace] refused'));
        expect(refusals).toHaveLength(6);
        for (let i = 0; i < 6; i++)
          expect(refusals.map((r) => r.line).join('')).not.toContain(String(i).repeat(43));
      } finally {
        await guarded.close();
      }
    },
  );
});
