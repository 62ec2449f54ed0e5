// Contract limits on the size of a closed set: 2..255 choice labels, 2..10 score levels.
import { MAX_LEVELS, MAX_OPTIONS, MIN_LEVELS, MIN_OPTIONS } from '../../../contract';
import type { LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { questionLoc } from '../util';

export const optionCount: LintRule = {
  id: 'contract/option-count',
  severity: 'error',
  title: 'Too few or too many choice labels',
  explanation: `A choice takes ${MIN_OPTIONS} to ${MAX_OPTIONS} labels; larger taxonomies need a coarse-to-fine choice over several requests.`,
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const criteria = q.obj?.criteria;
      if (q.kind !== 'choice' || !(isRecord(criteria) || Array.isArray(criteria))) continue;
      const n = isRecord(criteria) ? Object.keys(criteria).length : criteria.length;
      if (n < MIN_OPTIONS) {
        hits.push({
          message: `Choice question "${q.name}" has ${n} label${n === 1 ? '' : 's'}; it needs at least ${MIN_OPTIONS}.`,
          loc: questionLoc(q.name, 'criteria'),
        });
      } else if (n > MAX_OPTIONS) {
        hits.push({
          message: `Choice question "${q.name}" has ${n} labels; the limit is ${MAX_OPTIONS}: group them and choose coarse to fine (Large taxonomy).`,
          loc: questionLoc(q.name, 'criteria'),
        });
      }
    }
    return hits;
  },
};

export const levelCount: LintRule = {
  id: 'contract/level-count',
  severity: 'error',
  title: 'Too few or too many score levels',
  explanation: `A score takes ${MIN_LEVELS} to ${MAX_LEVELS} ordered levels; outside that range the request is a 422.`,
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const criteria = q.obj?.criteria;
      if (q.kind !== 'score' || !Array.isArray(criteria)) continue;
      const n = criteria.length;
      if (n >= MIN_LEVELS && n <= MAX_LEVELS) continue;
      hits.push({
        message:
          n < MIN_LEVELS
            ? `Score question "${q.name}" has ${n} level${n === 1 ? '' : 's'}; it needs at least ${MIN_LEVELS}.`
            : `Score question "${q.name}" has ${n} levels; the limit is ${MAX_LEVELS}: merge neighbouring levels.`,
        loc: questionLoc(q.name, 'criteria'),
      });
    }
    return hits;
  },
};
