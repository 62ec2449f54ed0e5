// `report --active`: a run labelled in active order in the app, exported as JSONL (each label with its probability of
// having been asked), read back by the command line: every target's estimate, the page's among them to the digit, and
// a sentence for an export with no probabilities or a missing --questions.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Questions } from '../../../src/contract';
import { seededRandom } from '../../../src/contract/random';
import { activeReportLines } from '../../../src/cli/activeReport';
import { InputError } from '../../../src/cli/inputs';
import { activeEstimateOf, newActiveOrder, plannedOrder } from '../../../src/core/alignment/labelOrder';
import { exportJsonl } from '../../../src/core/rows/exportJsonl';
import type { ResultRow } from '../../../src/core/rows/results';
import { activeSavingSentence } from '../../../src/core/trust/active';
import { spawnCli } from '../../helpers/cliProcess';

const dir = mkdtempSync(join(tmpdir(), 'ew-active-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const questions: Questions = { urgent: { type: 'noul', instructions: 'Urgent?' } };
const random = seededRandom(7);
const rows: ResultRow[] = Array.from({ length: 200 }, (_, i) => {
  const p = [0.03, 0.5, 0.97, 0.6][i % 4]!;
  return {
    number: i + 1,
    line: i + 2,
    id: `t${i + 1}`,
    data: { id: `t${i + 1}`, text: `ticket ${i + 1}` },
    response: {
      model: 'model-1.13.0',
      answers: { urgent: { type: 'noul', noul: p } },
      usage: { input_tokens: 5, output_tokens: 0 },
    },
  };
});
const order = { ...newActiveOrder(questions.urgent!, rows.length, 3), budget: 60 };
const planned = plannedOrder(
  rows.map((r) => ({ number: r.number, answer: r.response!.answers.urgent })),
  questions.urgent!,
  order,
);
const labelled = new Set(planned.numbers.slice(0, 45));
const withLabels = rows.map((r) =>
  labelled.has(r.number)
    ? { ...r, labels: { urgent: random() < (r.response!.answers.urgent as { noul: number }).noul } }
    : r,
);
const page = activeEstimateOf(
  withLabels.map((r) => ({ number: r.number, answer: r.response!.answers.urgent, label: r.labels?.urgent })),
  questions.urgent!,
  order,
)!;
const exported = join(dir, 'run.jsonl');
writeFileSync(exported, [...exportJsonl(withLabels, 2000, [], { urgent: page.probabilities })].join(''));
const questionsFile = join(dir, 'questions.json');
writeFileSync(questionsFile, JSON.stringify(questions));

describe('report --active', () => {
  it('gives the page’s estimate back from the export, for each target', () => {
    const lines = activeReportLines(exported, questions);
    const v = page.estimate.active;
    expect(lines[0]).toBe(
      `urgent, share of “yes”: ${v.value.toFixed(3)} (95% CI ${v.lo.toFixed(3)} to ${v.hi.toFixed(3)}) from 45 labels in active order, each weighted by the inverse of its probability. ${activeSavingSentence(page.estimate)}`,
    );
    expect(lines[1]).toMatch(/^urgent, agreement of the judge with people: 0\.\d{3} \(95% CI /);
    expect(lines).toHaveLength(2);
  });

  it('refuses an export without probabilities, in a sentence', () => {
    const plain = join(dir, 'plain.jsonl');
    writeFileSync(plain, [...exportJsonl(withLabels)].join(''));
    expect(() => activeReportLines(plain, questions)).toThrow(InputError);
    expect(() => activeReportLines(plain, questions)).toThrow(/has no label probabilities/);
  });

  it('runs as a command, and says what is missing without --questions', { timeout: 60_000 }, async () => {
    const ran = await spawnCli(['report', '--active', exported, '--questions', questionsFile], dir, {});
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(`urgent, share of “yes”: ${page.estimate.active.value.toFixed(3)} (95% CI`);
    const missing = await spawnCli(['report', '--active', exported], dir, {});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--active needs --questions');
  });
});
