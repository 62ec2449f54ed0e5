// Compiles a question once per judge version: its criteria read, indexed and placed, cached by its content.
import type { ChoiceQuestion, Description, NoulQuestion, Question, ScoreQuestion } from '../../../contract';
import type { Collection } from './bm25';
import { buildCollection } from './bm25';
import type { JudgeConfig } from './config';
import type { Affect } from './lexicon';
import { CATCH_ALL_LABELS } from './lexicon';
import { cachedPerVersion, keyOf } from '../contentKey';
import { Lru } from './lru';
import { namedFields } from './state';
import type { TextProfile } from './text';
import { emptyProfile, readText, toneOf } from './text';

/** Text the judge reads for instructions or a description: text as is, anything else as its JSON. */
export const textOf = (value: Description | null | undefined): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

export interface CompiledChoice {
  type: 'choice';
  named: string[];
  labels: string[];
  collection: Collection;
  tones: Affect[];
  catchAll: boolean[];
}

/** Where a scale's levels sit on the tone plane, when their wording places them there. */
export interface ToneAxis {
  /** Unit direction on (distress, urgency) the levels spread along. */
  direction: Affect;
  /** Projection of the lowest-placed level and the span from lowest to highest. */
  min: number;
  span: number;
}

export interface CompiledScore {
  type: 'score';
  named: string[];
  levels: string[];
  collection: Collection;
  /** Level positions on 0..1: along the tone axis, or evenly by order when the levels carry no tone. */
  positions: number[];
  axis: ToneAxis | null;
  /** Instructions plus the top level: what "a lot of it" reads like, for scales without tone. */
  quality: Collection;
}

export interface CompiledNoul {
  type: 'noul';
  named: string[];
  /** Document 0: instructions and the "true" description; document 1: the "false" description. */
  collection: Collection;
  /** Unit tone direction of "yes" minus "no", and how much the question is about tone at all (0..1). */
  direction: Affect;
  toneStrength: number;
}

export type CompiledQuestion = CompiledChoice | CompiledScore | CompiledNoul;

// Levels must spread at least this far on the tone plane to be placed by tone rather than by order.
const MIN_TONE_SPREAD = 0.2;
// A yes/no question whose yes and no differ by this much in tone is fully about tone.
const FULL_TONE_DIFFERENCE = 0.3;

const read = (text: string, cfg: JudgeConfig, into?: TextProfile): TextProfile => readText(text, cfg, into);

function compileChoice(q: ChoiceQuestion, cfg: JudgeConfig, named: string[]): CompiledChoice {
  const labels = Object.keys(q.criteria);
  const docs = labels.map((label) => {
    // A label like "needs_refund" is read as words; its description adds to it.
    const doc = read(label.replace(/[_-]+/g, ' '), cfg);
    return read(textOf(q.criteria[label]), cfg, doc);
  });
  return {
    type: 'choice',
    named,
    labels,
    collection: buildCollection(docs, cfg),
    tones: docs.map((d) => toneOf(d)),
    catchAll: labels.map((l) => CATCH_ALL_LABELS.has(l.trim().toLowerCase().replace(/[_-]+/g, ' '))),
  };
}

const dot = (a: Affect, b: Affect): number => a.distress * b.distress + a.urgency * b.urgency;

function compileScore(
  q: ScoreQuestion,
  cfg: JudgeConfig,
  named: string[],
  instructions: string,
): CompiledScore {
  const levels = q.criteria;
  const docs = levels.map((level) => read(level, cfg));
  const tones = docs.map((d) => toneOf(d));
  const spread = (axis: keyof Affect): number =>
    Math.max(...tones.map((t) => t[axis])) - Math.min(...tones.map((t) => t[axis]));
  const sd = spread('distress');
  const su = spread('urgency');
  let axis: ToneAxis | null = null;
  let positions = levels.map((_, i) => i / (levels.length - 1));
  if (Math.max(sd, su) >= MIN_TONE_SPREAD) {
    const norm = Math.hypot(sd, su);
    const direction = { distress: sd / norm, urgency: su / norm };
    const projected = tones.map((t) => dot(t, direction));
    const min = Math.min(...projected);
    const span = Math.max(...projected) - min;
    // Levels that differ in tone but project to one point (one calmer, one more urgent) cannot be placed by tone.
    if (span >= MIN_TONE_SPREAD / 2) {
      axis = { direction, min, span };
      positions = projected.map((x) => (x - min) / span);
    }
  }
  const quality = read(levels[levels.length - 1]!, cfg, read(instructions, cfg));
  return {
    type: 'score',
    named,
    levels,
    collection: buildCollection(docs, cfg),
    positions,
    axis,
    // An empty second document keeps idf meaningful with a single real document.
    quality: buildCollection([quality, emptyProfile()], cfg),
  };
}

function compileNoul(q: NoulQuestion, cfg: JudgeConfig, named: string[], instructions: string): CompiledNoul {
  const yes = read(textOf(q.criteria?.true), cfg, read(instructions, cfg));
  const no = read(textOf(q.criteria?.false), cfg);
  const toneYes = toneOf(yes);
  const toneNo = toneOf(no);
  const diff = { distress: toneYes.distress - toneNo.distress, urgency: toneYes.urgency - toneNo.urgency };
  const norm = Math.hypot(diff.distress, diff.urgency);
  return {
    type: 'noul',
    named,
    collection: buildCollection([yes, no], cfg),
    direction:
      norm > 0
        ? { distress: diff.distress / norm, urgency: diff.urgency / norm }
        : { distress: 0, urgency: 0 },
    toneStrength: Math.min(1, norm / FULL_TONE_DIFFERENCE),
  };
}

/** Compiles a question under a judge configuration (uncached). */
export function compileQuestion(q: Question, cfg: JudgeConfig): CompiledQuestion {
  const instructions = textOf(q.instructions);
  const named = namedFields(instructions);
  switch (q.type) {
    case 'choice':
      return compileChoice(q, cfg, named);
    case 'score':
      return compileScore(q, cfg, named, instructions);
    case 'noul':
      return compileNoul(q, cfg, named, instructions);
  }
}

// Questions repeat across rows and runs; compiling is most of a question's cost, so keep recent ones. Bounded by
// bytes too: a compiled question holds term maps about as large as its JSON several times over.
const QUESTION_CACHE_LIMIT = 2_000;
const QUESTION_CACHE_BYTES = 32 * 1024 * 1024;
const COMPILED_BYTES_PER_JSON_CHAR = 8;
const cache = new Lru<string, CompiledQuestion>(QUESTION_CACHE_LIMIT, QUESTION_CACHE_BYTES);

/** Compiles a question, or returns the compiled copy for the same version and the same question content. */
export function compiledQuestion(q: Question, version: string, cfg: JudgeConfig): CompiledQuestion {
  return cachedPerVersion(cache, version, keyOf(q), COMPILED_BYTES_PER_JSON_CHAR, () =>
    compileQuestion(q, cfg),
  );
}

/** Entries and estimated bytes of the compiled-question cache, for measuring the service's memory. */
export const compiledQuestionCacheStats = (): { entries: number; bytes: number } => ({
  entries: cache.size,
  bytes: cache.bytes,
});
