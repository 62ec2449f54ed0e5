// The trust figures under stable flat keys, beside the agreement figures, so a CI gate reads them the same way:
// `--min department.alt_test.omega=0.5`, `--min is_urgent.guaranteed.coverage=0.3`.
import type { TrustFigures } from '../trust';
import type { Figure } from './types';
import { undefinedFigure } from './types';

const plain = (value: number | null, n: number, method: string, reason: string): Figure =>
  value === null ? undefinedFigure(n, method, reason) : { value, lo: null, hi: null, n, method };

/** A label as a key part: spaces and dots would split the key. */
const keyPart = (label: string): string => label.replace(/[\s.=]+/g, '_');

/** Every trust figure by key, the question's name left off. */
export function trustFigureKeys(t: TrustFigures): Record<string, Figure> {
  const out: Record<string, Figure> = {};
  for (const [metric, figure] of Object.entries(t.ceiling.alpha)) if (figure) out[`alpha.${metric}`] = figure;
  out.fleiss_kappa = t.ceiling.fleiss;
  out.pairwise_kappa = t.ceiling.pairwiseKappa;
  out.judge_majority_kappa = t.ceiling.judgeMajority;
  out.judge_majority_agreement = t.ceiling.judgeAgreement;
  const alt = t.altTest;
  const altReason = alt.verdict === null ? alt.reason : 'no annotator was tested';
  out['alt_test.omega'] = plain(
    alt.omega,
    alt.tested,
    'alt-test winning rate: share of annotators the judge beat (Benjamini-Yekutieli)',
    altReason,
  );
  out['alt_test.rho'] = plain(alt.rho, alt.tested, 'alt-test average advantage probability', altReason);
  const g = t.threshold;
  const certified = g.threshold !== null;
  const none = `no confidence threshold certifies ${Math.round((1 - g.alpha) * 100)}% agreement with probability ${Math.round((1 - g.delta) * 100)}%`;
  // Coverage is 0 when nothing certifies: a gate on it fails plainly instead of reading "undefined".
  out['guaranteed.coverage'] = {
    value: g.coverage,
    lo: null,
    hi: null,
    n: g.eligible,
    method: `share of labelled rows at or above the certified threshold (alpha ${g.alpha}, delta ${g.delta})`,
  };
  out['guaranteed.threshold'] = plain(
    g.threshold,
    g.eligible,
    'lowest certified confidence (fixed-sequence, Clopper-Pearson)',
    none,
  );
  out['guaranteed.agreement'] = certified
    ? plain(g.agreement, g.rows, 'agreement with the majority at or above the certified threshold', none)
    : undefinedFigure(g.eligible, 'agreement above the certified threshold', none);
  if (t.cascade) {
    const c = t.cascade;
    out['cascade.coverage'] = {
      value: c.coverage,
      lo: null,
      hi: null,
      n: c.rows,
      method: 'share of labelled rows some judge of the cascade settles',
    };
    out['cascade.cost_per_row'] = {
      value: c.costPerRow,
      lo: null,
      hi: null,
      n: c.rows,
      method: 'expected price per row of the cascade',
    };
    out['cascade.saving'] = plain(
      c.saving,
      c.rows,
      'share of the strongest judge’s cost the cascade saves',
      'the strongest judge is free',
    );
  }
  for (const e of t.estimates) {
    if (!e.ppi) continue;
    const key = e.kind === 'mean' ? 'ppi.mean' : `ppi.${keyPart(e.what.replace(/^Share of /, ''))}`;
    const n = e.ppi.n + e.ppi.N;
    out[key] = {
      value: e.ppi.ppi.value,
      lo: e.ppi.ppi.lo,
      hi: e.ppi.ppi.hi,
      n,
      method: `${e.ppi.tuned ? 'PPI++' : 'PPI'} ${e.kind === 'mean' ? 'mean level' : 'prevalence'} on the judge's ${e.predictor === 'probability' ? 'probabilities' : 'hard labels'} (lambda ${e.ppi.lambda.toFixed(2)})`,
    };
    out[`${key}.classical`] = {
      value: e.ppi.classical.value,
      lo: e.ppi.classical.lo,
      hi: e.ppi.classical.hi,
      n: e.ppi.n,
      method: 'the labelled rows alone, normal interval',
    };
  }
  return out;
}
