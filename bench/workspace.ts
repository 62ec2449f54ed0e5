// `npm run bench workspace`: 50 simulated labellers, each labelling every 2 s, on a queue of 100,000 rows with 3 people
// per row, on PGlite and on PostgreSQL: next-row and save-label p50/p99, the server's CPU per label, no row held by
// two at once, every acknowledged label stored once; two labellers offline for five minutes whose labels (sent twice,
// as an outbox resends a lost reply) each arrive once; the figures' recompute time at 300,000 labels; a SIGKILL during
// a burst of writes, after which every acknowledged label is there once and reservations lapse; and the next row of a
// queue of 100,000 in active order, one labeller at a time: over HTTP, and in process the choice (the query that finds
// it, target 5 ms) and the hand-out (the choice, the reservation and its durable commit). Loopback only.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateQueueRequest, NextResponse, PutLabelsResponse } from '../src/contract/workspace';
import { openDb } from '../src/server/workspace/db';
import type { Db } from '../src/server/workspace/db';
import { queueFigures } from '../src/server/workspace/figures';
import { putLabels } from '../src/server/workspace/labels';
import { personByToken } from '../src/server/workspace/people';
import { FREE_ROW_SQL, nextRow, queueById } from '../src/server/workspace/queues';
import { startPostgres } from '../tests/helpers/postgres';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';

const LABELLERS = Number(process.env.BENCH_WORKSPACE_LABELLERS ?? 50);
const ROWS = Number(process.env.BENCH_WORKSPACE_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_WORKSPACE_SECONDS ?? 330);
/** How long the offline labellers hold their label before the connection comes back (within the steady phase). */
const OFFLINE_SECONDS = Math.min(Number(process.env.BENCH_WORKSPACE_OFFLINE_SECONDS ?? 300), SECONDS - 10);
const OFFLINE_PEOPLE = 2;
const ACTIVE_NEXTS = 300;
/** The first rows of each active measurement warm the caches and the JIT; they are not counted. */
const WARM_UP = 20;
const EVERY_MS = 2000;
const FIGURE_LABELS = 300_000;

interface Child {
  url: string;
  proc: ChildProcess;
}

function startChild(env: Record<string, string>): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/servers/workspace.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /READY (\S+)/.exec(out);
      if (ready) resolve({ url: ready[1]!, proc });
    });
    proc.once('exit', (code) =>
      reject(new Error(`the workspace server exited (${code}) before it was ready`)),
    );
  });
}

/** The child's CPU seconds so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const quantile = (xs: number[], q: number): number => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function call(url: string, method: string, path: string, cookie: string | null, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'x-workbench-request': '1',
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return {
    json: JSON.parse(text) as unknown,
    cookie: response.headers.get('set-cookie')?.split(';')[0] ?? null,
  };
}

/** Starts the workspace, joins the labellers, publishes the queue; returns the cookies and the queue id. */
async function setUp(url: string, reservationSeconds: number) {
  const owner = (await call(url, 'POST', '/api/workspace/start', null, {})).cookie!;
  const people: string[] = [];
  for (let i = 0; i < LABELLERS; i++) {
    const invite = (await call(url, 'POST', '/api/workspace/invites', owner, {})).json as { link: string };
    const token = new URL(invite.link).hash.split('=')[1]!;
    people.push(
      (await call(url, 'POST', '/api/workspace/join', null, { invite: token, name: `L${i}` })).cookie!,
    );
  }
  const queue: CreateQueueRequest = {
    name: 'bench',
    questions: { tone: { type: 'choice', criteria: { calm: 'Calm', angry: 'Angry' } } },
    rows: Array.from({ length: ROWS }, (_, i) => ({
      key: `r${i}`,
      state: `ticket ${i}`,
      judge: { tone: { label: i % 2 ? 'angry' : 'calm', confidence: 0.8 } },
    })),
    overlap: { perRow: 3, share: 1 },
    reservationSeconds,
  };
  const made = (await call(url, 'POST', '/api/workspace/queues', owner, queue)).json as {
    queue: { id: string };
  };
  return { owner, people, queue: made.queue.id };
}

interface LoadResult {
  next: number[];
  save: number[];
  acked: Map<string, string>;
  overlaps: number;
}

/** Each labeller: next row, think, save; `pauseMs` 0 is a burst. Stops at `until` or when `stop` says so. */
async function load(
  url: string,
  people: string[],
  queue: string,
  until: number,
  pauseMs: number,
  phase: string,
): Promise<LoadResult> {
  const result: LoadResult = { next: [], save: [], acked: new Map(), overlaps: 0 };
  const holding = new Map<number, number>();
  await Promise.all(
    people.map(async (cookie, p) => {
      // Spread the labellers over the first interval, as people arrive.
      await new Promise((r) => setTimeout(r, (p * pauseMs) / people.length));
      let n = 0;
      while (Date.now() < until) {
        try {
          let t = performance.now();
          const next = (await call(url, 'POST', `/api/workspace/queues/${queue}/next`, cookie))
            .json as NextResponse;
          result.next.push(performance.now() - t);
          if (!next.row) break;
          const row = next.row.index;
          // Held twice: handed to another while its holder had not yet sent the label that frees it.
          if (holding.has(row) && holding.get(row) !== p) result.overlaps++;
          holding.set(row, p);
          if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
          const clientId = `${phase}-L${p}-${n++}`;
          holding.delete(row);
          t = performance.now();
          const saved = (
            await call(url, 'PUT', `/api/workspace/queues/${queue}/labels`, cookie, {
              labels: [{ row, question: 'tone', value: row % 3 ? 'calm' : 'angry', clientId }],
            })
          ).json as PutLabelsResponse;
          result.save.push(performance.now() - t);
          if (saved.saved[0]?.outcome !== 'same') result.acked.set(clientId, `${row}`);
        } catch {
          // The server was killed (the fault phase): what was acknowledged is what counts.
          return;
        }
      }
    }),
  );
  return result;
}

/**
 * A labeller who loses the connection: takes a row, labels it offline, and when the connection is back after
 * `offlineMs` the outbox sends the label, then sends it again (its reply was lost). Both must be taken as one label.
 */
async function offlineLabeller(url: string, cookie: string, queue: string, offlineMs: number, p: number) {
  const next = (await call(url, 'POST', `/api/workspace/queues/${queue}/next`, cookie)).json as NextResponse;
  const row = next.row!.index;
  await new Promise((r) => setTimeout(r, offlineMs));
  const label = { row, question: 'tone', value: 'angry', clientId: `offline-L${p}` };
  const sent = [];
  for (let copy = 0; copy < 2; copy++)
    sent.push(
      (
        (await call(url, 'PUT', `/api/workspace/queues/${queue}/labels`, cookie, { labels: [label] }))
          .json as PutLabelsResponse
      ).saved[0]?.outcome,
    );
  return { clientId: label.clientId, row, outcomes: sent.join('/') };
}

/**
 * A queue of 100,000 rows in active order (the judge's probabilities of two classes), published by the owner; then one
 * labeller asks for the next row and labels it, one after another: the time to publish and the next row's p50/p99
 * over HTTP (its cookie checked, the row reserved, progress counted).
 */
async function activeQueue(url: string, owner: string, labeller: string) {
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const angry = ((i * 7919) % 1000) / 1000;
    const probabilities = [1 - angry, angry];
    const label = angry >= 0.5 ? 'angry' : 'calm';
    return { key: `a${i}`, state: `ticket ${i}`, judge: { tone: { label, confidence: 0.5, probabilities } } };
  });
  const request: CreateQueueRequest = {
    name: 'active bench',
    questions: { tone: { type: 'choice', criteria: { calm: 'Calm', angry: 'Angry' } } },
    rows,
    order: { kind: 'active', question: 'tone', target: { kind: 'share', level: 'angry' }, budget: 2_000 },
  };
  let t = performance.now();
  const made = (await call(url, 'POST', '/api/workspace/queues', owner, request)).json as {
    queue: { id: string };
  };
  const publishMs = performance.now() - t;
  const times: number[] = [];
  for (let k = 0; k < ACTIVE_NEXTS; k++) {
    t = performance.now();
    const next = (await call(url, 'POST', `/api/workspace/queues/${made.queue.id}/next`, labeller))
      .json as NextResponse;
    times.push(performance.now() - t);
    await call(url, 'PUT', `/api/workspace/queues/${made.queue.id}/labels`, labeller, {
      labels: [{ row: next.row!.index, question: 'tone', value: 'calm', clientId: `active-${k}` }],
    });
  }
  const counted = times.slice(WARM_UP);
  return { id: made.queue.id, publishMs, p50: quantile(counted, 0.5), p99: quantile(counted, 0.99) };
}

/**
 * The same queue in process: the choice of the next active row (the query that finds it, without its lock), then the
 * whole hand-out (the choice, the reservation and its durable commit), one labeller labelling each row. p50/p99 each.
 */
async function activeChoice(db: Db, queueId: string, cookie: string) {
  const queue = (await queueById(db, queueId))!;
  const person = (await personByToken(db, cookie.split('=')[1]!))!;
  const chosen: number[] = [];
  const handed: number[] = [];
  const choiceSql = FREE_ROW_SQL.replace('FOR UPDATE SKIP LOCKED', '');
  for (let k = 0; k < ACTIVE_NEXTS; k++) {
    let t = performance.now();
    await db.query(choiceSql, [queue.id, person.id]);
    chosen.push(performance.now() - t);
    t = performance.now();
    const { row } = await nextRow(db, queue, person);
    handed.push(performance.now() - t);
    await putLabels(db, queue, person, [
      { row: row!.idx, question: 'tone', value: 'calm', clientId: `choice-${k}` },
    ]);
  }
  const counted = (xs: number[]) => xs.slice(WARM_UP);
  return {
    p50: quantile(counted(chosen), 0.5),
    p99: quantile(counted(chosen), 0.99),
    handedP50: quantile(counted(handed), 0.5),
    handedP99: quantile(counted(handed), 0.99),
  };
}

/** Every acknowledged label stored exactly once, by its client id. */
async function storedOnce(db: Db, acked: Map<string, string>): Promise<{ missing: number; doubled: number }> {
  const rows = await db.query<{ client_id: string; n: number }>(
    'SELECT client_id, count(*)::int AS n FROM labels GROUP BY client_id',
  );
  const counts = new Map(rows.map((r) => [r.client_id, r.n]));
  let missing = 0;
  let doubled = 0;
  for (const id of acked.keys()) {
    const n = counts.get(id) ?? 0;
    if (n === 0) missing++;
    if (n > 1) doubled++;
  }
  return { missing, doubled };
}

/** Fills the queue to 300,000 labels (3 people on 100,000 rows) and times the figures' recompute. */
async function figuresAt300k(db: Db, queueId: string): Promise<{ labels: number; ms: number }> {
  const people = (
    await db.query<{ id: string }>(`SELECT id FROM people WHERE role = 'labeller' ORDER BY id LIMIT 3`)
  ).map((p) => p.id);
  for (const [a, person] of people.entries())
    await db.query(
      `INSERT INTO labels (queue_id, idx, question, person_id, value, client_id, at, seconds, source)
       SELECT $1, g, 'tone', $2, to_jsonb(CASE WHEN (g + $3) % 4 = 0 THEN 'angry' ELSE 'calm' END), 'fill-' || g,
         now(), 3, 'import'
       FROM generate_series(0, $4 - 1) g
       ON CONFLICT DO NOTHING`,
      [queueId, person, a, Math.min(ROWS, FIGURE_LABELS / 3)],
    );
  const queue = (await queueById(db, queueId))!;
  const t = performance.now();
  const figures = await queueFigures(db, queue, 'each');
  return { labels: figures.labels, ms: performance.now() - t };
}

interface BackendRun {
  backend: string;
  figures: Record<string, number | string>;
  ok: boolean;
}

async function runBackend(backend: 'pglite' | 'postgres'): Promise<BackendRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-workspace-'));
  const pg = backend === 'postgres' ? await startPostgres() : null;
  const settings = pg
    ? { databaseUrl: await pg.createDatabase('bench'), dataDir: '' }
    : { databaseUrl: null, dataDir: join(dir, 'db') };
  const env: Record<string, string> = settings.databaseUrl
    ? { DATABASE_URL: settings.databaseUrl }
    : { BENCH_WORKSPACE_DIR: settings.dataDir };
  try {
    let child = await startChild(env);
    const { owner, people, queue } = await setUp(child.url, 600);
    const cpu0 = cpuSeconds(child.proc.pid!);
    const online = people.slice(0, people.length - OFFLINE_PEOPLE);
    const [steady, ...offline] = await Promise.all([
      load(child.url, online, queue, Date.now() + SECONDS * 1000, EVERY_MS, 'steady'),
      ...people
        .slice(online.length)
        .map((cookie, k) => offlineLabeller(child.url, cookie, queue, OFFLINE_SECONDS * 1000, k)),
    ]);
    const cpuPerLabelMs = ((cpuSeconds(child.proc.pid!) - cpu0) * 1000) / Math.max(1, steady.acked.size);
    const steadyLoad = loadavg()[0]!;
    // Faults: a burst of writes, SIGKILL in the middle, a restart on the same database.
    const burstEnd = Date.now() + 4000;
    const killAt = setTimeout(() => child.proc.kill('SIGKILL'), 2000);
    const burst = await load(child.url, people, queue, burstEnd, 0, 'burst');
    clearTimeout(killAt);
    // A process killed by a signal keeps exitCode null: its signalCode says it has exited.
    const ended = child.proc.exitCode !== null || child.proc.signalCode !== null;
    await new Promise((r) => (ended ? r(null) : child.proc.once('exit', r)));
    child = await startChild(env);
    const after = await fetch(`${child.url}/api/workspace/status`, {
      headers: { 'x-workbench-request': '1' },
    });
    const active = await activeQueue(child.url, owner, people[0]!);
    child.proc.kill('SIGTERM');
    await new Promise((r) => child.proc.once('exit', r));
    const db = await openDb(settings);
    const acked = new Map([...steady.acked, ...burst.acked]);
    const once = await storedOnce(db, acked);
    const offlineOnce = await storedOnce(db, new Map(offline.map((o) => [o.clientId, `${o.row}`])));
    // Every reservation held at the kill still ends on time (600 s after its hand-out): none is left without an end.
    const [stuck] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM queue_rows WHERE reserved_by IS NOT NULL
         AND (reserved_until IS NULL OR reserved_until > now() + interval '600 seconds')`,
    );
    const choice = await activeChoice(db, active.id, people[1]!);
    const fig = await figuresAt300k(db, queue);
    await db.close();
    const figures = {
      labels: steady.acked.size,
      'next p50 ms': Number(quantile(steady.next, 0.5).toFixed(1)),
      'next p99 ms': Number(quantile(steady.next, 0.99).toFixed(1)),
      'save p50 ms': Number(quantile(steady.save, 0.5).toFixed(1)),
      'save p99 ms': Number(quantile(steady.save, 0.99).toFixed(1)),
      'cpu ms/label': Number(cpuPerLabelMs.toFixed(2)),
      'two holders': steady.overlaps + burst.overlaps,
      'burst acked': burst.acked.size,
      'acked missing': once.missing,
      'acked twice': once.doubled,
      [`offline ${OFFLINE_SECONDS} s: sent twice, stored`]: `${offline.length - offlineOnce.missing - offlineOnce.doubled} of ${offline.length} once (${offline.map((o) => o.outcomes).join(', ')})`,
      'restart ok': after.ok ? 'yes' : 'no',
      'stuck reservations': stuck?.n ?? 0,
      'figures labels': fig.labels,
      'figures ms': Math.round(fig.ms),
      'active publish ms': Math.round(active.publishMs),
      'active next p50 ms': Number(active.p50.toFixed(1)),
      'active next p99 ms': Number(active.p99.toFixed(1)),
      'active choice p50 ms': Number(choice.p50.toFixed(2)),
      'active choice p99 ms': Number(choice.p99.toFixed(2)),
      'active hand-out p50 ms': Number(choice.handedP50.toFixed(2)),
      'active hand-out p99 ms': Number(choice.handedP99.toFixed(2)),
      load: steadyLoad.toFixed(2),
    };
    const ok =
      figures['two holders'] === 0 &&
      once.missing === 0 &&
      once.doubled === 0 &&
      offlineOnce.missing + offlineOnce.doubled === 0 &&
      after.ok &&
      choice.p99 < 5 &&
      figures['next p99 ms'] < 50 &&
      figures['save p99 ms'] < 50;
    return { backend, figures, ok };
  } finally {
    pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<SectionResult> {
  const runs: BackendRun[] = [];
  for (const backend of ['pglite', 'postgres'] as const) runs.push(await runBackend(backend));
  printTable(
    'workspace',
    runs.map((r) => ({ backend: r.backend, ...r.figures })),
  );
  return {
    section: 'workspace',
    ok: runs.every((r) => r.ok),
    figures: Object.fromEntries(
      runs.flatMap((r) => [
        [`${r.backend} next p99 ms`, r.figures['next p99 ms']!],
        [`${r.backend} save p99 ms`, r.figures['save p99 ms']!],
        [`${r.backend} figures ms`, r.figures['figures ms']!],
        [`${r.backend} active choice p99 ms`, r.figures['active choice p99 ms']!],
      ]),
    ),
  };
}
