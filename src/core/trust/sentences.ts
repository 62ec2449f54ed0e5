// Each trust figure as one sentence a person reads: the judge beside the human ceiling, the alt-test's verdict and
// why, the certified threshold (or that none certifies), the cascade against its strongest judge, and a prevalence or
// mean with PPI beside the classical interval.
import type { Figure } from '../alignment/types';
import type { AltTest } from './altTest';
import type { Cascade } from './cascade';
import type { CeilingFigures } from './ceiling';
import type { GuaranteedThreshold } from './guaranteedThreshold';
import type { PpiPredictor } from './estimates';
import type { PpiMean } from './ppi';

const two = (x: number): string => x.toFixed(2);
/** A share as a percentage: whole numbers, one decimal under 10%. */
export const percent = (x: number): string =>
  `${Math.abs(x) < 0.1 && x !== 0 ? (x * 100).toFixed(1) : Math.round(x * 100)}%`;

/** "0.49 [0.43, 0.55]", or "undefined" with the figure's reason. */
export function figureText(f: Figure): string {
  if (f.value === null) return 'undefined';
  const range = f.lo === null || f.hi === null ? '' : ` [${two(f.lo)}, ${two(f.hi)}]`;
  return `${two(f.value)}${range}`;
}

/** "the judge agrees with the majority at kappa 0.49 [0.43, 0.55]; people agree with each other at alpha 0.72 [...]" */
export function ceilingSentence(c: CeilingFigures): string {
  const score = c.alpha.interval !== undefined;
  const kappa = score ? 'quadratic weighted kappa' : 'kappa';
  const alpha = score
    ? `alpha ${figureText(c.alpha.interval!)} (interval; ordinal ${figureText(c.alpha.ordinal!)})`
    : `alpha ${figureText(c.alpha.nominal!)}`;
  return `The judge agrees with the majority at ${kappa} ${figureText(c.judgeMajority)} (n = ${c.judgeMajority.n}); people agree with each other at ${alpha} (n = ${(c.alpha.interval ?? c.alpha.nominal)!.n}).`;
}

/** The verdict and why, or why there is none. */
export function altTestSentence(t: AltTest): string {
  if (t.verdict === null) return t.reason;
  const rho = t.rho === null ? '' : ` Its average advantage probability is ${two(t.rho)}.`;
  return t.verdict === 'can replace'
    ? `The judge can replace an annotator: ${t.reason.replace(/^The judge won/, 'it won')}${rho}`
    : `The judge cannot replace an annotator: ${t.reason.replace(/^The judge won/, 'it won')}${rho}`;
}

/** "certifies 90% agreement at confidence >= 0.83, covering 41% of rows", or that no threshold does. */
export function thresholdSentence(t: GuaranteedThreshold): string {
  const target = percent(1 - t.alpha);
  const sure = percent(1 - t.delta);
  if (t.threshold === null) {
    const why = t.failed
      ? ` (at the highest, confidence >= ${two(t.failed.threshold)}, ${t.failed.rows} rows agree ${percent(t.failed.agreement)}, with a bound on disagreement of ${percent(t.failed.bound)})`
      : ` (${t.eligible} labelled row${t.eligible === 1 ? '' : 's'} the judge answered; a threshold must keep at least ${t.minRows})`;
    return `No threshold certifies ${target} agreement with the majority with ${sure} confidence${why}: every row goes to a person.`;
  }
  return `The judge certifies ${target} agreement with the majority (with ${sure} confidence) at confidence >= ${two(t.threshold)}, covering ${percent(t.coverage)} of the labelled rows (${t.rows} of ${t.eligible}; agreement there ${percent(t.agreement!)}).`;
}

/** The cascade's coverage, guarantee and cost against its strongest judge alone. */
export function cascadeSentence(c: Cascade): string {
  if (c.judges.length === 0) return 'No judges in the cascade.';
  const shares = c.judges
    .map((j) => `${j.name} ${percent(c.rows === 0 ? 0 : j.settled / c.rows)}`)
    .join(', ');
  const guarantee =
    c.guaranteedAgreement === null
      ? 'no judge certifying a threshold'
      : `at least ${percent(c.guaranteedAgreement)} agreement guaranteed on the ${percent(c.certifiedCoverage)} settled under a certificate (delta ${c.delta} split as ${+c.deltaPerJudge.toPrecision(3)} per judge)`;
  const last = c.lastAnswersAll
    ? `; ${c.judges[c.judges.length - 1]!.name} answers every row that reaches it`
    : '';
  const strongest = c.judges[c.judges.length - 1]!.name;
  const saving =
    c.saving === null ? '' : c.saving >= 0 ? ` (${percent(c.saving)} less)` : ` (${percent(-c.saving)} more)`;
  return `The cascade settles ${percent(c.coverage)} of the labelled rows (${shares}) with ${guarantee}${last}, at ${+c.costPerRow.toPrecision(3)} per row against ${+c.strongestCostPerRow.toPrecision(3)} for ${strongest} alone${saving}.`;
}

/** A prevalence or mean: PPI beside the classical interval and the judge's raw figure, and which is narrower. */
export function estimateSentence(
  what: string,
  p: PpiMean | null,
  share: boolean,
  predictor?: PpiPredictor,
): string {
  if (p === null)
    return `${what}: no prediction-powered estimate (it needs two labelled rows and at least one row the judge alone labelled).`;
  const f = share ? (x: number): string => `${(x * 100).toFixed(1)}%` : two;
  const est = (e: { value: number; lo: number; hi: number }): string =>
    `${f(e.value)} [${f(e.lo)}, ${f(e.hi)}]`;
  const ratio = p.widthRatio;
  const compare =
    ratio === null
      ? 'beside'
      : Math.abs(1 - ratio) < 0.0005
        ? 'as wide as'
        : ratio < 1
          ? `${percent(1 - ratio)} narrower than`
          : ratio > 1
            ? `${percent(ratio - 1)} wider than`
            : 'as wide as';
  const on =
    predictor === undefined
      ? ''
      : predictor === 'probability'
        ? " on the judge's probabilities"
        : " on the judge's hard labels";
  const raw =
    predictor === 'probability'
      ? `the judge's mean ${share ? 'probability' : 'expected level'}`
      : `the judge's raw ${share ? 'share' : 'mean'}`;
  return `${what}: ${est(p.ppi)} by prediction-powered inference${on} (lambda ${two(p.lambda)}, ${p.n} labelled and ${p.N} judge-only rows), ${compare} ${est(p.classical)} from the labelled rows alone${ratio === null ? ' (no width: every label the same)' : ''}; ${raw} is ${f(p.judgeMean)}.`;
}
