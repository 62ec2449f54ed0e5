// Chart series from answers: what each answer card draws and reads out, computed apart from any chart library.
import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../contract';

/** Choice cards show this many bars before "show all". */
export const CHOICE_TOP = 20;
/** Height of one bar row in pixels: 255 rows stay legible in a scrolling chart. */
export const BAR_ROW_HEIGHT = 22;
/** Room for the axis under the bars. */
const AXIS_HEIGHT = 28;

/** A description (text, object, array or null) as one line of text. */
export function describe(description: unknown): string {
  if (description === null || description === undefined) return '';
  if (typeof description === 'string') return description;
  return JSON.stringify(description);
}

/** A probability, confidence or score with the contract's two decimals ("0.81", "1.00"). */
export function formatFixed2(x: number): string {
  // EPSILON keeps 1.005-style halves from rounding down through binary error.
  const rounded = Math.round((x + Number.EPSILON) * 100) / 100;
  return (Object.is(rounded, -0) ? 0 : rounded).toFixed(2);
}

/** A probability as a percentage for labels ("81%"); under 1% but above zero reads "<1%". */
export function formatPercent(p: number): string {
  if (p > 0 && p < 0.005) return '<1%';
  return `${Math.round(p * 100)}%`;
}

/** Pixel height of a horizontal bar chart with `rows` bars. */
export const barChartHeight = (rows: number): number => rows * BAR_ROW_HEIGHT + AXIS_HEIGHT;

/** One bar of a choice card. */
export interface ChoiceBar {
  label: string;
  probability: number;
  description: string;
  /** The label the service chose. */
  chosen: boolean;
  /** 1-based rank by probability (ties share the order of the criteria). */
  rank: number;
}

/** What a choice card draws. */
export interface ChoiceSeries {
  /** Every option, most probable first. */
  all: ChoiceBar[];
  /** The bars drawn now: the top CHOICE_TOP, or all of them. */
  shown: ChoiceBar[];
  /** Options not drawn until "show all". */
  hidden: number;
  chosen: string;
  confidence: number;
  /** Labels that share the highest probability, when more than one does. */
  tiedAtTop: string[];
}

const criteriaOrder = (criteria: unknown): string[] =>
  criteria && typeof criteria === 'object' && !Array.isArray(criteria) ? Object.keys(criteria) : [];

/**
 * The bars of a choice answer, sorted by probability; equal probabilities keep the order the criteria were written in
 * (the order the service breaks ties in), then the answer's own order for labels the criteria lack. With `order`, the
 * bars follow that order instead (a comparison's shared option order); ranks stay by probability.
 */
export function choiceSeries(
  answer: ChoiceAnswer,
  criteria?: unknown,
  options: { showAll?: boolean; top?: number; order?: readonly string[] } = {},
): ChoiceSeries {
  const top = options.top ?? CHOICE_TOP;
  const written = criteriaOrder(criteria);
  const order = new Map<string, number>();
  [...written, ...Object.keys(answer.probabilities)].forEach((label) => {
    if (!order.has(label)) order.set(label, order.size);
  });
  const descriptions = (criteria ?? {}) as Record<string, unknown>;
  const labels = [...order.keys()].filter((l) => l in answer.probabilities);
  const ranked = labels
    .map((label) => ({ label, probability: answer.probabilities[label]! }))
    .sort((a, b) => b.probability - a.probability || order.get(a.label)! - order.get(b.label)!)
    .map((bar, i) => ({
      ...bar,
      description: written.length ? describe(descriptions[bar.label]) : '',
      chosen: bar.label === answer.choice,
      rank: i + 1,
    }));
  const highest = ranked[0]?.probability ?? 0;
  const tiedAtTop = ranked.filter((b) => b.probability === highest).map((b) => b.label);
  // A comparison draws every column in one shared option order; labels it lacks follow by rank.
  const shared = options.order ? new Map(options.order.map((label, i) => [label, i])) : null;
  const position = (b: ChoiceBar): number =>
    shared ? (shared.get(b.label) ?? shared.size + b.rank) : b.rank;
  const all = shared ? [...ranked].sort((a, b) => position(a) - position(b)) : ranked;
  const shown = options.showAll || all.length <= top ? all : all.slice(0, top);
  return {
    all,
    shown,
    hidden: all.length - shown.length,
    chosen: answer.choice,
    confidence: answer.confidence,
    tiedAtTop: tiedAtTop.length > 1 ? tiedAtTop : [],
  };
}

/** One bar of a score card: a level in level order. */
export interface ScoreBar {
  level: number;
  /** The level's legend text. */
  label: string;
  probability: number;
  /** The most probable level (first of equals). */
  mostLikely: boolean;
}

/** What a score card draws. */
export interface ScoreSeries {
  bars: ScoreBar[];
  /** The expected level, sum of i * p_i, on the 0..n-1 axis. */
  expected: number;
  confidence: number;
  /** Highest level index, n - 1. */
  maxLevel: number;
}

/** The bars of a score answer in level order, labelled from the legend (or the question's levels when it lacks one). */
export function scoreSeries(answer: ScoreAnswer, criteria?: unknown): ScoreSeries {
  const levels = Object.keys(answer.probabilities)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0)
    .sort((a, b) => a - b);
  const written = Array.isArray(criteria) ? criteria : [];
  let best = -1;
  levels.forEach((level) => {
    if (best < 0 || answer.probabilities[String(level)]! > answer.probabilities[String(best)]!) best = level;
  });
  const bars = levels.map((level) => {
    const fromLegend = answer.legend[String(level)];
    const label = describe(fromLegend ?? written[level]) || `Level ${level}`;
    return { level, label, probability: answer.probabilities[String(level)]!, mostLikely: level === best };
  });
  return {
    bars,
    expected: answer.score,
    confidence: answer.confidence,
    maxLevel: Math.max(0, levels[levels.length - 1] ?? 0),
  };
}

/** What a noul card draws. */
export interface NoulSeries {
  yes: number;
  no: number;
  /** Which side of 0.5 the answer falls on. */
  leaning: 'yes' | 'no' | 'undecided';
  /** The question's descriptions of yes and no, when it has them. */
  yesMeans: string;
  noMeans: string;
}

/** The probability of yes, its complement, and the criteria texts shown beside the bar. */
export function noulSeries(answer: NoulAnswer, criteria?: unknown): NoulSeries {
  const c = (criteria && typeof criteria === 'object' && !Array.isArray(criteria) ? criteria : {}) as Record<
    string,
    unknown
  >;
  const yes = answer.noul;
  return {
    yes,
    no: Math.round((1 - yes) * 100) / 100,
    leaning: yes > 0.5 ? 'yes' : yes < 0.5 ? 'no' : 'undecided',
    yesMeans: describe(c.true),
    noMeans: describe(c.false),
  };
}

/** A latency for people: "412 ms", "1.24 s". */
export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A token count with thousands separators. */
export const formatTokens = (n: number): string => n.toLocaleString();
