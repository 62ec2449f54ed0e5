// `evaluate-workbench report`: the gates, the Markdown summary and the JUnit file of any results file (a merge of
// shards, one shard, or a whole run), read as a stream: the gate runs once, after the matrix.
import { estimateCost, formatCost, PRICE_PER_MILLION_INPUT_TOKENS } from '../contract';
import type { CascadeTables } from '../core/alignment/questionTrust';
import type { AlignmentOptions, AlignmentReport, Figure } from '../core/alignment';
import type { RunProgress } from '../core/rows/runTypes';
import type { Gate, GateResult } from './gates';
import { checkGates } from './gates';
import { InputError } from './inputs';
import { ledgerLines, readLedger } from './ledgerReport';
import { writeJunit, writeSummary } from './reports';
import { alignmentOf, indexRows, labelTableOf, linesOf, statusOf } from './resultsStream';
import type { LabelTable, RowIndex, RowLines } from './resultsStream';
import { trustSentencesOf } from './reports';

export interface ReportOptions {
  results: string;
  gates: Gate[];
  strict: boolean;
  /** How the figures are read (the trust options: epsilon, alpha, delta). */
  alignment?: Partial<AlignmentOptions>;
  /** A cascade's later judges: results files of runs of the same rows (escalated ones), in cascade order. */
  cascade?: string[];
  /** An app session export whose variant ledger counts the variants tried on these labelled rows. */
  ledger?: string;
  report?: string;
  junit?: string;
}

export interface ReportResult {
  /** 0 gates passed, 1 a gate failed, 4 rows without an answer or not sent. */
  code: number;
  progress: RunProgress;
  gates: GateResult[];
  figures: Map<string, Figure>;
  lines: string[];
}

/** The counts of a results file's newest lines. */
interface ResultsCounts {
  header: RowIndex['header'];
  unreadable: number;
  counts: Record<'done' | 'reused' | 'invalid' | 'failed' | 'unknown', number>;
  billedTokens: number;
}

/** What a report reads of a results file: the counts of its newest lines, and its labelled rows for the figures. */
function readResultsFile(file: string): ResultsCounts & { labelled: LabelTable | null } {
  const { read, lines } = countRows(indexRows(file));
  return { ...read, labelled: labelTableOf(lines) };
}

/**
 * The counts of a file's newest lines, and where those lines are: the rest of the index is let go before the rows are
 * read again for the figures, and all of it before the figures are computed (22 bytes a record of the rows file).
 */
function countRows(index: RowIndex): { read: ResultsCounts; lines: RowLines } {
  const counts = { done: 0, reused: 0, invalid: 0, failed: 0, unknown: 0 };
  let billedTokens = 0;
  for (let n = 1; n <= index.maxRow; n++) {
    const status = statusOf(index.status[n]!);
    if (status && status in counts) counts[status as keyof typeof counts]++;
    const billed = index.billed[n]!;
    if (status === 'done' && Number.isFinite(billed)) billedTokens += billed;
  }
  return {
    read: { header: index.header, unreadable: index.unreadable, counts, billedTokens },
    lines: linesOf(index),
  };
}

/** A judge as a cascade names it: its model at its target. */
const judgeName = (header: RowIndex['header']): string => `${header.model} at ${header.targetId}`;

/** The price a results file's run was billed at, per million input tokens, and the sentence when it is not known. */
interface RunPrice {
  perMillion: number;
  /** Why the published price stands in (an older file, or a target with no price), or null. */
  fallback: string | null;
}

/** The run's own price from its header; the published price, said in a sentence, where the header names none. */
export function runPriceOf(file: string, header: RowIndex['header']): RunPrice {
  if (typeof header.inputPrice === 'number') return { perMillion: header.inputPrice, fallback: null };
  const published = `the published ${formatCost(PRICE_PER_MILLION_INPUT_TOKENS)} per million input tokens`;
  return {
    perMillion: PRICE_PER_MILLION_INPUT_TOKENS,
    fallback:
      header.inputPrice === null
        ? `${file} was run on a target with no price configured: its cost is counted at ${published}.`
        : `${file} names no price (made before results files recorded one): its cost is counted at ${published}.`,
  };
}

/** Price per answered row at the run's price per million input tokens. */
const perRow = (done: number, billed: number, price: RunPrice): number =>
  done === 0 ? 0 : (billed / done / 1e6) * price.perMillion;

/** "model at target at $2.50 per million input tokens, as its run was billed" (or the published price, and why). */
const priceWords = (label: string, price: RunPrice): string =>
  `${label} at ${formatCost(price.perMillion)} per million input tokens${price.fallback ? ' (the published price: its run named none)' : ', as its run was billed'}`;

/** The cascade of the report's file (the first judge) and the later judges' files, checked to answer the same rows. */
function cascadeOf(
  file: string,
  header: RowIndex['header'],
  done: number,
  billed: number,
  first: LabelTable | null,
  later: readonly string[],
  prices: string[],
): CascadeTables | undefined {
  if (later.length === 0) return undefined;
  const judges: CascadeTables['judges'] = [];
  const firstPrice = runPriceOf(file, header);
  prices.push(priceWords(judgeName(header), firstPrice));
  for (const other of later) {
    const read = readResultsFile(other);
    if (read.header.rowsFile !== header.rowsFile)
      throw new InputError(
        `--cascade ${other} is a run of ${read.header.rowsFile}, not of ${header.rowsFile}: a cascade's judges answer the same rows.`,
      );
    if (!read.labelled)
      throw new InputError(`--cascade ${other} has no label columns: map the same labels as ${file}.`);
    const price = runPriceOf(other, read.header);
    prices.push(priceWords(judgeName(read.header), price));
    judges.push({
      label: judgeName(read.header),
      price: perRow(read.counts.done, read.billedTokens, price),
      table: read.labelled.table,
    });
  }
  if (!first) throw new InputError(`${file} has no label columns: a cascade is certified on labelled rows.`);
  return {
    lastAnswersAll: false,
    judges: [
      { label: judgeName(header), price: perRow(done, billed, firstPrice), table: first.table },
      ...judges,
    ],
  };
}

/** Which predictor the prediction-powered estimates rest on, by question, in one line (none without estimates). */
function predictorLines(alignment: AlignmentReport | null): string[] {
  const used = Object.values(alignment?.questions ?? {}).flatMap((q) => {
    const e = q.trust?.estimates.find((x) => x.ppi !== null);
    return e
      ? [`${q.name} on the judge's ${e.predictor === 'probability' ? 'probabilities' : 'hard labels'}`]
      : [];
  });
  return used.length === 0
    ? []
    : [`Prevalence by prediction-powered inference: ${used.join('; ')} (--ppi-predictor probability|label).`];
}

type Counts = ResultsCounts['counts'];
type Header = ResultsCounts['header'];

/** A finished run's progress as the results file tells it: what was settled, what was never sent. */
function finishedProgress(
  counts: Counts,
  planned: number,
  billedTokens: number,
  perMillion: number,
): RunProgress {
  const settled = counts.done + counts.reused + counts.invalid + counts.failed + counts.unknown;
  return {
    phase: 'finished',
    halt: null,
    total: planned,
    ...counts,
    reusedEarlier: 0,
    partlyReused: 0,
    pending: Math.max(0, planned - settled),
    inFlight: 0,
    billedTokens,
    possiblyBilledTokens: 0,
    cost: estimateCost(billedTokens, perMillion),
    possiblyBilledCost: 0,
    ratePerMinute: 0,
    etaMs: null,
    serviceWaitMs: null,
  };
}

/** What the results file is: a merge of shards, one shard, or one run. */
const fileKindOf = (header: Header): string =>
  header.merged
    ? `a merge of ${header.merged.shards.length} of ${header.merged.count} shards`
    : header.shard
      ? `shard ${header.shard.index}/${header.shard.count}`
      : 'one run';

/** A merge's shards that never came, by number. */
const shardsMissingOf = (header: Header): number[] => {
  const merged = header.merged;
  return merged
    ? Array.from({ length: merged.count }, (_, i) => i + 1).filter((i) => !merged.shards.includes(i))
    : [];
};

/** The report's last word: missing shards, rows not sent or unanswered, or what was read. */
function endingOf(results: string, header: Header, counts: Counts, progress: RunProgress): string {
  const what = fileKindOf(header);
  const shardsMissing = shardsMissingOf(header);
  const missing = progress.pending;
  const unanswered = counts.failed + counts.unknown;
  const planned = progress.total;
  const settled = counts.done + counts.reused + counts.invalid + counts.failed + counts.unknown;
  if (shardsMissing.length > 0)
    return `Not complete: ${results} is ${what}; shard${shardsMissing.length === 1 ? '' : 's'} ${shardsMissing.map((i) => `${i}/${header.merged!.count}`).join(', ')} ${shardsMissing.length === 1 ? 'is' : 'are'} missing, so the figures are of part of the rows.`;
  if (missing > 0 || unanswered > 0)
    return `Not complete: ${results} (${what}) has ${[
      missing > 0 ? `${missing.toLocaleString('en-US')} rows not sent` : '',
      unanswered > 0
        ? `${unanswered.toLocaleString('en-US')} without an answer (${counts.failed} failed, ${counts.unknown} unknown)`
        : '',
    ]
      .filter(Boolean)
      .join(' and ')} of ${planned.toLocaleString('en-US')}; the figures are of the rows answered.`;
  return `Read ${results} (${what}): ${settled.toLocaleString('en-US')} rows, ${counts.done.toLocaleString('en-US')} answered, ${counts.reused.toLocaleString('en-US')} reused, ${counts.invalid.toLocaleString('en-US')} refused.`;
}

/** Reads a results file and checks the gates on its figures; writes the summary and JUnit files when asked. */
export function reportCommand(options: ReportOptions): ReportResult {
  const { header, unreadable, counts, billedTokens, labelled } = readResultsFile(options.results);
  const price = runPriceOf(options.results, header);
  const settled = counts.done + counts.reused + counts.invalid + counts.failed + counts.unknown;
  const planned = header.merged?.planned ?? header.shard?.planned ?? settled;
  const progress = finishedProgress(counts, planned, billedTokens, price.perMillion);
  const prices: string[] = [];
  const alignment = alignmentOf(
    labelled,
    options.alignment,
    cascadeOf(options.results, header, counts.done, billedTokens, labelled, options.cascade ?? [], prices),
  );
  const figures = new Map(Object.entries(alignment?.figures ?? {}));
  const gates = checkGates(options.gates, figures, { strict: options.strict });
  const ending = endingOf(options.results, header, counts, progress);
  const lines = [
    ending,
    ...(price.fallback ? [price.fallback] : []),
    ...(prices.length > 0 ? [`The cascade's costs: ${prices.join('; ')}.`] : []),
    ...predictorLines(alignment),
    ...gates.map((g) => `${g.passed ? 'pass' : 'FAIL'}: ${g.message}`),
  ];
  if (options.ledger) {
    const ledger = readLedger(options.ledger);
    const questions = labelled?.questions ?? null;
    lines.push(...ledgerLines(options.ledger, ledger, planned, questions, figures));
  }
  if (unreadable > 0)
    lines.splice(1, 0, `${unreadable} lines of ${options.results} could not be read and are left out.`);
  if (options.report)
    writeSummary(options.report, {
      rowsFile: `${header.rowsFile} (${fileKindOf(header)})`,
      out: options.results,
      target: header.targetId,
      model: header.model,
      progress,
      leftOut: null,
      gates,
      figures,
      trust: trustSentencesOf(alignment),
      priceWords: price.fallback
        ? `at the published price: ${options.results} names none`
        : `at the run's ${formatCost(price.perMillion)} per million input tokens`,
      ending,
    });
  if (options.junit) writeJunit(options.junit, gates);
  const incomplete =
    shardsMissingOf(header).length > 0 || progress.pending > 0 || counts.failed + counts.unknown > 0;
  const code = incomplete ? 4 : gates.some((g) => !g.passed) ? 1 : 0;
  return { code, progress, gates, figures, lines };
}
