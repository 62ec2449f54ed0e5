// `evaluate-workbench run`: a session (or questions) and a file of rows, through the app's own runner, pacer, dedup and
// retrying client, to a results file that resumes; then the alignment figures, the gates and the CI reports.
import { abortableSleep, evaluate } from '../client';
import { estimateCost, formatCost, isVersionedId } from '../contract';
import type { AlignmentOptions, Figure } from '../core/alignment';
import type { Clock, Pacing } from '../core/rows/pacer';
import { Pacer, RateMeter } from '../core/rows/pacer';
import type { SourceRow } from '../core/rows/parse';
import type { RowOutcome, RowStatus } from '../core/rows/records';
import type { ResultsHeader } from '../core/rows/resultsFile';
import { RESULTS_FORMAT, RESULTS_VERSION } from '../core/rows/resultsFile';
import { planRun } from '../core/rows/runPlan';
import type { RunProgress } from '../core/rows/runTypes';
import { RowRunner } from '../core/rows/runner';
import { outcomeTokens } from '../core/rows/tally';
import { questionTokens, stateTokens } from '../contract/tokens';
import { LOCAL_COST_WORDS } from '../core/words';
import type { ServerEnv } from '../server/env';
import type { Gate, GateResult } from './gates';
import { checkGates } from './gates';
import type { MapSpec } from './inputs';
import {
  InputError,
  defaultLabelsLine,
  headerLabels,
  mappingFor,
  readQuestionsFile,
  readSessionFile,
  resolveLabelColumns,
  withDefaultLabels,
} from './inputs';
import { EXIT } from './exit';
import { collectGarbage } from './memory';
import type { ProgressView } from './progress';
import { trustSentencesOf, writeJunit, writeSummary } from './reports';
import { AnswerIndex, ResultsStore, openResults, resumedOutcome } from './resultsStore';
import type { Resumed } from './resultsStore';
import { alignmentOf, grow, indexRows, labelTableOf, linesOf } from './resultsStream';
import { eachBatch, openRowsSource, rowBatches } from './rowsStream';
import type { RowsSource } from './rowsStream';
import type { Shard } from './shard';
import { inShard } from './shard';
import { escalationFrom, escalationLine } from './escalate';
import { chooseTarget, cliTargets } from './targets';
import type { LocalReferenceFactory } from './targets';

export { EXIT };

export interface RunOptions {
  /** How the figures are read (the trust options: epsilon, alpha, delta). */
  alignment?: Partial<AlignmentOptions>;
  session?: string;
  sessionName?: string;
  questions?: string;
  model?: string;
  rows: string;
  map: MapSpec;
  out: string;
  target?: string;
  pacing: Partial<Pacing>;
  budget: number | null;
  timeoutMs?: number;
  retryUnknown: boolean;
  gates: Gate[];
  strict: boolean;
  report?: string;
  junit?: string;
  /** Send only this shard's rows (`--shard i/n`), to a results file of its own. */
  shard?: Shard;
  /** A cascade's next judge: only the rows this earlier results file's judge abstains on (for escalateQuestion). */
  escalateFrom?: string;
  escalateQuestion?: string;
}

export interface RunIo {
  env: ServerEnv;
  view: ProgressView;
  /** Resolves when the user asks to stop (Ctrl+C); a second resolve asks to cancel rows in flight. */
  onInterrupt(handler: (count: number) => void): () => void;
  clock?: Clock;
  /** Creates the in-process reference for the local target: the composition root (main.ts) hands it in. */
  local?: LocalReferenceFactory;
}

export interface RunResult {
  code: number;
  progress: RunProgress | null;
  gates: GateResult[];
  figures: Map<string, Figure>;
}

const nodeClock: Clock = { now: () => Date.now(), sleep: (ms, signal) => abortableSleep(ms, signal) };

const rows = (n: number): string => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`;

/**
 * The last line of a run that ended with rows unanswered (unknown: sent, no answer, may have been billed; failed: the
 * service kept failing). Such a run exits 4, so a CI job never goes green with rows missing.
 */
export function unansweredEnding(p: RunProgress): string {
  const parts = [
    p.unknown > 0
      ? `${p.unknown.toLocaleString('en-US')} unknown (sent, no answer came, may have been billed)`
      : '',
    p.failed > 0 ? `${p.failed.toLocaleString('en-US')} failed` : '',
  ].filter(Boolean);
  return (
    `Not finished: ${rows(p.failed + p.unknown)} of ${p.total.toLocaleString('en-US')} have no answer, ${parts.join(' and ')}` +
    ` (${p.done.toLocaleString('en-US')} answered, ${p.reused.toLocaleString('en-US')} reused, ${p.invalid.toLocaleString('en-US')} refused).` +
    ' Run the same command with --retry-unknown to send them again.'
  );
}

/** Rows given to one runner at a time: the most rows (and their states) a run holds in memory. */
export const WINDOW_ROWS = 5_000;
/** Rows sent between full garbage collections (./memory.ts): a collection of a small heap takes tens of milliseconds. */
const COLLECT_EVERY_ROWS = 2_000;

/** The columns of a rows file, whether its rows are objects, and how many records it holds: a pass over the file. */
async function surveyColumns(
  source: RowsSource,
): Promise<{ columns: string[]; objectRows: boolean; records: number }> {
  let objectRows = false;
  const summary = await eachBatch(source, (batch) => {
    if (!objectRows)
      objectRows = batch.rows.some(
        (r) => r.data !== null && typeof r.data === 'object' && !Array.isArray(r.data),
      );
  });
  // CSV rows are always objects of named fields; an empty CSV still has its header's columns.
  return {
    columns: summary.columns,
    objectRows: objectRows || source.format === 'csv',
    records: summary.records,
  };
}

/** What the plan pass learns: the rows of this shard and their tokens, by record number, and the totals. */
interface Planned {
  /** 1 for a row this run sends (in the shard, mappable, not too large). */
  flags: Uint8Array;
  tokens: Uint32Array;
  rows: number;
  totalTokens: number;
  /** Lines left out before sending: the file's own problems and this shard's rows that cannot be sent. */
  skipped: number;
  records: number;
}

/** Counts of the rows a resume keeps as they are, in the runner's terms. */
interface Base {
  counts: Record<Exclude<RowStatus, 'pending' | 'sending'>, number>;
  billedTokens: number;
  possiblyBilledTokens: number;
}

const emptyBase = (): Base => ({
  counts: { done: 0, reused: 0, invalid: 0, failed: 0, unknown: 0 },
  billedTokens: 0,
  possiblyBilledTokens: 0,
});

/** Whether a resumed row stays as it is: settled, and not one this run sends again. */
function kept(outcome: RowOutcome | undefined, retryUnknown: boolean): boolean {
  if (!outcome || outcome.status === 'pending' || outcome.status === 'sending') return false;
  // A failure that billed nothing is sent again; one that may have billed waits for --retry-unknown.
  if (outcome.status === 'failed' && outcome.possiblyBilledAttempts === 0) return false;
  if (retryUnknown && (outcome.status === 'unknown' || outcome.status === 'failed')) return false;
  return true;
}

/** Where a run starts from: what a resume keeps, and the rows it sends. */
interface Start {
  base: Base;
  /** 1 for each record this run sends. */
  sendable: Uint8Array;
  toSend: number;
  /** 1 for rows that were being sent when the last process stopped (the only part of the resume a window reads). */
  inFlight: Uint8Array;
  settled: number;
  unreadable: number;
}

/**
 * Counts the rows a resume keeps as they are, and marks the others to send. The rest of what the results file said
 * (each row's status, billed tokens and attempts: 8 bytes a record) is let go here, not held through the run.
 */
function startFrom(resumed: Resumed, planned: Planned, retryUnknown: boolean): Start {
  const base = emptyBase();
  const sendable = new Uint8Array(planned.records + 1);
  let toSend = 0;
  for (let n = 1; n <= planned.records; n++) {
    if (planned.flags[n] !== 1) continue;
    const outcome = resumedOutcome(resumed, n);
    if (kept(outcome, retryUnknown)) {
      const status = outcome!.status as keyof Base['counts'];
      base.counts[status]++;
      const t = outcomeTokens(outcome!, planned.tokens[n]!);
      base.billedTokens += t.billed;
      base.possiblyBilledTokens += t.possiblyBilled;
    } else {
      sendable[n] = 1;
      toSend++;
    }
  }
  const { inFlight, settled, unreadable } = resumed;
  return { base, sendable, toSend, inFlight, settled, unreadable };
}

/** Runs the command; never throws for the user's own mistakes (those are InputErrors, exit 2). */
export async function runCommand(options: RunOptions, io: RunIo): Promise<RunResult> {
  const { view } = io;
  const session = options.session ? readSessionFile(options.session, options.sessionName) : null;
  const questions = options.questions
    ? readQuestionsFile(options.questions)
    : (session?.questions ??
      (() => {
        throw new InputError(
          session?.questionsProblem ??
            'Give the questions: --session session.json or --questions questions.json.',
        );
      })());
  const model = (options.model ?? session?.model ?? '').trim();
  if (model === '') throw new InputError('Give the model: --model <id>, or a session whose model is set.');
  for (const [question] of Object.entries(options.map.labels))
    if (!questions[question])
      throw new InputError(
        `--map label.${question}=… names no question; the questions are ${Object.keys(questions).join(', ')}.`,
      );

  const targets = cliTargets(io.env, io.local);
  const chosen = chooseTarget(targets, options.target ?? session?.targetId);
  if (typeof chosen === 'string') throw new InputError(chosen);
  if (options.budget !== null && chosen.inputPrice === null)
    throw new InputError(
      `The target "${chosen.id}" has no price (inputPrice in workbench.targets.json), so --budget cannot be held; set its price or leave out --budget.`,
    );
  const shard = options.shard ?? { index: 1, count: 1 };
  // A cascade's next judge sends only the rows the earlier run's judge abstained on.
  const escalation = options.escalateFrom
    ? escalationFrom(
        options.escalateFrom,
        options.escalateQuestion,
        questions,
        options.rows,
        options.alignment,
      )
    : null;
  if (escalation) view.say(escalationLine(escalation));

  // Pass 1: the columns (a CSV's are its header; JSON Lines name them row by row).
  const source = openRowsSource(options.rows);
  const { columns, objectRows, records } = await surveyColumns(source);
  collectGarbage();
  // A column named like a question is its human label unless --map says otherwise (the app's default too).
  const { spec: map, defaulted } = withDefaultLabels(
    resolveLabelColumns(options.map, columns),
    columns,
    objectRows,
    Object.keys(questions),
  );
  const mapping = mappingFor(map, columns, objectRows);

  // Pass 2: the plan of this shard's rows, kept as numbers by record (their tokens, whether they are sent).
  const planned: Planned = {
    // Sized by the first pass's count, so the plan's pass does not grow them by copies (the file read again has as many
    // records; grow covers one that changed in between).
    flags: new Uint8Array(records + 1),
    tokens: new Uint32Array(records + 1),
    rows: 0,
    totalTokens: 0,
    skipped: 0,
    records: 0,
  };
  const summary = await eachBatch(source, (batch) => {
    planned.skipped += batch.issues.filter((i) => i.severity === 'skip').length;
    const mine = batch.rows.filter(
      (row) => inShard(row, mapping, shard) && (escalation === null || escalation.rows.has(row.number)),
    );
    const plan = planRun(mine, mapping, questions, { stateTokens, questionTokens });
    planned.skipped += plan.issues.filter((i) => i.severity === 'skip').length;
    for (const row of plan.rows) {
      planned.flags = grow(planned.flags, row.number);
      planned.tokens = grow(planned.tokens, row.number);
      planned.flags[row.number] = 1;
      planned.tokens[row.number] = row.tokens;
    }
    planned.rows += plan.rows.length;
    planned.totalTokens += plan.totalTokens;
  });
  planned.records = summary.records;
  collectGarbage();

  const header: ResultsHeader = {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    createdAt: new Date().toISOString(),
    rowsFile: source.name,
    columns,
    targetId: chosen.id,
    model,
    questions,
    mapping,
    labels: headerLabels(map.labels),
    pacing: { ...chosen.pacing, ...options.pacing },
    ...(escalation && { escalatedFrom: escalation.from }),
    ...(options.shard && {
      shard: { ...options.shard, records: planned.records, planned: planned.rows },
    }),
  };
  const answers = new AnswerIndex(planned.rows);
  const { base, sendable, toSend, inFlight, settled, unreadable } = startFrom(
    openResults(options.out, header, planned.records, answers),
    planned,
    options.retryUnknown,
  );
  // Only the plan's pass and startFrom read which records are planned; the sendable ones are marked.
  planned.flags = new Uint8Array(0);
  collectGarbage();

  const store = new ResultsStore(options.out, answers, chosen.id);
  const pacing: Pacing = { ...chosen.pacing, ...options.pacing };
  const clock = io.clock ?? nodeClock;
  const pacer = new Pacer(pacing, clock);
  const meter = new RateMeter();
  const price = chosen.inputPrice;

  const already = settled;
  const shardText = options.shard ? ` (shard ${shard.index}/${shard.count})` : '';
  view.say(
    `${planned.rows.toLocaleString('en-US')} rows of ${header.rowsFile}${shardText} go to ${chosen.label} with ${model}` +
      `${already > 0 ? `; resuming ${options.out}, where ${already.toLocaleString('en-US')} are already settled` : ''}` +
      `; about ${planned.totalTokens.toLocaleString('en-US')} input tokens, ${
        price === null
          ? 'price unknown'
          : `≈ ${formatCost(estimateCost(planned.totalTokens, price))}${chosen.id === 'local' ? ` (${LOCAL_COST_WORDS})` : ''}`
      }.` +
      `${planned.skipped > 0 ? ` ${planned.skipped} lines are left out (listed in the summary).` : ''}` +
      `${isVersionedId(model) ? '' : ` ${model} is not a pinned version: answers are not reused across runs.`}`,
  );
  if (defaulted.length > 0) view.say(defaultLabelsLine(defaulted));
  if (unreadable > 0)
    view.say(
      `${unreadable} lines of ${options.out} could not be read (cut off mid-write); those rows run again.`,
    );

  let runner: RowRunner | null = null;
  let interrupted = false;
  let last: RunProgress | null = null;
  /** The progress of the whole run: kept rows, windows run so far, and the window running now. */
  const progressNow = (): RunProgress => {
    const p = runner?.progress();
    const settled = (k: keyof Base['counts']): number => base.counts[k] + (p?.[k] ?? 0);
    const billedTokens = base.billedTokens + (p?.billedTokens ?? 0);
    const possiblyBilledTokens = base.possiblyBilledTokens + (p?.possiblyBilledTokens ?? 0);
    const inFlight = p?.inFlight ?? 0;
    const done = settled('done');
    const reused = settled('reused');
    const invalid = settled('invalid');
    const failed = settled('failed');
    const unknown = settled('unknown');
    const pending = Math.max(0, planned.rows - done - reused - invalid - failed - unknown - inFlight);
    const phase = p?.phase ?? (last ? last.phase : 'idle');
    const now = clock.now();
    const rate = meter.perMinute(now);
    const pace = rate > 0 ? rate : pacer.settings.requestsPerMinute;
    return {
      phase,
      halt: p?.halt ?? null,
      total: planned.rows,
      done,
      reused,
      reusedEarlier: (p?.reusedEarlier ?? 0) + base.counts.reused,
      partlyReused: p?.partlyReused ?? 0,
      invalid,
      failed,
      unknown,
      pending,
      inFlight,
      billedTokens,
      possiblyBilledTokens,
      cost: estimateCost(billedTokens, price ?? 0),
      possiblyBilledCost: estimateCost(possiblyBilledTokens, price ?? 0),
      ratePerMinute: rate,
      etaMs: phase !== 'running' || pending + inFlight === 0 ? null : ((pending + inFlight) * 60_000) / pace,
      serviceWaitMs: p?.serviceWaitMs ?? null,
    };
  };

  const ticker = setInterval(() => view.update(progressNow()), 1000);
  const stopListening = io.onInterrupt((count) => {
    interrupted = true;
    if (count === 1) {
      view.say(
        'Stopping: rows in flight finish and are recorded. Ctrl+C again cancels them (they may be billed).',
      );
      runner?.pause();
    } else runner?.cancel();
  });

  let sentSinceCollected = 0;
  /** Runs one window of rows through its own runner; folds its outcome into the base; false when the run stops. */
  const runWindow = async (rows: SourceRow[]): Promise<boolean> => {
    const plan = planRun(
      rows,
      mapping,
      questions,
      { stateTokens, questionTokens },
      (row) => planned.tokens[row.number]!,
    );
    const ids = new Map(plan.rows.map((p) => [p.number, p.id]));
    store.setSources(
      new Map(rows.map((r) => [r.number, { ...r, id: ids.get(r.number) ?? String(r.number) }])),
    );
    const outcomes = new Map<number, RowOutcome>();
    for (const row of plan.rows) {
      // Cut off in flight last time: the runner records it as unknown ("may have been billed"), never re-sent silently.
      if (inFlight[row.number] === 1 && !options.retryUnknown)
        outcomes.set(row.number, {
          status: 'sending',
          at: Date.now(),
          attempts: 1,
          possiblyBilledAttempts: 0,
          requeues: 0,
        });
    }
    const spent = estimateCost(base.billedTokens + base.possiblyBilledTokens, price ?? 0);
    const current = new RowRunner(
      {
        targetId: chosen.id,
        target: chosen.client,
        model,
        questions,
        rows: plan.rows,
        outcomes,
        pacing,
        maxCost: options.budget === null ? null : Math.max(0, options.budget - spent),
        inputPrice: price,
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      },
      { evaluate, clock, store, pacer },
    );
    const unsubscribe = current.subscribe((update) => {
      if (update.outcome.status === 'sending') {
        meter.record(clock.now());
        if (++sentSinceCollected >= COLLECT_EVERY_ROWS) {
          sentSinceCollected = 0;
          collectGarbage();
        }
      }
      view.update(progressNow());
    });
    runner = current;
    let progress: RunProgress;
    try {
      progress = await current.run();
    } finally {
      unsubscribe();
    }
    for (const k of Object.keys(base.counts) as (keyof Base['counts'])[]) base.counts[k] += progress[k];
    base.billedTokens += progress.billedTokens;
    base.possiblyBilledTokens += progress.possiblyBilledTokens;
    runner = null;
    last = progress;
    collectGarbage();
    return !progress.halt && progress.pending === 0 && !interrupted;
  };

  let progress: RunProgress;
  try {
    view.update(progressNow());
    if (toSend > 0) {
      const batches = rowBatches(source);
      let window: SourceRow[] = [];
      let going = true;
      for (;;) {
        const next = await batches.next();
        if (next.done || interrupted) break;
        for (const row of next.value.rows) if (sendable[row.number] === 1) window.push(row);
        if (window.length >= WINDOW_ROWS) {
          going = await runWindow(window);
          window = [];
          if (!going) break;
        }
      }
      if (going && window.length > 0 && !interrupted) await runWindow(window);
      await batches.return(undefined as never);
    }
    const halt = (last as RunProgress | null)?.halt ?? null;
    progress = {
      ...progressNow(),
      phase: halt ? 'halted' : interrupted ? 'halted' : 'finished',
      halt:
        halt?.reason === 'budget'
          ? {
              ...halt,
              message: `Stopped before the budget cap of ${options.budget} would be passed; raise the cap to send the remaining rows.`,
            }
          : interrupted && !halt
            ? { reason: 'paused', message: 'Paused: resume to send the remaining rows.' }
            : halt,
      ratePerMinute: meter.perMinute(clock.now()),
      etaMs: null,
    };
    // The last line shown is the run's final count, not the one a row's last update left (its row still in flight).
    view.update(progress);
  } finally {
    clearInterval(ticker);
    stopListening();
    store.close();
    view.stop();
  }

  // The figures read the results file back as a stream, only when a gate or a report needs them.
  const wantFigures = options.gates.length > 0 || options.report !== undefined || options.junit !== undefined;
  const alignment = wantFigures
    ? alignmentOf(labelTableOf(linesOf(indexRows(options.out))), options.alignment)
    : null;
  const figures = new Map<string, Figure>(Object.entries(alignment?.figures ?? {}));
  const gates = checkGates(options.gates, figures, { strict: options.strict });
  const halt = progress.halt;
  const unanswered = progress.failed + progress.unknown;
  const ending = halt
    ? `Stopped: ${halt.message}`
    : unanswered > 0
      ? unansweredEnding(progress)
      : `Finished: every row settled (${progress.done} answered, ${progress.reused} reused, ${progress.invalid} refused).`;
  view.say(ending);
  for (const g of gates) view.say(`${g.passed ? 'pass' : 'FAIL'}: ${g.message}`);
  const runSummary = {
    rowsFile: header.rowsFile + shardText,
    out: options.out,
    target: chosen.label,
    model,
    progress,
    leftOut: planned.skipped,
    gates,
    figures,
    trust: trustSentencesOf(alignment),
    ending,
  };
  if (options.report) writeSummary(options.report, runSummary);
  if (options.junit) writeJunit(options.junit, gates);

  const code =
    halt?.reason === 'auth'
      ? EXIT.auth
      : interrupted
        ? EXIT.interrupted
        : halt || unanswered > 0
          ? EXIT.incomplete
          : gates.some((g) => !g.passed)
            ? EXIT.gateFailed
            : EXIT.ok;
  return { code, progress, gates, figures };
}
