// Each score level must be a non-empty string; the service rejects numbers, objects and empty levels.
import { MIN_LEVELS } from '../../../contract';
import type { LintRule, RuleHit } from '../types';
import { questionLoc, quote } from '../util';
import { describeLevelsFix } from './numericLevel';

export const levelText: LintRule = {
  id: 'contract/level-text',
  severity: 'error',
  title: 'Score level that is not text',
  explanation:
    'Every score level is a non-empty descriptive string; an empty level, an object or a list is a 422.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const levels = q.obj?.criteria;
      if (q.kind !== 'score' || !Array.isArray(levels)) continue;
      levels.forEach((level, i) => {
        // Numbers are reported, with one fix for the whole scale, by score/numeric-level.
        if ((typeof level === 'string' && level.trim() !== '') || typeof level === 'number') return;
        const loc = questionLoc(q.name, 'criteria', i);
        if (typeof level === 'string') {
          hits.push({
            message: `Level ${i} of "${q.name}" is empty.`,
            loc,
            fix:
              levels.length > MIN_LEVELS
                ? {
                    title: 'Remove the empty level',
                    edits: [{ document: 'questions', path: [q.name, 'criteria', i], value: undefined }],
                  }
                : describeLevelsFix(q.name, levels.length, [i]),
          });
        } else {
          hits.push({
            message: `Level ${i} of "${q.name}" is ${quote(level)}, not a descriptive phrase.`,
            loc,
            fix: describeLevelsFix(q.name, levels.length, [i]),
          });
        }
      });
    }
    return hits;
  },
};
