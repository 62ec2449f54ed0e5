// The files a headless run leaves for CI: a Markdown summary (fit for a CI step summary) and a JUnit file with one test
// case per gate (junit-report-builder). Owns writing them.
import { writeFileSync } from 'node:fs';
import junit from 'junit-report-builder';
import type { RunProgress } from '../core/rows/runTypes';
import { formatCost } from '../contract';
import type { AlignmentReport, Figure } from '../core/alignment';
import { trustSentences } from '../core/alignment/trustReport';
import type { GateResult } from './gates';

export interface RunSummary {
  rowsFile: string;
  out: string;
  target: string;
  model: string;
  progress: RunProgress;
  /** Lines of the rows file that were not sent, with why (counted); null when unknown (a report of a results file). */
  leftOut: number | null;
  gates: GateResult[];
  figures: ReadonlyMap<string, Figure>;
  /** "Can the judge replace a person?", its sentences by question (absent without labels). */
  trust?: Record<string, string[]>;
  /** How the cost was counted, in place of "from the price list" (a report names the price its file records). */
  priceWords?: string;
  /** How the run ended, in one sentence. */
  ending: string;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const num = (x: number | null | undefined): string =>
  x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(3);

/** The trust sentences of each question of a report that has them. */
export function trustSentencesOf(report: AlignmentReport | null): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const q of Object.values(report?.questions ?? {})) if (q.trust) out[q.name] = trustSentences(q.trust);
  return out;
}

/** The Markdown summary. */
export function summaryMarkdown(s: RunSummary): string {
  const p = s.progress;
  const failedGates = s.gates.filter((g) => !g.passed);
  const unanswered = p.failed + p.unknown;
  const title = [
    unanswered > 0 ? `${unanswered} row${unanswered === 1 ? '' : 's'} without an answer` : '',
    failedGates.length > 0
      ? `${failedGates.length} of ${s.gates.length} gates failed`
      : s.gates.length > 0
        ? 'all gates passed'
        : unanswered > 0
          ? ''
          : 'finished',
  ].filter(Boolean);
  const lines = [
    `# Evaluate Workbench run: ${title.join('; ')}`,
    '',
    s.ending,
    '',
    `| | |`,
    `|---|---|`,
    `| Rows file | ${cell(s.rowsFile)} |`,
    `| Target, model | ${cell(s.target)}, ${cell(s.model)} |`,
    `| Rows | ${p.total} to send: ${p.done} answered, ${p.reused} reused, ${p.invalid} refused (422), ${p.failed} failed, ${p.unknown} unknown (may have been billed), ${p.pending + p.inFlight} not sent${s.leftOut === null ? '' : `; ${s.leftOut} lines left out before sending`} |`,
    `| Input tokens, cost | ${p.billedTokens.toLocaleString('en-US')} billed, ≈ ${formatCost(p.cost)} (estimate ${s.priceWords ?? 'from the price list'}) |`,
    `| Results | ${cell(s.out)} |`,
  ];
  if (s.gates.length > 0) {
    lines.push('', '## Gates', '', '| Gate | Figure | 95% interval | n | Result |', '|---|---|---|---|---|');
    for (const g of s.gates) {
      lines.push(
        `| ${cell(`${g.key} ${g.kind === 'min' ? '≥' : '≤'} ${g.bound}`)} | ${num(g.figure?.value)} | ${g.figure && g.figure.lo != null ? `${num(g.figure.lo)} to ${num(g.figure.hi)}` : '—'} | ${g.figure?.n ?? '—'} | ${g.passed ? 'pass' : `**fail**: ${cell(g.message)}`} |`,
      );
    }
  }
  for (const [question, sentences] of Object.entries(s.trust ?? {}))
    lines.push(
      '',
      `## Can the judge replace a person? ${cell(question)}`,
      '',
      ...sentences.flatMap((t) => [t, '']),
    );
  if (s.figures.size > 0) {
    lines.push(
      '',
      '## Figures',
      '',
      '| Figure | Value | 95% interval | n | Method |',
      '|---|---|---|---|---|',
    );
    for (const [key, f] of s.figures)
      lines.push(
        `| ${cell(key)} | ${f.value === null ? `undefined (${cell(f.undefinedReason ?? '')})` : num(f.value)} | ${f.lo != null ? `${num(f.lo)} to ${num(f.hi)}` : '—'} | ${f.n} | ${cell(f.method ?? '')} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the JUnit file: one suite, one case per gate (a failure carries the gate's sentence). */
export function writeJunit(
  file: string,
  gates: readonly GateResult[],
  suiteName = 'evaluate-workbench gates',
): void {
  const builder = junit.newBuilder();
  const suite = builder.testSuite().name(suiteName);
  for (const g of gates) {
    const testCase = suite
      .testCase()
      .className('evaluate-workbench.gates')
      .name(`${g.key} ${g.kind === 'min' ? '>=' : '<='} ${g.bound}`);
    if (!g.passed) testCase.failure(g.message);
    else testCase.standardOutput(g.message);
  }
  builder.writeTo(file);
}

export const writeSummary = (file: string, summary: RunSummary): void =>
  writeFileSync(file, summaryMarkdown(summary));
