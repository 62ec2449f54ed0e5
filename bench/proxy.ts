// Bench section "proxy": the same evaluate request at the same concurrency, sent straight to the standalone reference
// and through the workbench proxy, side by side in one run; with each server's CPU time per request (Linux).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startChildServer } from './lib/child';
import type { ChildServer } from './lib/child';
import { load } from './lib/load';
import type { LoadResult } from './lib/load';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { BENCH_QUESTIONS, BENCH_STATE } from './reference';

const CONNECTIONS = 50;
// Timed runs, not counted ones: autocannon reports a counted run only at its next one-second tick, so a run of a few
// seconds would read up to a quarter slow; a timed run ends on a tick.
const WARMUP_S = 2;
const RUN_S = 8;
// Runs alternate direct / proxied this many times, so a slow moment of the machine hits both alike.
const ROUNDS = 2;
const TARGET_RATIO = 0.85;
const TARGET_ADDED_P50_MS = 1;
// /proc/<pid>/stat counts CPU time in clock ticks of 10 ms (USER_HZ = 100 on Linux).
const MS_PER_TICK = 10;

const server = (name: string): string => fileURLToPath(new URL(`./servers/${name}.ts`, import.meta.url));

/** PIDs of this process's children, or [] where /proc does not list them. */
function childPids(): number[] {
  try {
    const text = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8');
    return text.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU time (user + system, ms) a process has used so far, or null off Linux. */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return null;
  }
}

/** Starts a bench server and finds its PID, for CPU accounting. */
async function startServer(
  name: string,
  env?: Record<string, string>,
): Promise<ChildServer & { pid?: number }> {
  const before = new Set(childPids());
  const child = await startChildServer(server(name), env);
  return { ...child, pid: childPids().find((pid) => !before.has(pid)) };
}

interface Route {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU µs per request of the reference process and of the proxy process; null when unknown. */
  referenceUs: number | null;
  proxyUs: number | null;
}

interface Run {
  result: LoadResult;
  referenceMs: number | null;
  proxyMs: number | null;
}

/** Requests and time summed over rounds, latencies averaged: one figure per route. */
function combine(runs: Run[]): Figures {
  const requests = runs.reduce((s, r) => s + r.result.requests, 0);
  const seconds = runs.reduce((s, r) => s + r.result.durationS, 0);
  const mean = (f: (r: LoadResult) => number): number =>
    runs.reduce((s, r) => s + f(r.result), 0) / runs.length;
  const perRequest = (f: (r: Run) => number | null): number | null =>
    runs.every((r) => f(r) !== null) ? (runs.reduce((s, r) => s + f(r)!, 0) * 1000) / requests : null;
  return {
    rps: requests / seconds,
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
    non2xx: runs.reduce((s, r) => s + r.result.non2xx, 0),
    errors: runs.reduce((s, r) => s + r.result.errors, 0),
    referenceUs: perRequest((r) => r.referenceMs),
    proxyUs: perRequest((r) => r.proxyMs),
  };
}

const micros = (us: number | null): number | string => (us === null ? 'n/a' : Math.round(us));

/** Runs the section and returns its headline figures. */
export async function run(): Promise<SectionResult> {
  const children: ChildServer[] = [];
  try {
    const reference = await startServer('reference');
    children.push(reference);
    const proxy = await startServer('proxy', { BENCH_UPSTREAM: reference.url });
    children.push(proxy);

    const body = JSON.stringify({ state: BENCH_STATE, model: 'model-latest', questions: BENCH_QUESTIONS });
    const json = { 'content-type': 'application/json' };
    const viaProxy = { ...json, 'x-workbench-request': '1' };
    const routes: Route[] = [
      {
        name: 'direct',
        url: `${reference.url}/v1/evaluate`,
        headers: { ...json, authorization: 'Bearer local-dev-key' },
      },
      { name: 'proxy -> reference', url: `${proxy.url}/api/targets/direct/v1/evaluate`, headers: viaProxy },
      { name: 'proxy, in-process', url: `${proxy.url}/api/targets/local/v1/evaluate`, headers: viaProxy },
    ];
    console.log(
      `proxy: POST evaluate, state ${Buffer.byteLength(BENCH_STATE)} B, 3 questions, ${CONNECTIONS} connections, ` +
        `${ROUNDS} x ${RUN_S} s per route, alternating`,
    );
    const runs = new Map<string, Run[]>(routes.map((r) => [r.name, []]));
    const send = (route: Route, durationS: number) =>
      load({
        url: route.url,
        headers: route.headers,
        method: 'POST',
        body,
        connections: CONNECTIONS,
        durationS,
      });
    for (const route of routes) await send(route, WARMUP_S);
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of routes) {
        const ref0 = cpuMs(reference.pid);
        const proxy0 = cpuMs(proxy.pid);
        const result = await send(route, RUN_S);
        const ref1 = cpuMs(reference.pid);
        const proxy1 = cpuMs(proxy.pid);
        runs.get(route.name)!.push({
          result,
          referenceMs: ref0 === null || ref1 === null ? null : ref1 - ref0,
          proxyMs: proxy0 === null || proxy1 === null ? null : proxy1 - proxy0,
        });
      }
    }

    const figures = new Map(routes.map((r) => [r.name, combine(runs.get(r.name)!)]));
    const direct = figures.get('direct')!;
    const forwarded = figures.get('proxy -> reference')!;
    const inProcess = figures.get('proxy, in-process')!;
    printTable(
      `proxy: direct vs through the proxy (targets: ratio >= ${TARGET_RATIO * 100}%, added p50 <= ${TARGET_ADDED_P50_MS} ms; ` +
        'latencies in whole ms, averaged over rounds)',
      routes.map((route) => {
        const f = figures.get(route.name)!;
        const isDirect = route.name === 'direct';
        return {
          route: route.name,
          'req/s': Math.round(f.rps),
          ratio: isDirect ? '' : `${((f.rps / direct.rps) * 100).toFixed(1)}%`,
          'p50 ms': f.p50,
          'p99 ms': f.p99,
          'added p50 ms': isDirect ? '' : (f.p50 - direct.p50).toFixed(2),
          'added p99 ms': isDirect ? '' : (f.p99 - direct.p99).toFixed(2),
          'reference CPU µs/req': micros(f.referenceUs),
          'proxy CPU µs/req': micros(f.proxyUs),
          'non-2xx/errors': `${f.non2xx}/${f.errors}`,
        };
      }),
    );

    const clean = [direct, forwarded, inProcess].every((f) => f.non2xx === 0 && f.errors === 0);
    const ratio = forwarded.rps / direct.rps;
    const addedP50 = forwarded.p50 - direct.p50;
    return {
      section: 'proxy',
      ok: clean && ratio >= TARGET_RATIO && addedP50 <= TARGET_ADDED_P50_MS,
      figures: {
        'direct req/s': Math.round(direct.rps),
        'proxied req/s': Math.round(forwarded.rps),
        ratio: `${(ratio * 100).toFixed(1)}%`,
        'added p50 ms': Number(addedP50.toFixed(2)),
        'added p99 ms': Number((forwarded.p99 - direct.p99).toFixed(2)),
        'proxy CPU µs/req': micros(forwarded.proxyUs),
        'in-process ratio': `${((inProcess.rps / direct.rps) * 100).toFixed(1)}%`,
      },
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}
