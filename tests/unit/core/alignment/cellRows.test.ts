// Every row of a confusion cell is reachable: the rows screen's filter by human label and judge's answer finds exactly
// the rows the report counts in the cell, under its conventions (score prediction, the noul threshold), past the 200
// ids the report keeps. And the threshold slider's figures, read at once from the report's grid, equal a report
// computed at the new threshold.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { computeAlignment } from '../../../../src/core/alignment/compute';
import { classesOf } from '../../../../src/core/labels/prediction';
import { seededRandom } from '../../../../src/core/alignment/rng';
import { thresholdView } from '../../../../src/core/alignment/thresholdView';
import type { AlignRow, LabelValue } from '../../../../src/core/alignment/types';
import { NO_FILTER, answerColumns, classValue, filterRows } from '../../../../src/core/rows/results';
import type { ResultRow } from '../../../../src/core/rows/results';

const questions: Questions = {
  dept: { type: 'choice', instructions: 'x', criteria: { billing: null, technical: null, other: null } },
  mood: { type: 'score', instructions: 'x', criteria: ['calm', 'annoyed', 'angry', 'furious'] },
  urgent: { type: 'noul', instructions: 'x' },
};

function dist(rand: () => number, keys: readonly string[]): Record<string, number> {
  const raw = keys.map(() => rand() ** 2);
  const sum = raw.reduce((a, b) => a + b, 0);
  return Object.fromEntries(keys.map((k, i) => [k, Math.round((raw[i]! / sum) * 100) / 100]));
}

const rand = seededRandom(7);
const N = 900;
const rows: ResultRow[] = Array.from({ length: N }, (_, i) => {
  const dept = dist(rand, ['billing', 'technical', 'other']);
  const mood = dist(rand, ['0', '1', '2', '3']);
  const answers: Record<string, Answer> = {
    dept: { type: 'choice', choice: 'billing', confidence: 0.5, probabilities: dept },
    mood: { type: 'score', score: 1.5, confidence: 0.5, legend: {}, probabilities: mood },
    urgent: { type: 'noul', noul: Math.round(rand() * 100) / 100 },
  };
  const labels: Record<string, LabelValue> = {};
  if (i % 7 !== 0) labels['dept'] = ['billing', 'technical', 'other'][i % 3]!;
  if (i % 5 !== 0) labels['mood'] = i % 4;
  if (i % 6 !== 0) labels['urgent'] = i % 2 === 0;
  return {
    number: i + 1,
    line: i + 2,
    id: `r${i}`,
    data: { text: `row ${i}` },
    labels,
    outcome: { status: 'done', attempts: 1 } as ResultRow['outcome'],
    response: { model: 'm', answers, usage: { input_tokens: 1 } } as ResultRow['response'],
  };
});
const alignRows: AlignRow[] = rows.map((r) => ({
  id: String(r.number),
  labels: r.labels!,
  answers: r.response!.answers,
}));

describe('a confusion cell as a filter of the rows', () => {
  for (const scorePrediction of ['mostProbable', 'expectedRounded'] as const)
    it(`finds every row of every cell (${scorePrediction}, threshold 0.37)`, () => {
      const options = { scorePrediction, noulThresholds: { urgent: 0.37 }, bootstrap: { B: 20, seed: 1 } };
      const report = computeAlignment(questions, alignRows, options);
      const columns = answerColumns(questions);
      let biggest = 0;
      for (const [name, q] of Object.entries(report.questions)) {
        const question = questions[name]!;
        const K = classesOf(question).length;
        for (let t = 0; t < K; t++)
          for (let p = 0; p < K; p++) {
            const found = filterRows(
              rows,
              {
                ...NO_FILTER,
                agreement: {
                  question: name,
                  label: classValue(question, t),
                  answer: classValue(question, p),
                  scorePrediction,
                  threshold: thresholdOf(options.noulThresholds, name),
                },
              },
              columns,
              questions,
            );
            expect(found.length, `${name} ${t}/${p}`).toBe(q.confusion.counts[t]![p]);
            // The ids the report keeps are the first of the same rows, in file order.
            expect(
              found.slice(0, q.confusion.ids[t]![p]!.length).map((i) => String(rows[i]!.number)),
            ).toEqual(q.confusion.ids[t]![p]);
            biggest = Math.max(biggest, found.length);
          }
      }
      expect(biggest).toBeGreaterThan(200);
    });

  it('finds every disagreement past the 500 the report keeps', () => {
    const report = computeAlignment(questions, alignRows, { bootstrap: { B: 20, seed: 1 } });
    const columns = answerColumns(questions);
    for (const name of Object.keys(questions)) {
      const agreement = {
        question: name,
        label: null,
        answer: null,
        scorePrediction: 'mostProbable' as const,
        threshold: 0.5,
      };
      const differ = filterRows(
        rows,
        { ...NO_FILTER, agreement: { ...agreement, relation: 'disagree' } },
        columns,
        questions,
      );
      const agree = filterRows(
        rows,
        { ...NO_FILTER, agreement: { ...agreement, relation: 'agree' } },
        columns,
        questions,
      );
      expect(differ.length, name).toBe(report.questions[name]!.disagreementCount);
      expect(agree.length + differ.length).toBe(report.questions[name]!.n);
    }
    expect(report.questions['mood']!.disagreementCount).toBeGreaterThan(500);
  });

  it('reads "any" on either side, and leaves a question the run does not ask alone', () => {
    const columns = answerColumns(questions);
    const labelled = rows.filter((r) => r.labels?.['dept'] === 'other').length;
    const any = {
      question: 'dept',
      label: 'other',
      answer: null,
      scorePrediction: 'mostProbable' as const,
      threshold: 0.5,
    };
    expect(filterRows(rows, { ...NO_FILTER, agreement: any }, columns, questions)).toHaveLength(labelled);
    expect(
      filterRows(rows, { ...NO_FILTER, agreement: { ...any, question: 'gone' } }, columns, questions),
    ).toHaveLength(N);
  });
});

const thresholdOf = (t: Record<string, number>, name: string): number => t[name] ?? 0.5;

describe('the threshold slider’s figures', () => {
  it('equal a report computed at the new threshold', () => {
    const at05 = computeAlignment(questions, alignRows, { bootstrap: { B: 20, seed: 1 } }).questions[
      'urgent'
    ]!;
    for (const t of [0, 0.13, 0.37, 0.5, 0.73, 0.99, 1]) {
      const fresh = computeAlignment(questions, alignRows, {
        noulThresholds: { urgent: t },
        bootstrap: { B: 20, seed: 1 },
      }).questions['urgent']!;
      const view = thresholdView(at05, t)!;
      expect(view.counts, String(t)).toEqual(fresh.confusion.counts);
      expect(view.accuracy).toBeCloseTo(fresh.figures['accuracy']!.value!, 12);
      expect(view.tpr).toBeCloseTo(fresh.figures['tpr']!.value!, 12);
      expect(view.tnr).toBeCloseTo(fresh.figures['tnr']!.value!, 12);
    }
    expect(thresholdView(at05, 0.505)).toBeNull();
  });
});
