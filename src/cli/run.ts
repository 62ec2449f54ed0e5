// `evaluate-workbench run`: a session (or questions) and a file of rows, through the app's own runner, pacer, dedup and
// retrying client, to a results file that resumes; then the alignment figures, the gates and the CI reports.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { abortableSleep, evaluate } from '../client';
import { estimateCost, formatCost, isVersionedId } from '../contract';
import type { Questions } from '../contract';
import { computeAlignment } from '../core/alignment';
import type { AlignRow, Figure } from '../core/alignment';
import { labelColumnsOf, readLabels } from '../core/labels';
import type { Clock, Pacing } from '../core/rows/pacer';
import { DEFAULT_PACING } from '../core/rows/pacer';
import type { RowOutcome } from '../core/rows/records';
import type { ResultsHeader, ReadRow } from '../core/rows/resultsFile';
import { RESULTS_FORMAT, RESULTS_VERSION, readResults } from '../core/rows/resultsFile';
import { planRun } from '../core/rows/runPlan';
import type { RunProgress } from '../core/rows/runner';
import { RowRunner } from '../core/rows/runner';
import { questionTokens, stateTokens } from '../contract/tokens';
import type { ServerEnv } from '../server/env';
import type { Gate, GateResult } from './gates';
import { checkGates } from './gates';
import type { MapSpec } from './inputs';
import {
  InputError,
  defaultLabelsLine,
  mappingFor,
  readQuestionsFile,
  readRowsFile,
  readSessionFile,
  withDefaultLabels,
} from './inputs';
import type { ProgressView } from './progress';
import { writeJunit, writeSummary } from './reports';
import { ResultsStore, answersOf, openResults } from './resultsStore';
import { chooseTarget, cliTargets } from './targets';
import type { LocalReferenceFactory } from './targets';
import { LOCAL_COST_WORDS } from '../core/words';

/** Exit codes, as the README lists them. */
export const EXIT = {
  ok: 0,
  gateFailed: 1,
  usage: 2,
  auth: 3,
  incomplete: 4,
  interrupted: 130,
} as const;

export interface RunOptions {
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
}

export interface RunIo {
  env: ServerEnv;
  /** Creates the in-process reference for the local target: the composition root (main.ts) hands it in. */
  local?: LocalReferenceFactory;
  view: ProgressView;
  /** Resolves when the user asks to stop (Ctrl+C); a second resolve asks to cancel rows in flight. */
  onInterrupt(handler: (count: number) => void): () => void;
  clock?: Clock;
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

/** Outcomes to resume from: settled rows stay settled, rows cut off in flight become unknown (or are retried). */
function resumeOutcomes(
  settled: ReadonlyMap<number, ReadRow>,
  inFlight: ReadonlySet<number>,
  retryUnknown: boolean,
): Map<number, RowOutcome> {
  const outcomes = new Map<number, RowOutcome>();
  for (const [n, row] of settled) {
    const o = row.outcome;
    // A failure that billed nothing is sent again; one that may have billed waits for --retry-unknown.
    if (o.status === 'failed' && o.possiblyBilledAttempts === 0) continue;
    if (retryUnknown && (o.status === 'unknown' || o.status === 'failed')) continue;
    outcomes.set(n, o);
  }
  for (const n of inFlight) {
    if (outcomes.has(n) || retryUnknown) continue;
    // The runner turns a stored 'sending' into unknown and writes it: "may have been billed", never re-sent silently.
    outcomes.set(n, {
      status: 'sending',
      at: Date.now(),
      attempts: 1,
      possiblyBilledAttempts: 0,
      requeues: 0,
    });
  }
  return outcomes;
}

/** The alignment figures of the labelled rows, flat by "question.metric". */
function figuresOf(
  questions: Questions,
  rows: readonly ReadRow[],
  labels: Record<string, string>,
): Map<string, Figure> {
  if (Object.keys(labels).length === 0) return new Map();
  const columns = labelColumnsOf(labels);
  const align: AlignRow[] = rows.map((row) => ({
    id: row.id,
    labels: readLabels(row.data, columns, questions) ?? {},
    ...(row.response && { answers: row.response.answers }),
  }));
  return new Map(Object.entries(computeAlignment(questions, align).figures));
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

  const file = readRowsFile(options.rows);
  const objectRows = file.rows.some(
    (r) => r.data !== null && typeof r.data === 'object' && !Array.isArray(r.data),
  );
  // A column named like a question is its human label unless --map says otherwise (the app's default too).
  const { spec: map, defaulted } = withDefaultLabels(
    options.map,
    file.summary.columns,
    objectRows,
    Object.keys(questions),
  );
  const mapping = mappingFor(map, file.summary.columns, objectRows);
  const plan = planRun(file.rows, mapping, questions, { stateTokens, questionTokens });
  const skipped = plan.issues.filter((i) => i.severity === 'skip').length + file.issues.length;

  const pacing: Pacing = { ...DEFAULT_PACING, ...options.pacing };
  const header: ResultsHeader = {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    createdAt: new Date().toISOString(),
    rowsFile: basename(options.rows),
    columns: file.summary.columns,
    targetId: chosen.id,
    model,
    questions,
    mapping,
    labels: map.labels,
    pacing,
  };
  const resumed = openResults(options.out, header);
  const ids = new Map(plan.rows.map((p) => [p.number, p.id]));
  const sources = new Map(
    file.rows.map((r) => [r.number, { ...r, id: ids.get(r.number) ?? String(r.number) }]),
  );
  const store = new ResultsStore(
    options.out,
    sources,
    answersOf(resumed.settled.values(), chosen.id),
    chosen.id,
  );

  const runner = new RowRunner(
    {
      targetId: chosen.id,
      target: chosen.client,
      model,
      questions,
      rows: plan.rows,
      outcomes: resumeOutcomes(resumed.settled, resumed.inFlight, options.retryUnknown),
      pacing,
      maxCost: options.budget,
      inputPrice: chosen.inputPrice,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    },
    { evaluate, clock: io.clock ?? nodeClock, store },
  );

  const already = resumed.settled.size;
  view.say(
    `${plan.rows.length.toLocaleString('en-US')} rows of ${header.rowsFile} go to ${chosen.label} with ${model}` +
      `${already > 0 ? `; resuming ${options.out}, where ${already.toLocaleString('en-US')} are already settled` : ''}` +
      `; about ${plan.totalTokens.toLocaleString('en-US')} input tokens, ${
        chosen.inputPrice === null
          ? 'price unknown'
          : `≈ ${formatCost(estimateCost(plan.totalTokens, chosen.inputPrice))}${chosen.id === 'local' ? ` (${LOCAL_COST_WORDS})` : ''}`
      }.` +
      `${skipped > 0 ? ` ${skipped} lines are left out (listed in the summary).` : ''}` +
      `${isVersionedId(model) ? '' : ` ${model} is not a pinned version: answers are not reused across runs.`}`,
  );
  if (defaulted.length > 0) view.say(defaultLabelsLine(defaulted));
  if (resumed.unreadable > 0)
    view.say(
      `${resumed.unreadable} lines of ${options.out} could not be read (cut off mid-write); those rows run again.`,
    );

  const unsubscribe = runner.subscribe(() => view.update(runner.progress()));
  const ticker = setInterval(() => view.update(runner.progress()), 1000);
  let interrupted = false;
  const stopListening = io.onInterrupt((count) => {
    interrupted = true;
    if (count === 1) {
      view.say(
        'Stopping: rows in flight finish and are recorded. Ctrl+C again cancels them (they may be billed).',
      );
      runner.pause();
    } else runner.cancel();
  });
  let progress: RunProgress;
  try {
    view.update(runner.progress());
    progress = await runner.run();
  } finally {
    clearInterval(ticker);
    unsubscribe();
    stopListening();
    view.stop();
  }

  // The figures read the results file back once, so the run itself never holds every answer in memory.
  const final = readResults(readFileSync(options.out, 'utf8'));
  const figures = final.ok ? figuresOf(questions, final.results.rows, map.labels) : new Map<string, Figure>();
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
  const summary = {
    rowsFile: header.rowsFile,
    out: options.out,
    target: chosen.label,
    model,
    progress,
    leftOut: skipped,
    gates,
    figures,
    ending,
  };
  if (options.report) writeSummary(options.report, summary);
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
