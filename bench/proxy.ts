// Bench section "proxy": the same evaluate request at the same concurrency, sent straight to the standalone reference
// and through the workbench proxy, side by side in one run.
import { fileURLToPath } from 'node:url';
import { startChildServer } from './lib/child';
import type { ChildServer } from './lib/child';
import { load } from './lib/load';
import type { LoadResult } from './lib/load';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { BENCH_QUESTIONS, BENCH_STATE } from './reference';

const CONNECTIONS = 50;
const WARMUP_REQUESTS = 3_000;
const REQUESTS = 20_000;
// Runs alternate direct / proxied this many times, so a slow moment of the machine hits both alike.
const ROUNDS = 2;
const TARGET_RATIO = 0.85;
const TARGET_ADDED_P50_MS = 1;

const server = (name: string): string => fileURLToPath(new URL(`./servers/${name}.ts`, import.meta.url));

interface Route {
  name: string;
  url: string;
  headers: Record<string, string>;
}

/** Requests and time summed over rounds, latencies averaged: one figure per route. */
function combine(results: LoadResult[]): { rps: number; p50: number; p99: number; non2xx: number; errors: number } {
  const requests = results.reduce((s, r) => s + r.requests, 0);
  const seconds = results.reduce((s, r) => s + r.durationS, 0);
  const mean = (f: (r: LoadResult) => number): number => results.reduce((s, r) => s + f(r), 0) / results.length;
  return {
    rps: requests / seconds,
    p50: mean((r) => r.p50),
    p99: mean((r) => r.p99),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
  };
}

/** Runs the section and returns its headline figures. */
export async function run(): Promise<SectionResult> {
  const children: ChildServer[] = [];
  try {
    const reference = await startChildServer(server('reference'));
    children.push(reference);
    const proxy = await startChildServer(server('proxy'), { BENCH_UPSTREAM: reference.url });
    children.push(proxy);

    const body = JSON.stringify({ state: BENCH_STATE, model: 'model-latest', questions: BENCH_QUESTIONS });
    const json = { 'content-type': 'application/json' };
    const viaProxy = { ...json, 'x-workbench-request': '1' };
    const routes: Route[] = [
      { name: 'direct', url: `${reference.url}/v1/evaluate`, headers: { ...json, authorization: 'Bearer local-dev-key' } },
      { name: 'proxy -> reference', url: `${proxy.url}/api/targets/direct/v1/evaluate`, headers: viaProxy },
      { name: 'proxy, in-process', url: `${proxy.url}/api/targets/local/v1/evaluate`, headers: viaProxy },
    ];
    console.log(
      `proxy: POST evaluate, state ${Buffer.byteLength(BENCH_STATE)} B, 3 questions, ${CONNECTIONS} connections, ` +
        `${ROUNDS} x ${REQUESTS.toLocaleString('en-US')} requests per route`,
    );
    const results = new Map<string, LoadResult[]>(routes.map((r) => [r.name, []]));
    for (const route of routes) await load({ ...route, method: 'POST', body, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of routes) {
        const result = await load({ ...route, method: 'POST', body, connections: CONNECTIONS, amount: REQUESTS });
        results.get(route.name)!.push(result);
      }
    }

    const direct = combine(results.get('direct')!);
    const rows = routes.map((route) => {
      const r = combine(results.get(route.name)!);
      return {
        route: route.name,
        'req/s': Math.round(r.rps),
        ratio: route.name === 'direct' ? '' : `${((r.rps / direct.rps) * 100).toFixed(1)}%`,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'added p50 ms': route.name === 'direct' ? '' : (r.p50 - direct.p50).toFixed(2),
        'added p99 ms': route.name === 'direct' ? '' : (r.p99 - direct.p99).toFixed(2),
        'non-2xx/errors': `${r.non2xx}/${r.errors}`,
      };
    });
    printTable(`proxy: direct vs through the proxy (targets: ratio >= ${TARGET_RATIO * 100}%, added p50 <= ${TARGET_ADDED_P50_MS} ms)`, rows);

    const forwarded = combine(results.get('proxy -> reference')!);
    const inProcess = combine(results.get('proxy, in-process')!);
    const clean = [direct, forwarded, inProcess].every((r) => r.non2xx === 0 && r.errors === 0);
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
        'in-process ratio': `${((inProcess.rps / direct.rps) * 100).toFixed(1)}%`,
      },
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
  }
}
