// Labels (or levels) that differ only by case or spacing: the model sees two names for one thing.
import type { LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { labelKey, questionLoc } from '../util';

export const duplicateLabel: LintRule = {
  id: 'criteria/duplicate-label',
  severity: 'warning',
  title: 'Labels that differ only by case or spacing',
  explanation:
    'Two labels the model cannot tell apart split the probability between them and lower the confidence of both.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const criteria = q.obj?.criteria;
      if (q.kind === 'choice' && isRecord(criteria)) {
        const first = new Map<string, string>();
        for (const label of Object.keys(criteria)) {
          const key = labelKey(label);
          const earlier = first.get(key);
          if (earlier === undefined) {
            first.set(key, label);
            continue;
          }
          hits.push({
            message: `Label "${label}" of "${q.name}" differs from "${earlier}" only by case or spacing.`,
            loc: questionLoc(q.name, 'criteria', label),
            fix: {
              title: `Remove "${label}"`,
              edits: [{ document: 'questions', path: [q.name, 'criteria', label], value: undefined }],
            },
          });
        }
      } else if (q.kind === 'score' && Array.isArray(criteria)) {
        const first = new Map<string, number>();
        criteria.forEach((level, i) => {
          if (typeof level !== 'string' || level.trim() === '') return;
          const key = labelKey(level);
          const earlier = first.get(key);
          if (earlier === undefined) {
            first.set(key, i);
            return;
          }
          hits.push({
            message: `Level ${i} of "${q.name}" repeats level ${earlier} (only case or spacing differ).`,
            loc: questionLoc(q.name, 'criteria', i),
            fix: {
              title: `Remove level ${i}`,
              edits: [{ document: 'questions', path: [q.name, 'criteria', i], value: undefined }],
            },
          });
        });
      }
    }
    return hits;
  },
};
