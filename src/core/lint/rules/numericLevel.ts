// Score levels must be descriptive phrases: a level that is only a number tells the model nothing about the scale.
import { MAX_LEVELS, MIN_LEVELS } from '../../../contract';
import type { LintFix, LintRule, RuleHit, Severity } from '../types';
import { questionLoc, quote } from '../util';
import { scaleAnchor } from './scaleAnchors';

const NUMBER_WORDS = new Set([
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
]);
// Words that frame a number without describing anything: "Level 3", "3 out of 5", "4 stars", "score: 2".
const FRAME_WORDS = new Set([
  'level',
  'lvl',
  'score',
  'rating',
  'grade',
  'point',
  'points',
  'pt',
  'pts',
  'star',
  'stars',
  'out',
  'of',
  'step',
  'tier',
  'rank',
]);

/**
 * True when a level says nothing but a number: "3", "3.", "(3)", "3/5", "-1", "10%", "Level 3", "three", "3 out of 5".
 * A level with any describing word is descriptive, even when it starts with its number: "3 - good" is fine.
 */
export function isNumericLevel(level: string): boolean {
  const words = level
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const isNumber = (w: string): boolean => /^\d+$/.test(w) || NUMBER_WORDS.has(w);
  return words.some(isNumber) && words.every((w) => isNumber(w) || FRAME_WORDS.has(w));
}

/** A fix that replaces the listed levels with generic described ones, when the scale has 2..10 levels. */
export function describeLevelsFix(name: string, count: number, indices: number[]): LintFix | undefined {
  if (count < MIN_LEVELS || count > MAX_LEVELS || indices.length === 0) return undefined;
  return {
    title:
      indices.length === count
        ? 'Describe the levels (a generic low-to-high scale; tailor it)'
        : 'Describe this level (generic; tailor it)',
    edits: indices.map((i) => ({
      document: 'questions',
      path: [name, 'criteria', i],
      value: scaleAnchor(count, i),
    })),
  };
}

export const numericLevel: LintRule = {
  id: 'score/numeric-level',
  severity: 'warning',
  title: 'Score level that is only a number',
  explanation:
    'Levels are descriptive phrases, not bare integers: the model rates against what each level says, and a number says nothing (a JSON number is a 422).',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const levels = q.obj?.criteria;
      if (q.kind !== 'score' || !Array.isArray(levels)) continue;
      const isNumeric = (l: unknown): boolean =>
        typeof l === 'number' || (typeof l === 'string' && isNumericLevel(l));
      const numeric = levels.flatMap((l, i) => (isNumeric(l) ? [i] : []));
      // A JSON number is rejected by the service (422); a numeric string is accepted but useless.
      const severity = (indices: number[]): Severity | undefined =>
        indices.some((i) => typeof levels[i] === 'number') ? 'error' : undefined;
      // One finding per question when every level is a number (one fix rewrites the scale), else one per level.
      if (numeric.length === levels.length && numeric.length > 1) {
        hits.push({
          message: `The levels of "${q.name}" are only numbers; describe what each level looks like, lowest first.`,
          loc: questionLoc(q.name, 'criteria'),
          fix: describeLevelsFix(q.name, levels.length, numeric),
          severity: severity(numeric),
        });
        continue;
      }
      for (const i of numeric) {
        hits.push({
          message: `Level ${i} of "${q.name}" is only a number (${quote(levels[i])}); describe what it looks like.`,
          loc: questionLoc(q.name, 'criteria', i),
          fix: describeLevelsFix(q.name, levels.length, [i]),
          severity: severity([i]),
        });
      }
    }
    return hits;
  },
};
