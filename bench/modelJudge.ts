// Bench section "modelJudge": the reference service answering from the tiny test GGUF through node-llama-cpp, side by
// side with the lexical judge, per question type; and how a model request's time splits between the engine and the
// service's own code (auth, validation, token count, limits, answer shaping).
import { cpus, loadavg } from 'node:os';
import type { EvaluateRequest } from '../src/contract';
import { createReference } from '../src/server/reference/app';
import { createModelJudge } from '../src/server/reference/modelJudge/engine';
import { serveReference } from '../src/server/reference/serve';
import { writeTinyGguf } from '../tests/helpers/tinyGguf';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { BENCH_QUESTIONS, BENCH_STATE } from './reference';

const KEY = 'local-dev-key';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
// Four connections match the judge's four parallel questions; more would only queue inside the engine.
const CONNECTIONS = 4;
const LEXICAL_REQUESTS = 1_000;
const MODEL_REQUESTS = 60;
const SPLIT_REQUESTS = 40;
/** The bound on what the service adds to a model request, beyond the engine's own time. */
const TARGET_OVERHEAD_MS = 1;
// One llama.cpp thread unless told otherwise: on a shared machine, more threads than free cores spin and stall.
const THREADS = Number(process.env.REFERENCE_MODEL_THREADS ?? 1);

const TYPES = ['noul', 'choice', 'score'] as const;

/** One question of the bench request per type, over the 2 kB support ticket. */
function requestFor(type: (typeof TYPES)[number], model: string): EvaluateRequest {
  const [name, question] = Object.entries(BENCH_QUESTIONS).find(([, q]) => q.type === type)!;
  return { state: BENCH_STATE, model, questions: { [name]: question } };
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

let serial = 0;

/**
 * Sends `amount` requests over CONNECTIONS concurrent loops, each with a state of its own (a numbered line before the
 * ticket): identical states would be answered from the engine's KV cache and measure nothing but the cache.
 */
async function measure(
  base: string,
  type: (typeof TYPES)[number],
  model: string,
  amount: number,
): Promise<Measured> {
  const latencies: number[] = [];
  let failures = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < amount) {
        next++;
        const request = requestFor(type, model);
        request.state = `Ticket ${++serial}.\n${BENCH_STATE}`;
        const t = performance.now();
        const res = await fetch(`${base}/v1/evaluate`, {
          method: 'POST',
          headers: HEADERS,
          body: JSON.stringify(request),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (res.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: amount / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), failures };
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Runs the section and returns its headline figures. */
export async function run(): Promise<SectionResult> {
  const judge = createModelJudge({
    file: writeTinyGguf({ seed: 1 }, 'bench-tiny.gguf'),
    contextSize: 8192,
    parallelQuestions: CONNECTIONS,
    threads: THREADS,
  });
  const info = await judge.ready;
  // Rate limits out of the way: the section measures the judges, and a 429 would answer in no time.
  const server = await serveReference({ port: 0, modelJudge: judge, rpm: 1e9, tps: 1e12 });
  try {
    console.log(
      `modelJudge: ${info.fileName} (${info.engine}, ${info.gpu}, ${THREADS} thread(s), context ${info.contextSize}), loaded in ${Math.round(info.loadMs)} ms; state ${Buffer.byteLength(BENCH_STATE)} B, one question per request, ${CONNECTIONS} connections`,
    );
    const loadBefore = loadavg()[0]!;
    const rows: Record<string, string | number>[] = [];
    let clean = true;
    for (const type of TYPES) {
      const measured: Record<string, Measured> = {};
      for (const [judgeName, model, amount] of [
        ['lexical', 'model-latest', LEXICAL_REQUESTS],
        ['model', info.alias, MODEL_REQUESTS],
      ] as const) {
        await measure(server.url, type, model, Math.ceil(amount / 10)); // warm-up
        const r = await measure(server.url, type, model, amount);
        clean &&= r.failures === 0;
        measured[judgeName] = r;
        rows.push({
          type,
          judge: judgeName,
          requests: amount,
          'non-200': r.failures,
          'req/s': r.rps,
          'p50 ms': r.p50,
          'p99 ms': r.p99,
        });
      }
      rows.push({
        type,
        judge: 'model / lexical',
        requests: '',
        'non-200': '',
        'req/s': measured.model!.rps / measured.lexical!.rps,
        'p50 ms': measured.model!.p50 / Math.max(measured.lexical!.p50, 0.01),
        'p99 ms': measured.model!.p99 / Math.max(measured.lexical!.p99, 0.01),
      });
    }
    printTable('modelJudge: requests over loopback HTTP, per question type', rows);

    // In process, one at a time, all three questions: the service's evaluate function (what both carriers, node:http
    // and Hono, call) against the engine's own time; then the same through the in-process Hono carrier, as the proxy's
    // local target calls it, with the caller's Request and Response.
    const { app, evaluate } = createReference({ modelJudge: judge, rpm: 1e9, tps: 1e12 });
    const bodyOf = (i: number): string =>
      JSON.stringify({
        state: `Ticket ${i}.\n${BENCH_STATE}`,
        model: info.alias,
        questions: BENCH_QUESTIONS,
      });
    const never = new AbortController().signal;
    const direct = (body: string) => async (): Promise<number> => {
      const outcome = await evaluate({
        authorization: HEADERS.authorization,
        readBody: () => Promise.resolve({ ok: true, text: body }),
        signal: () => never,
      });
      return outcome.kind === 'reply' ? outcome.status : 0;
    };
    const viaHono = (body: string) => async (): Promise<number> => {
      const res = await app.fetch(
        new Request('http://bench/v1/evaluate', { method: 'POST', headers: HEADERS, body }),
      );
      await res.text();
      return res.status;
    };
    const split = async (
      send: (body: string) => () => Promise<number>,
      fresh: boolean,
    ): Promise<{ walls: number[]; overheads: number[] }> => {
      const walls: number[] = [];
      const overheads: number[] = [];
      for (let i = 0; i < SPLIT_REQUESTS + 5; i++) {
        const request = send(fresh ? bodyOf(++serial) : lexicalBody);
        const engineBefore = judge.metrics.engineMs;
        const started = performance.now();
        const status = await request();
        const wall = performance.now() - started;
        clean &&= status === 200;
        if (i < 5) continue; // warm-up
        walls.push(wall);
        overheads.push(wall - (judge.metrics.engineMs - engineBefore));
      }
      return { walls: walls.sort((a, b) => a - b), overheads: overheads.sort((a, b) => a - b) };
    };
    // The lexical judge on the same request, in process: the whole service with a judge that costs almost nothing.
    const lexicalBody = JSON.stringify({
      state: BENCH_STATE,
      model: 'model-latest',
      questions: BENCH_QUESTIONS,
    });
    const { walls, overheads } = await split(direct, true);
    const hono = await split(viaHono, true);
    const lexicalWalls = (await split(viaHono, false)).walls;
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const overheadP50 = percentile(overheads, 50);
    const overheadOk = overheadP50 < TARGET_OVERHEAD_MS;
    printTable(
      `modelJudge: where a request's time goes (in process, three questions, ${SPLIT_REQUESTS} requests each)`,
      [
        {
          measure: 'request wall time p50 / p99 (ms)',
          value: `${fmt(percentile(walls, 50))} / ${fmt(percentile(walls, 99))}`,
          target: '',
        },
        { measure: 'inside the engine, mean (ms)', value: fmt(mean(walls) - mean(overheads)), target: '' },
        {
          measure: 'our overhead p50 / p99 (ms): the service’s evaluate function',
          value: `${fmt(overheadP50)} / ${fmt(percentile(overheads, 99))}`,
          target: `p50 < ${TARGET_OVERHEAD_MS}`,
        },
        {
          measure: 'with the in-process Hono carrier, Request and Response (ms)',
          value: `${fmt(percentile(hono.overheads, 50))} / ${fmt(percentile(hono.overheads, 99))}`,
          target: '',
        },
        {
          measure: 'lexical request wall time p50 / p99 (ms), for comparison',
          value: `${fmt(percentile(lexicalWalls, 50))} / ${fmt(percentile(lexicalWalls, 99))}`,
          target: '',
        },
        {
          measure: 'engine share of the wall time',
          value: `${fmt((100 * (mean(walls) - mean(overheads))) / mean(walls))} %`,
          target: '',
        },
        {
          measure: `machine load average, ${cpus().length} CPUs (before -> after)`,
          value: `${fmt(loadBefore)} -> ${fmt(loadavg()[0]!)}`,
          target: '',
        },
      ],
    );
    const choice = rows.find((r) => r.type === 'choice' && r.judge === 'model')!;
    return {
      section: 'modelJudge',
      ok: overheadOk && clean,
      figures: {
        'model choice req/s': fmt(choice['req/s'] as number),
        'model choice p99 ms': fmt(choice['p99 ms'] as number),
        'overhead p50 ms': fmt(overheadP50),
      },
    };
  } finally {
    await server.close();
    await judge.close();
  }
}

const fmt = (x: number): string => x.toFixed(2);
