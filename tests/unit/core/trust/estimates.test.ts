// Prevalence and mean with PPI on the judge's probabilities or its hard labels: each against numbers numpy gives
// following ppi_py's ppi_mean_ci and _calc_lam_glm (and a lambda worked by hand), the predictor named in the figures,
// and a seeded simulation of a calibrated judge where the probabilities give the narrower interval at the coverage
// promised.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { seededRandom } from '../../../../src/contract/random';
import { alignTableOf } from '../../../../src/core/alignment/table';
import { estimatesOf } from '../../../../src/core/trust/estimates';
import type { PpiPredictor } from '../../../../src/core/trust/estimates';
import { trustFigures } from '../../../../src/core/trust/figures';
import { trustDataFromColumns } from '../../../../src/core/trust/fromColumns';
import { ppiMean } from '../../../../src/core/trust/ppi';
import { majorityOf, ratingsPerRow, trustDataOf } from '../../../../src/core/trust/ratings';
import type { TrustData } from '../../../../src/core/trust/ratings';
import { TrustFiguresSchema } from '../../../../src/core/trust/schema';

const estimates = (data: TrustData, predictor: PpiPredictor, lambda: number | null = null) =>
  estimatesOf(data, majorityOf(data), ratingsPerRow(data), lambda, predictor);

// Six rows a person labelled and four only the judge answered; P(yes) 0.55 on row 5 makes its hard label wrong.
const Y = [1, 0, 1, 1, 0, 0];
const P_YES = [0.9, 0.2, 0.6, 0.8, 0.55, 0.1, 0.7, 0.4, 0.5, 0.2];
const noul = trustDataOf({
  type: 'noul',
  classes: ['no', 'yes'],
  columns: { ann: [...Y, null, null, null, null] },
  judge: P_YES.map((p) => (p >= 0.5 ? 1 : 0)),
  confidence: P_YES.map((p) => Math.max(p, 1 - p)),
  probabilities: { p: P_YES, width: 1 },
});

describe('PPI on a noul, against ppi_py’s formulas', () => {
  it('uses P(yes) as the predictor: numpy following ppi_mean_ci gives lambda 0.6669, 0.4500 ± 1.96 × 0.1572', () => {
    const [yes] = estimates(noul, 'probability');
    expect(yes!.predictor).toBe('probability');
    const p = yes!.ppi!;
    expect(p.lambda).toBeCloseTo(0.6669221924108852, 12);
    expect(p.ppi.value).toBeCloseTo(0.44998083556918356, 12);
    expect(p.ppi.se).toBeCloseTo(0.1571753241784599, 12);
    expect(p.ppi.lo).toBeCloseTo(0.1419228609209947, 8);
    expect(p.ppi.hi).toBeCloseTo(0.7580388102173724, 8);
    // The classical interval is the labelled rows' alone: 0.5 and sqrt(0.25 / 6).
    expect(p.classical.se).toBeCloseTo(0.20412414523193154, 12);
    expect(p.judgeMean).toBeCloseTo(P_YES.reduce((s, v) => s + v, 0) / 10, 12);
  });

  it('uses the hard label when asked: lambda (1/6) / (2.5 × 0.2667) = 1/4 by hand, 0.4583 ± 1.96 × 0.1844', () => {
    const [yes] = estimates(noul, 'label');
    expect(yes!.predictor).toBe('label');
    const p = yes!.ppi!;
    expect(p.lambda).toBeCloseTo(0.25, 12);
    expect(p.ppi.value).toBeCloseTo(0.4583333333333333, 12);
    expect(p.ppi.se).toBeCloseTo(0.18438775065766325, 12);
    // On this data the probability's interval is the narrower one.
    expect(estimates(noul, 'probability')[0]!.ppi!.ppi.se).toBeLessThan(p.ppi.se);
  });

  it('falls back to the hard label, and says so, when the answers carry no probabilities', () => {
    const { probabilities: _, ...bare } = noul;
    const [yes] = estimates(bare, 'probability');
    expect(yes!.predictor).toBe('label');
    expect(yes!.ppi!.lambda).toBeCloseTo(0.25, 12);
  });
});

describe('PPI on a score, against ppi_py’s formulas', () => {
  it('uses the expected level: numpy following ppi_mean_ci gives lambda 0.48125, 1.1743 ± 1.96 × 0.2602', () => {
    const probabilities = [
      [0.1, 0.2, 0.7],
      [0.8, 0.2, 0],
      [0.2, 0.5, 0.3],
      [0, 0.3, 0.7],
      [0.3, 0.4, 0.3],
      [0.5, 0.5, 0],
      [0.1, 0.1, 0.8],
      [0.2, 0.6, 0.2],
    ];
    const top = probabilities.map((r) => r.indexOf(Math.max(...r)));
    const data = trustDataOf({
      type: 'score',
      classes: ['0', '1', '2'],
      columns: { ann: [2, 0, 1, 2, 1, null, null, null] },
      judge: top,
      confidence: probabilities.map((r) => Math.max(...r)),
      probabilities: { p: probabilities.flat(), width: 3 },
    });
    const [mean] = estimates(data, 'probability');
    expect(mean!.kind).toBe('mean');
    const p = mean!.ppi!;
    expect(p.lambda).toBeCloseTo(0.48125, 12);
    expect(p.ppi.value).toBeCloseTo(1.1743333333333335, 12);
    expect(p.ppi.se).toBeCloseTo(0.2601898594545202, 12);
    // The hard label is the most probable level: the same PPI over those levels, written out.
    const label = estimates(data, 'label')[0]!.ppi!;
    const byHand = ppiMean([2, 0, 1, 2, 1], top.slice(0, 5), top.slice(5), null, undefined, [0, 2])!;
    expect(label.ppi.value).toBeCloseTo(byHand.ppi.value, 12);
    expect(label.ppi.se).toBeCloseTo(byHand.ppi.se, 12);
  });
});

describe('PPI on a choice through the alignment table', () => {
  const QUESTIONS: Questions = {
    department: { type: 'choice', criteria: { billing: null, technical: null, sales: null } },
  };
  const answer = (p: number[]): Answer => ({
    type: 'choice',
    choice: 'billing',
    confidence: 0.5,
    probabilities: { billing: p[0]!, technical: p[1]!, sales: p[2]! },
  });
  const random = seededRandom(3);
  const classes = ['billing', 'technical', 'sales'];
  const rows = Array.from({ length: 60 }, (_, i) => {
    const raw = [random(), random(), random()];
    const sum = raw[0]! + raw[1]! + raw[2]!;
    const p = raw.map((v) => Math.round((v / sum) * 100) / 100);
    p[2] = Math.round((1 - p[0]! - p[1]!) * 100) / 100;
    return {
      id: `r${i}`,
      labels: (i < 40 ? { department: classes[i % 3]! } : {}) as Record<string, string>,
      answers: { department: answer(p) },
    };
  });
  const table = alignTableOf(QUESTIONS, rows);
  const data = trustDataFromColumns(QUESTIONS['department']!, table.columns['department']!);

  it('reads each label’s share from that label’s probability, in the table’s own array', () => {
    expect(data.probabilities?.p).toBe(table.columns['department']!.p);
    const shares = estimates(data, 'probability');
    expect(shares.map((e) => e.what)).toEqual(['Share of billing', 'Share of technical', 'Share of sales']);
    // Each share written out: Y the label's indicator, f the label's probability on the labelled and the other rows.
    shares.forEach((e, k) => {
      const y = rows.slice(0, 40).map((r) => (r.labels['department'] === classes[k] ? 1 : 0));
      const f = rows.map(
        (r) => (r.answers.department as { probabilities: Record<string, number> }).probabilities,
      );
      const fk = f.map((p) => p[classes[k]!]! / (p['billing']! + p['technical']! + p['sales']!));
      const byHand = ppiMean(y, fk.slice(0, 40), fk.slice(40), null, undefined, [0, 1])!;
      expect(e.ppi!.ppi.value, e.what).toBeCloseTo(byHand.ppi.value, 12);
      expect(e.ppi!.ppi.se, e.what).toBeCloseTo(byHand.ppi.se, 12);
    });
    // With lambda 1 the shares of probabilities summing to 1 sum to 1.
    const plain = estimates(data, 'probability', 1);
    expect(plain.reduce((s, e) => s + e.ppi!.ppi.value, 0)).toBeCloseTo(1, 12);
  });

  it('names the predictor in the conventions and each sentence, and keeps the hard label as an option', () => {
    const figures = trustFigures(data, { bootstrap: { B: 50, seed: 1 } });
    expect(figures.conventions.join(' ')).toContain("on the judge's probabilities");
    expect(figures.sentences.estimates[0]).toContain(
      "by prediction-powered inference on the judge's probabilities",
    );
    const hard = trustFigures(data, { bootstrap: { B: 50, seed: 1 }, ppiPredictor: 'label' });
    expect(hard.estimates.every((e) => e.predictor === 'label')).toBe(true);
    expect(hard.conventions.join(' ')).toContain("on the judge's predicted labels (hard labels)");
    expect(hard.sentences.estimates[0]).toContain("on the judge's hard labels");
  });

  it('reads figures kept before the predictor was named as computed on the hard labels', () => {
    const figures = trustFigures(data, { bootstrap: { B: 50, seed: 1 } });
    const old = JSON.parse(JSON.stringify(figures)) as { estimates: Record<string, unknown>[] };
    for (const e of old.estimates) delete e['predictor'];
    const read = TrustFiguresSchema.parse(old);
    expect(read.estimates.map((e) => e.predictor)).toEqual(['label', 'label', 'label']);
  });
});

describe('a calibrated judge, simulated', () => {
  /**
   * n labelled and N unlabelled rows: each row's chance of yes is u² (u uniform: prevalence 1/3), a person says yes with
   * that chance, and the judge reports that chance as P(yes), so its probabilities are calibrated.
   */
  function sample(random: () => number, n: number, N: number): TrustData {
    const chance = Array.from({ length: n + N }, () => random() ** 2);
    return trustDataOf({
      type: 'noul',
      classes: ['no', 'yes'],
      columns: { ann: chance.map((c, i) => (i < n ? (random() < c ? 1 : 0) : null)) },
      judge: chance.map((c) => (c >= 0.5 ? 1 : 0)),
      confidence: chance.map((c) => Math.max(c, 1 - c)),
      probabilities: { p: chance, width: 1 },
    });
  }

  it('gives the probability predictor a narrower interval than the hard label at the same 95% coverage', () => {
    const random = seededRandom(11);
    const trials = 400;
    const truth = 1 / 3;
    const covered = { probability: 0, label: 0 };
    const width = { probability: 0, label: 0 };
    for (let t = 0; t < trials; t++) {
      const data = sample(random, 150, 1500);
      for (const predictor of ['probability', 'label'] as const) {
        const p = estimates(data, predictor)[0]!.ppi!;
        if (p.ppi.lo <= truth && truth <= p.ppi.hi) covered[predictor]++;
        width[predictor] += (p.ppi.hi - p.ppi.lo) / trials;
      }
    }
    // 400 trials: a 95% interval covers 380 times on average, with a standard deviation of about 4.4.
    expect(covered.probability / trials).toBeGreaterThanOrEqual(0.93);
    expect(covered.label / trials).toBeGreaterThanOrEqual(0.93);
    // Seeded: the mean widths are 0.120 against 0.127. A person's label is a coin with the row's chance, so no
    // predictor explains most of it; the probability explains more than its rounding to yes or no.
    expect(width.probability).toBeLessThan(0.96 * width.label);
  });
});
