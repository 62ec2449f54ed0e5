// Bench section "rows": a file of 1,000 rows run against the standalone reference (its own process) at a configured
// pace. Clean, the achieved rate must be at least 95% of the configured one; with 429/529 faults injected, the
// service's own tally must show zero rows lost and zero rows answered twice.
import { fileURLToPath } from 'node:url';
import { abortableSleep, evaluate } from '../src/client';
import type { EvaluateFn, ReusedRow, RunStore } from '../src/core/rows/runTypes';
import { RowRunner } from '../src/core/rows/runner';
import type { RowOutcome, StoredAnswer } from '../src/core/rows/records';
import type { PlannedRow } from '../src/core/rows/runPlan';
import { requestTokens } from '../src/contract/tokens';
import type { Questions } from '../src/contract';
import { startChildServer } from './lib/child';
import type { ServerCounts } from './lib/countingReference';
import { COUNTS_PATH, tallyRows } from './lib/countingReference';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { EXAMPLE_REQUEST } from '../src/core/example';

const ROWS = 1_000;
/** Configured pace: 6,000/min (100/s) keeps the section near 10 s; 1,200/min would take 50 s. */
const REQUESTS_PER_MINUTE = 6_000;
const CONCURRENCY = 4;
const FAULTS = '429=0.05,529=0.05';
const MIN_RATE_RATIO = 0.95;
const KEY = 'local-dev-key';

const QUESTIONS: Questions = EXAMPLE_REQUEST.questions;
const TEXTS = [
  'I was charged twice for my order and need a refund today.',
  'The app crashes every time I open the settings page.',
  'Thanks, everything is sorted now.',
  'My payouts have failed for three days, this is the third time I write.',
];

/** Rows with their id inside the state, so the service can count its answers per row. */
function rows(prefix: string): PlannedRow[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const state = { row_id: `${prefix}-${i + 1}`, text: `${TEXTS[i % TEXTS.length]} (#${i + 1})` };
    return {
      number: i + 1,
      line: i + 2,
      id: state.row_id,
      state,
      tokens: requestTokens({ state, questions: QUESTIONS }).total,
    };
  });
}

class MemoryStore implements RunStore {
  readonly outcomes = new Map<number, RowOutcome>();
  readonly answers = new Map<string, StoredAnswer>();
  async saveOutcome(n: number, o: RowOutcome): Promise<void> {
    this.outcomes.set(n, o);
  }
  /** Answers by each of their question keys, as IndexedDB's multiEntry index finds them. */
  readonly byQuestion = new Map<string, StoredAnswer>();
  async saveAnswered(n: number, o: RowOutcome, a: StoredAnswer): Promise<void> {
    this.answers.set(a.key, a);
    for (const k of a.questionKeys ?? []) this.byQuestion.set(k, a);
    this.outcomes.set(n, o);
  }
  async saveReused(rows: readonly ReusedRow[]): Promise<void> {
    for (const r of rows) {
      if (r.answer) this.answers.set(r.answer.key, r.answer);
      this.outcomes.set(r.number, r.outcome);
    }
  }
  async findAnswers(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    return new Map(keys.flatMap((k) => (this.answers.has(k) ? [[k, this.answers.get(k)!] as const] : [])));
  }
  async findQuestionAnswers(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    return new Map(
      keys.flatMap((k) => {
        const a = this.byQuestion.get(k) ?? this.answers.get(k);
        return a ? [[k, a] as const] : [];
      }),
    );
  }
}

async function runOnce(prefix: string, faults: string) {
  const server = await startChildServer(
    fileURLToPath(new URL('./servers/rowsReference.ts', import.meta.url)),
    {
      ROWS_RPM: String(REQUESTS_PER_MINUTE),
      ROWS_FAULTS: faults,
      ROWS_SEED: '7',
    },
  );
  try {
    const sends: number[] = [];
    const timed: EvaluateFn = (target, request, options) => {
      sends.push(performance.now());
      return evaluate(target, request, options);
    };
    const planned = rows(prefix);
    const store = new MemoryStore();
    const runner = new RowRunner(
      {
        targetId: 'bench',
        target: { baseUrl: server.url, headers: { Authorization: `Bearer ${KEY}` } },
        model: 'model-latest',
        questions: QUESTIONS,
        rows: planned,
        pacing: {
          requestsPerMinute: REQUESTS_PER_MINUTE,
          concurrency: CONCURRENCY,
          tokensPerSecond: 250_000,
        },
        maxCost: null,
      },
      { evaluate: timed, clock: { now: () => Date.now(), sleep: abortableSleep }, store },
    );
    const started = performance.now();
    let end = await runner.run();
    const elapsed = performance.now() - started;
    // Rows that ran out of retries are retried once on request (as a user would), outside the rate measurement.
    const { failed, unknown } = runner.retryable();
    const retried = failed.length + unknown.length;
    if (retried > 0) {
      await runner.retry([...failed, ...unknown]);
      end = await runner.run();
    }
    const counts = (await (await fetch(`${server.url}${COUNTS_PATH}`)).json()) as ServerCounts;
    const tally = tallyRows(
      counts,
      planned.map((r) => r.id),
    );
    const span = sends[ROWS - 1]! - sends[0]!;
    const achieved = ((ROWS - 1) * 60_000) / span;
    return { end, elapsed, achieved, tally, counts, retried, answeredHere: end.done };
  } finally {
    await server.stop();
  }
}

/** Runs the section and returns its headline figures. */
export async function run(): Promise<SectionResult> {
  console.log(
    `rows: ${ROWS} rows, configured ${REQUESTS_PER_MINUTE} requests/min, concurrency ${CONCURRENCY}`,
  );
  const clean = await runOnce('clean', '');
  const faulty = await runOnce('faults', FAULTS);
  const ratio = clean.achieved / REQUESTS_PER_MINUTE;
  const lost = faulty.tally.missing.length;
  const twice = faulty.tally.twice;
  printTable('rows: 1,000 rows against the standalone reference', [
    {
      run: 'clean',
      'configured/min': REQUESTS_PER_MINUTE,
      'achieved/min': Math.round(clean.achieved),
      ratio: Number(ratio.toFixed(3)),
      'wall s': Number((clean.elapsed / 1000).toFixed(2)),
      answered: clean.tally.once,
      lost: clean.tally.missing.length,
      twice: clean.tally.twice,
      'retried on request': clean.retried,
      '429s': clean.counts.statuses['429'] ?? 0,
    },
    {
      run: FAULTS,
      'configured/min': REQUESTS_PER_MINUTE,
      'achieved/min': Math.round(faulty.achieved),
      ratio: Number((faulty.achieved / REQUESTS_PER_MINUTE).toFixed(3)),
      'wall s': Number((faulty.elapsed / 1000).toFixed(2)),
      answered: faulty.tally.once,
      lost,
      twice,
      'retried on request': faulty.retried,
      '429s': faulty.counts.statuses['429'] ?? 0,
    },
  ]);
  const ok =
    ratio >= MIN_RATE_RATIO &&
    clean.tally.missing.length === 0 &&
    clean.tally.twice === 0 &&
    lost === 0 &&
    twice === 0;
  return {
    section: 'rows',
    ok,
    figures: {
      'configured/min': REQUESTS_PER_MINUTE,
      'rate ratio': Number(ratio.toFixed(3)),
      'lost (faults)': lost,
      'answered twice (faults)': twice,
    },
  };
}
