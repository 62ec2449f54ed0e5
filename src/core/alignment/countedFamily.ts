// Every question's family of variants with one headline figure each, adjusted for every variant counted, including
// variants whose runs were deleted: the ledger still counts them, but their rows cannot be read, so their correlation
// with the others is unknown and the critical value becomes Šidák's for the whole count (valid whatever the
// correlation; wider than the max-t's for the variants present).
import type { Question, Questions } from '../../contract';
import { normalQuantile } from '../trust/distributions';
import { Z95 } from './intervals';
import { bestOfSentence } from './simultaneous';
import { variantFamily } from './variantFamily';
import type { FamilyRun, VariantFamily } from './variantFamily';
import type { AlignmentOptions } from './types';

/** The figure a family is judged on: kappa for a choice, quadratic weighted kappa for a score, accuracy for yes/no. */
export function headlineFigure(question: Question): 'kappa' | 'qwk' | 'accuracy' {
  return question.type === 'choice' ? 'kappa' : question.type === 'score' ? 'qwk' : 'accuracy';
}

/** Šidák's two-sided critical value for `count` estimates: P(every |Z_k| < c) ≥ 0.95 whatever their correlation. */
export const sidakCritical = (count: number, level = 0.95): number =>
  count <= 1 ? Z95 : normalQuantile(1 - (1 - level ** (1 / count)) / 2);

/** The median of the largest of `count` independent standard normals: the luck of a best-of-`count`. */
const medianOfMax = (count: number): number => normalQuantile(0.5 ** (1 / Math.max(1, count)));

/**
 * A family counted with `tried` variants where only some are present: the critical value is the larger of the
 * present variants' max-t and Šidák's for `tried`; the luck is the larger of the present variants' and that of the best
 * of `tried` independent draws at the best variant's standard error.
 */
export function countFamily(family: VariantFamily, tried: number): VariantFamily {
  if (tried <= family.intervals.length) return family;
  const critical = Math.max(family.critical, sidakCritical(tried));
  const best = family.intervals[family.best];
  const luck = Math.max(family.luck, best ? best.se * medianOfMax(tried) : 0);
  const counted = {
    ...family,
    tried,
    critical,
    luck,
    intervals: family.intervals.map((i) => ({
      ...i,
      adjustedLo: i.estimate - critical * i.se,
      adjustedHi: i.estimate + critical * i.se,
    })),
    method: `95% simultaneous intervals over ${tried} variants, ${tried - family.intervals.length} of them no longer stored: critical value ${critical.toFixed(2)} (Šidák's for ${tried}, valid whatever the deleted variants' correlation with the others; the ${family.intervals.length} present alone give ${family.critical.toFixed(2)} by max-t)`,
  };
  return { ...counted, sentence: bestOfSentence(counted, family.figure) };
}

/** One question's counted family, with the figure it is judged on. */
export interface CountedFamily {
  question: string;
  figure: string;
  family: VariantFamily;
}

/**
 * Every question the base asks, each variant compared with the base on its headline figure, adjusted for `tried`
 * variants (at least the ones given). Questions a variant lacks or asks with another type are left out.
 */
export function countedFamilies(
  base: FamilyRun,
  variants: readonly FamilyRun[],
  tried: number,
  options: Partial<AlignmentOptions> & { draws?: number } = {},
): CountedFamily[] {
  if (variants.length === 0) return [];
  const out: CountedFamily[] = [];
  for (const [name, question] of Object.entries(base.questions as Questions)) {
    const figure = headlineFigure(question);
    const family = variantFamily(base, variants, name, figure, options);
    if (family && family.rows > 0) out.push({ question: name, figure, family: countFamily(family, tried) });
  }
  return out;
}
