// The alignment figures in words for people who are not statisticians: each figure's name, which way is better, a
// plain sentence of what its value means for the question, and a widely used reading scale where one exists (with
// its caveat). Variant differences read the same way: a signed change, its unit, and whether B is better or worse.
import type { Figure } from './types';

export type Better = 'higher' | 'lower';
/** How a figure's value is written: a share of rows (as a percentage), a number of levels, or a plain number. */
export type Unit = 'share' | 'levels' | 'number';

export interface FigureInfo {
  /** The name shown beside the value, the same on the figures and in the variant comparison. */
  name: string;
  better: Better;
  unit: Unit;
}

/** Every figure the report computes, by its key. */
export const FIGURES: Record<string, FigureInfo> = {
  accuracy: { name: 'Accuracy', better: 'higher', unit: 'share' },
  kappa: { name: "Cohen's kappa", better: 'higher', unit: 'number' },
  macro_f1: { name: 'Macro F1', better: 'higher', unit: 'number' },
  exact: { name: 'Exact agreement', better: 'higher', unit: 'share' },
  within_one: { name: 'Within one level', better: 'higher', unit: 'share' },
  qwk: { name: 'Quadratic weighted kappa', better: 'higher', unit: 'number' },
  spearman: { name: 'Spearman (expected score)', better: 'higher', unit: 'number' },
  mae: { name: 'Mean absolute error (expected score)', better: 'lower', unit: 'levels' },
  tpr: { name: 'True-positive rate', better: 'higher', unit: 'share' },
  tnr: { name: 'True-negative rate', better: 'higher', unit: 'share' },
  auroc: { name: 'ROC AUC', better: 'higher', unit: 'number' },
  brier: { name: 'Brier score', better: 'lower', unit: 'number' },
  log_loss: { name: 'Log loss', better: 'lower', unit: 'number' },
  ece: { name: 'Expected calibration error', better: 'lower', unit: 'number' },
};

/** The figure's name for people; an unknown key is shown as it is. */
export const figureName = (key: string): string => FIGURES[key]?.name ?? key;

/** "Higher is better." or "Lower is better." */
export const betterText = (better: Better): string =>
  better === 'higher' ? 'Higher is better.' : 'Lower is better.';

const percent = (x: number): string => `${Math.round(x * 100)}%`;
const f2 = (x: number): string => plainText(x, 2);

/** The most digits a number is printed with to keep its sign (below 10^-6 it prints as 0). */
const MAX_DIGITS = 6;

/** At least `digits` decimals, more while a number other than 0 would print as 0 (so its sign still shows). */
function digitsFor(x: number, digits: number): number {
  let d = digits;
  while (d < MAX_DIGITS && x !== 0 && Number(Math.abs(x).toFixed(d)) === 0) d++;
  return d;
}

/** "0.52", "-0.03": `digits` decimals, and never a negative zero ("-0.00" prints as "0.00"). */
export function plainText(x: number, digits: number): string {
  const text = x.toFixed(digits);
  return Number(text) === 0 ? Math.abs(x).toFixed(digits) : text;
}

/**
 * A signed change: "+0.05", "−0.003", "0.00" (U+2212 minus, lined up with the plus). A change other than 0 is printed
 * with the digits it needs to keep its sign, so a printed value never reads as "−0" nor as a zero that is not one.
 */
export function signedText(x: number, digits: number): string {
  const abs = Math.abs(x).toFixed(digitsFor(x, digits));
  if (Number(abs) === 0) return abs;
  return `${x > 0 ? '+' : '−'}${abs}`;
}

/**
 * An interval "lo to hi", signed ("−0.003 to +0.06") or plain ("0.55 to 0.69"): both ends with the same decimals,
 * as many as an end needs to keep its sign, so whether the printed interval holds 0 is what its mark says.
 */
export function intervalText(lo: number, hi: number, digits: number, signed = true): string {
  const d = signed ? Math.max(digitsFor(lo, digits), digitsFor(hi, digits)) : digits;
  const end = signed ? signedText : plainText;
  return `${end(lo, d)} to ${end(hi, d)}`;
}

/** A value in its unit: "64%", "0.31 levels", "0.52". */
export function valueText(key: string, value: number): string {
  const unit = FIGURES[key]?.unit ?? 'number';
  if (unit === 'share') return percent(value);
  if (unit === 'levels') return `${f2(value)} level${value === 1 ? '' : 's'}`;
  return f2(value);
}

/** A band of a published reading scale. */
interface Band {
  /** The band holds values at or above this. */
  from: number;
  words: string;
}

export interface Scale {
  /** Who proposed it, as people cite it. */
  source: string;
  bands: readonly Band[];
  caveat: string;
}

const KAPPA_CAVEAT =
  'A convention, not a test: kappa falls when one label is rare even at high accuracy, so read it with the confusion matrix.';

/** Landis and Koch (1977), the usual reading of kappa (and, by custom, of weighted kappa). */
export const LANDIS_KOCH: Scale = {
  source: 'Landis and Koch (1977)',
  bands: [
    { from: -Infinity, words: 'poor (below chance)' },
    { from: 0, words: 'slight' },
    { from: 0.205, words: 'fair' },
    { from: 0.405, words: 'moderate' },
    { from: 0.605, words: 'substantial' },
    { from: 0.805, words: 'almost perfect' },
  ],
  caveat: KAPPA_CAVEAT,
};

/** Hosmer and Lemeshow (2000), the usual reading of ROC AUC. */
export const HOSMER_LEMESHOW: Scale = {
  source: 'Hosmer and Lemeshow (2000)',
  bands: [
    { from: -Infinity, words: 'worse than guessing' },
    { from: 0.5, words: 'no better than guessing' },
    { from: 0.505, words: 'poor' },
    { from: 0.7, words: 'acceptable' },
    { from: 0.8, words: 'excellent' },
    { from: 0.9, words: 'outstanding' },
  ],
  caveat: 'AUC says how well P(yes) ranks the rows, not whether the threshold in use is a good one.',
};

/** Cohen (1988), the usual reading of a correlation's size. */
export const COHEN_CORRELATION: Scale = {
  source: 'Cohen (1988)',
  bands: [
    { from: -Infinity, words: 'reversed' },
    { from: -0.1, words: 'negligible' },
    { from: 0.1, words: 'weak' },
    { from: 0.3, words: 'moderate' },
    { from: 0.5, words: 'strong' },
  ],
  caveat:
    'Sizes for the social sciences; a judge meant to stand in for people should rank far above "strong".',
};

const SCALES: Record<string, Scale> = {
  kappa: LANDIS_KOCH,
  qwk: LANDIS_KOCH,
  auroc: HOSMER_LEMESHOW,
  spearman: COHEN_CORRELATION,
};

/** The band of a scale a value falls in. */
export function bandOf(scale: Scale, value: number): string {
  let words = scale.bands[0]!.words;
  for (const b of scale.bands) if (value >= b.from) words = b.words;
  return words;
}

/** What a sentence needs to know of the question. */
export interface FigureContext {
  question: string;
  type: 'choice' | 'score' | 'noul';
  /** Labels (choice), levels (score) or 2 (noul). */
  classes: number;
}

export interface FigureReading {
  /** What the value means for this question, in plain words. */
  sentence: string;
  /** "Higher is better." or "Lower is better." */
  better: string;
  /** The band of a widely used reading scale, when one exists. */
  scale: { words: string; source: string; caveat: string } | null;
}

/** A figure in words; null when the key is unknown. An undefined figure says why. */
export function readFigure(key: string, figure: Figure, context: FigureContext): FigureReading | null {
  const info = FIGURES[key];
  if (!info) return null;
  const better = betterText(info.better);
  const v = figure.value;
  if (v === null)
    return { sentence: `Cannot be computed: ${figure.undefinedReason ?? 'no rows'}.`, better, scale: null };
  const q = context.question;
  const K = Math.max(2, context.classes);
  const scale = SCALES[key];
  const band = scale ? bandOf(scale, v) : null;
  const sentence = ((): string => {
    switch (key) {
      case 'accuracy':
        return context.type === 'noul'
          ? `At this threshold the judge gives the human's yes or no for ${q} on ${percent(v)} of rows.`
          : `The judge picks the human's ${q} on ${percent(v)} of rows.`;
      case 'kappa':
        return `After the agreement chance alone would give, kappa is ${f2(v)} (0 is chance, 1 is perfect).`;
      case 'macro_f1':
        return `Each label's balance of finding its rows and being right when it names them, averaged so a rare label counts as much as a common one: ${f2(v)} (1 is perfect).`;
      case 'exact':
        return `The judge's level of ${q} equals the human's on ${percent(v)} of rows.`;
      case 'within_one':
        return `The judge's level of ${q} is within one level of the human's on ${percent(v)} of rows.`;
      case 'qwk':
        return `Agreement on the levels beyond chance, where a near miss costs less than a far one: ${f2(v)} (0 is chance, 1 is perfect).`;
      case 'spearman':
        return `How well the judge's expected score puts the rows in the human's order: ${f2(v)} (1 is the same order, 0 none, −1 reversed).`;
      case 'mae':
        return `The judge's expected score is ${valueText(key, v)} away from the human's level on average (0 is perfect).`;
      case 'tpr':
        return `Of the rows people answered yes, the judge says yes on ${percent(v)}.`;
      case 'tnr':
        return `Of the rows people answered no, the judge says no on ${percent(v)}.`;
      case 'auroc':
        return `The chance that a row people answered yes gets a higher P(yes) than one they answered no: ${f2(v)} (0.5 is guessing, 1 is perfect).`;
      case 'brier': {
        const even = context.type === 'noul' ? 0.25 : 1 - 1 / K;
        return `The squared gap between the judge's probabilities and the human's answer: ${f2(v)} (0 is perfect; spreading the probability evenly scores ${f2(even)}).`;
      }
      case 'log_loss': {
        const even = Math.log(context.type === 'noul' ? 2 : K);
        return `How surprised the judge is by the human's answer, on average: ${f2(v)} (0 is perfect; spreading the probability evenly scores ${f2(even)}).`;
      }
      case 'ece':
        return `The judge's stated probability is ${Math.round(v * 100)} percentage points from how often it is right, on average (0 is perfectly calibrated).`;
      default:
        return '';
    }
  })();
  return {
    sentence,
    better,
    scale: scale && band ? { words: band, source: scale.source, caveat: scale.caveat } : null,
  };
}

/** The signed change from A to B of a variant comparison, and whether B is better. */
export interface DifferenceReading {
  /** "+5 percentage points (95% CI +1 to +9)", "−0.05 (95% CI −0.08 to −0.02)", or why there is none. */
  text: string;
  verdict: 'better' | 'worse' | 'same' | 'undefined';
  /** True when the interval leaves out 0: the change is more than the noise of these rows. */
  clear: boolean;
  /** "B better", "B worse, within the noise", "no change". */
  mark: string;
}

/** A paired difference (B − A) in words, with its unit and a better/worse mark. */
export function readDifference(key: string, difference: Figure): DifferenceReading {
  const info = FIGURES[key] ?? { name: key, better: 'higher' as const, unit: 'number' as const };
  const v = difference.value;
  if (v === null)
    return {
      text: difference.undefinedReason ?? 'undefined',
      verdict: 'undefined',
      clear: false,
      mark: 'cannot be compared',
    };
  const share = info.unit === 'share';
  const scale = share ? 100 : 1;
  const digits = share ? 0 : 2;
  const unit = share ? ' percentage points' : info.unit === 'levels' ? ' levels' : '';
  const ci =
    difference.lo === null || difference.hi === null
      ? 'no interval'
      : `95% CI ${intervalText(difference.lo * scale, difference.hi * scale, digits)}`;
  // The verdict and the mark read the unrounded values; the printed ones carry the digits that agree with them.
  const verdict: DifferenceReading['verdict'] =
    v === 0 ? 'same' : v > 0 === (info.better === 'higher') ? 'better' : 'worse';
  const clear = difference.lo !== null && difference.hi !== null && (difference.lo > 0 || difference.hi < 0);
  const mark =
    verdict === 'same'
      ? 'no change'
      : `B ${verdict}${clear ? '' : ', within the noise (the interval includes 0)'}`;
  return { text: `${signedText(v * scale, digits)}${unit} (${ci})`, verdict, clear, mark };
}

/** "p < 0.001", "p = 0.042". */
export const pValueText = (p: number): string => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);
