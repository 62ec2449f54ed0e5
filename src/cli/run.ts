// `evaluate-workbench run`: a session (or questions) and a file of rows, through the app's own runner, pacer, dedup and
// retrying client, to a results file that resumes; then the alignment figures, the gates and the CI reports. The
// command is a sequence of named steps, each with its own inputs and outputs: read the inputs, choose the target, plan
// (escalation, columns, this shard's rows, where a resume starts), send (./runSend.ts), settle, and report.
import { abortableSleep } from '../client';
import type { Questions } from '../contract';
import { estimateCost, formatCost, isVersionedId } from '../contract';
import type { AlignmentOptions, Figure } from '../core/alignment';
import type { Clock, Pacing } from '../core/rows/pacer';
import type { ResultsHeader } from '../core/rows/resultsFile';
import { RESULTS_FORMAT, RESULTS_VERSION } from '../core/rows/resultsFile';
import type { RunProgress } from '../core/rows/runTypes';
import { LOCAL_COST_WORDS } from '../core/words';
import type { ServerEnv } from '../server/env';
import type { Escalation } from './escalate';
import { escalationFrom, escalationLine } from './escalate';
import { EXIT } from './exit';
import type { Gate, GateResult } from './gates';
import { checkGates } from './gates';
import type { FromSession, MapSpec } from './inputs';
import { InputError, defaultLabelsLine, headerLabels, readQuestionsFile, readSessionFile } from './inputs';
import { collectGarbage } from './memory';
import type { ProgressView } from './progress';
import { trustSentencesOf, writeJunit, writeSummary } from './reports';
import { AnswerIndex, ResultsStore, openResults } from './resultsStore';
import { alignmentOf, indexRows, labelTableOf, linesOf } from './resultsStream';
import type { Planned, RowsLayout, Start } from './runPlan';
import { planRows, readLayout, startFrom } from './runPlan';
import type { Sent } from './runSend';
import { sendRows } from './runSend';
import { openRowsSource } from './rowsStream';
import type { RowsSource } from './rowsStream';
import type { Shard } from './shard';
import type { CliTarget, LocalReferenceFactory } from './targets';
import { chooseTarget, cliTargets } from './targets';

export { EXIT };
export { WINDOW_ROWS } from './runSend';

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

/** What the run was given: the questions (from --questions or the session) and the model. */
export interface RunInputs {
  session: FromSession | null;
  questions: Questions;
  model: string;
}

/** Step 1, read the inputs: the session or questions file and the model; every --map label names a question. */
export function readInputs(options: RunOptions): RunInputs {
  const session = options.session ? readSessionFile(options.session, options.sessionName) : null;
  const questions = options.questions ? readQuestionsFile(options.questions) : session?.questions;
  if (!questions)
    throw new InputError(
      session?.questionsProblem ??
        'Give the questions: --session session.json or --questions questions.json.',
    );
  const model = (options.model ?? session?.model ?? '').trim();
  if (model === '') throw new InputError('Give the model: --model <id>, or a session whose model is set.');
  for (const question of Object.keys(options.map.labels))
    if (!questions[question])
      throw new InputError(
        `--map label.${question}=… names no question; the questions are ${Object.keys(questions).join(', ')}.`,
      );
  return { session, questions, model };
}

/** Step 2, choose the target: --target, else the session's, else the first with a key; a budget needs its price. */
export function chooseRunTarget(
  options: Pick<RunOptions, 'target' | 'budget'>,
  session: FromSession | null,
  io: Pick<RunIo, 'env' | 'local'>,
): CliTarget {
  const chosen = chooseTarget(cliTargets(io.env, io.local), options.target ?? session?.targetId);
  if (typeof chosen === 'string') throw new InputError(chosen);
  if (options.budget !== null && chosen.inputPrice === null)
    throw new InputError(
      `The target "${chosen.id}" has no price (inputPrice in workbench.targets.json), so --budget cannot be held; set its price or leave out --budget.`,
    );
  return chosen;
}

/** The plan of a run: what it reads, which rows it sends, the header of its results file and where it starts. */
export interface RunPlan {
  source: RowsSource;
  layout: RowsLayout;
  escalation: Escalation | null;
  planned: Planned;
  header: ResultsHeader;
  answers: AnswerIndex;
  start: Start;
}

/** The first line of the results file: what was run, so a resume can refuse a file made by another run. */
function headerOf(
  options: RunOptions,
  inputs: RunInputs,
  target: CliTarget,
  plan: { source: RowsSource; layout: RowsLayout; escalation: Escalation | null; planned: Planned },
): ResultsHeader {
  return {
    format: RESULTS_FORMAT,
    version: RESULTS_VERSION,
    createdAt: new Date().toISOString(),
    rowsFile: plan.source.name,
    columns: plan.layout.columns,
    targetId: target.id,
    model: inputs.model,
    questions: inputs.questions,
    mapping: plan.layout.mapping,
    labels: headerLabels(plan.layout.map.labels),
    pacing: { ...target.pacing, ...options.pacing },
    // The price the run is billed at, so a report costs this file (and a cascade's judges) as it was billed.
    inputPrice: target.inputPrice,
    ...(plan.escalation && { escalatedFrom: plan.escalation.from }),
    ...(options.shard && {
      shard: { ...options.shard, records: plan.planned.records, planned: plan.planned.rows },
    }),
  };
}

/**
 * Step 3, plan: the escalation's rows, the rows file's columns and mapping, this shard's rows and their tokens (a CSV
 * in one pass, other files in two), then where a resume of the results file starts.
 */
export async function planTheRun(
  options: RunOptions,
  inputs: RunInputs,
  target: CliTarget,
  view: ProgressView,
): Promise<RunPlan> {
  // A cascade's next judge sends only the rows the earlier run's judge abstained on.
  const escalation = options.escalateFrom
    ? escalationFrom(
        options.escalateFrom,
        options.escalateQuestion,
        inputs.questions,
        options.rows,
        options.alignment,
      )
    : null;
  if (escalation) view.say(escalationLine(escalation));
  const source = openRowsSource(options.rows);
  const { layout, records } = await readLayout(source, options.map, inputs.questions);
  const shard = options.shard ?? { index: 1, count: 1 };
  const planned = await planRows(source, layout.mapping, inputs.questions, { shard, escalation, records });
  const header = headerOf(options, inputs, target, { source, layout, escalation, planned });
  const answers = new AnswerIndex(planned.rows);
  const resumed = openResults(options.out, header, planned.records, answers);
  const start = startFrom(resumed, planned, options.retryUnknown);
  // Only the plan's pass and startFrom read which records are planned; the sendable ones are marked.
  planned.flags = new Uint8Array(0);
  collectGarbage();
  return { source, layout, escalation, planned, header, answers, start };
}

/** What the run is about to do, in one sentence: rows, target, model, a resume, tokens and price, lines left out. */
export function openingLine(
  options: Pick<RunOptions, 'out' | 'shard'>,
  model: string,
  target: CliTarget,
  plan: Pick<RunPlan, 'planned' | 'header' | 'start'>,
): string {
  const { planned } = plan;
  const already = plan.start.settled;
  const price = target.inputPrice;
  const shardText = options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : '';
  return (
    `${planned.rows.toLocaleString('en-US')} rows of ${plan.header.rowsFile}${shardText} go to ${target.label} with ${model}` +
    `${already > 0 ? `; resuming ${options.out}, where ${already.toLocaleString('en-US')} are already settled` : ''}` +
    `; about ${planned.totalTokens.toLocaleString('en-US')} input tokens, ${
      price === null
        ? 'price unknown'
        : `≈ ${formatCost(estimateCost(planned.totalTokens, price))}${target.id === 'local' ? ` (${LOCAL_COST_WORDS})` : ''}`
    }.` +
    `${planned.skipped > 0 ? ` ${planned.skipped} lines are left out (listed in the summary).` : ''}` +
    `${isVersionedId(model) ? '' : ` ${model} is not a pinned version: answers are not reused across runs.`}`
  );
}

/** Says what the run is about to do, the label columns taken by default, and lines of a resume that were cut off. */
function announce(
  view: ProgressView,
  options: RunOptions,
  inputs: RunInputs,
  target: CliTarget,
  plan: RunPlan,
): void {
  view.say(openingLine(options, inputs.model, target, plan));
  if (plan.layout.defaulted.length > 0) view.say(defaultLabelsLine(plan.layout.defaulted));
  if (plan.start.unreadable > 0)
    view.say(
      `${plan.start.unreadable} lines of ${options.out} could not be read (cut off mid-write); those rows run again.`,
    );
}

/** Step 5, settle: the run's final progress, with the sentence of why it stopped (a budget, a pause) when it did. */
export function settleProgress(sent: Sent, budget: number | null): RunProgress {
  const halt = sent.last?.halt ?? null;
  return {
    ...sent.progress,
    phase: halt || sent.interrupted ? 'halted' : 'finished',
    halt:
      halt?.reason === 'budget'
        ? {
            ...halt,
            message: `Stopped before the budget cap of ${budget} would be passed; raise the cap to send the remaining rows.`,
          }
        : sent.interrupted && !halt
          ? { reason: 'paused', message: 'Paused: resume to send the remaining rows.' }
          : halt,
    etaMs: null,
  };
}

/** How the run ended, in one sentence. */
export function endingOf(progress: RunProgress): string {
  if (progress.halt) return `Stopped: ${progress.halt.message}`;
  if (progress.failed + progress.unknown > 0) return unansweredEnding(progress);
  return `Finished: every row settled (${progress.done} answered, ${progress.reused} reused, ${progress.invalid} refused).`;
}

/** The exit code: a refused key, an interrupt, rows without an answer, a failed gate, or none of these. */
export function exitCodeOf(progress: RunProgress, interrupted: boolean, gates: GateResult[]): number {
  if (progress.halt?.reason === 'auth') return EXIT.auth;
  if (interrupted) return EXIT.interrupted;
  if (progress.halt || progress.failed + progress.unknown > 0) return EXIT.incomplete;
  return gates.some((g) => !g.passed) ? EXIT.gateFailed : EXIT.ok;
}

/**
 * Step 6, report: the figures read back from the results file (only when a gate or a report needs them), the gates,
 * the last sentence, the Markdown summary and the JUnit file.
 */
export function reportRun(
  options: RunOptions,
  run: { inputs: RunInputs; target: CliTarget; plan: RunPlan; progress: RunProgress; interrupted: boolean },
  view: ProgressView,
): RunResult {
  const { progress } = run;
  const wantFigures = options.gates.length > 0 || options.report !== undefined || options.junit !== undefined;
  const alignment = wantFigures
    ? alignmentOf(labelTableOf(linesOf(indexRows(options.out))), options.alignment)
    : null;
  const figures = new Map<string, Figure>(Object.entries(alignment?.figures ?? {}));
  const gates = checkGates(options.gates, figures, { strict: options.strict });
  const ending = endingOf(progress);
  view.say(ending);
  for (const g of gates) view.say(`${g.passed ? 'pass' : 'FAIL'}: ${g.message}`);
  const shardText = options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : '';
  if (options.report)
    writeSummary(options.report, {
      rowsFile: run.plan.header.rowsFile + shardText,
      out: options.out,
      target: run.target.label,
      model: run.inputs.model,
      progress,
      leftOut: run.plan.planned.skipped,
      gates,
      figures,
      trust: trustSentencesOf(alignment),
      ending,
    });
  if (options.junit) writeJunit(options.junit, gates);
  return { code: exitCodeOf(progress, run.interrupted, gates), progress, gates, figures };
}

/**
 * Lets go of what only sending read (each record's tokens, which to send, which were in flight, where each answer's
 * line is: about 17 MB at a million rows) before the figures read the results file back (issue 43: a run's own --min
 * at its end peaked above a report's).
 */
function releaseSending(plan: RunPlan): void {
  plan.planned.tokens = new Uint32Array(0);
  plan.start.sendable = new Uint8Array(0);
  plan.start.inFlight = new Uint8Array(0);
  plan.answers.clear();
  collectGarbage();
}

/** Runs the command; never throws for the user's own mistakes (those are InputErrors, exit 2). */
export async function runCommand(options: RunOptions, io: RunIo): Promise<RunResult> {
  const { view } = io;
  const inputs = readInputs(options);
  const target = chooseRunTarget(options, inputs.session, io);
  const plan = await planTheRun(options, inputs, target, view);
  const store = new ResultsStore(options.out, plan.answers, target.id);
  announce(view, options, inputs, target, plan);
  let progress: RunProgress;
  let interrupted: boolean;
  try {
    const sent = await sendRows(
      {
        source: plan.source,
        mapping: plan.layout.mapping,
        questions: inputs.questions,
        model: inputs.model,
        target,
        pacing: { ...target.pacing, ...options.pacing },
        budget: options.budget,
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
        retryUnknown: options.retryUnknown,
        planned: plan.planned,
        start: plan.start,
        store,
      },
      { view, onInterrupt: io.onInterrupt, clock: io.clock ?? nodeClock },
    );
    progress = settleProgress(sent, options.budget);
    interrupted = sent.interrupted;
    // The last line shown is the run's final count, not the one a row's last update left (its row still in flight).
    view.update(progress);
  } finally {
    store.close();
    view.stop();
  }
  releaseSending(plan);
  return reportRun(options, { inputs, target, plan, progress, interrupted }, view);
}
