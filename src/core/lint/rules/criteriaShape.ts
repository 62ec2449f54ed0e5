// Criteria must be present where the kind needs them, and in the kind's shape: labels, levels, or true/false.
import type { LintFix, LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { questionLoc } from '../util';
import { criteriaFor } from './convertCriteria';

const CRITERIA_LIKE =
  /^(options|choices|labels|categories|classes|levels|scale|scores|values|enum|rubric|criterion|criterias)$/i;

export const missingCriteria: LintRule = {
  id: 'contract/missing-criteria',
  severity: 'error',
  title: 'Missing criteria',
  explanation:
    'A `choice` needs its labels and a `score` its levels in `criteria`; without them the request is a 422.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (!q.obj || (q.kind !== 'choice' && q.kind !== 'score') || q.obj.criteria !== undefined) continue;
      // A misnamed field ("options", "levels") is reported, with a fix, by contract/unknown-field.
      if (Object.keys(q.obj).some((k) => CRITERIA_LIKE.test(k))) continue;
      hits.push({
        message:
          q.kind === 'choice'
            ? `Choice question "${q.name}" needs "criteria": an object mapping each label to its description.`
            : `Score question "${q.name}" needs "criteria": a list of 2 to 10 level descriptions, lowest first.`,
        loc: questionLoc(q.name),
      });
    }
    return hits;
  },
};

const NOUL_KEYS: Record<string, 'true' | 'false'> = {
  true: 'true',
  false: 'false',
  yes: 'true',
  no: 'false',
};

export const criteriaShape: LintRule = {
  id: 'contract/criteria-shape',
  severity: 'error',
  title: 'Criteria in the wrong shape',
  explanation:
    'Choice criteria map labels to descriptions, score criteria list level descriptions, noul criteria hold only `true` and `false`.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const criteria = q.obj?.criteria;
      if (!q.kind || criteria === undefined) continue;
      const loc = questionLoc(q.name, 'criteria');
      const convert = (title: string): LintFix | undefined => {
        const value = criteriaFor(q.kind, criteria);
        return value === null
          ? undefined
          : { title, edits: [{ document: 'questions', path: [q.name, 'criteria'], value }] };
      };
      if (q.kind === 'choice' && !isRecord(criteria)) {
        hits.push({
          message: `The criteria of choice question "${q.name}" must be an object mapping each label to its description.`,
          loc,
          fix: Array.isArray(criteria) ? convert('Turn the list into labels') : undefined,
        });
      } else if (q.kind === 'score' && !Array.isArray(criteria)) {
        hits.push({
          message: `The criteria of score question "${q.name}" must be a list of level descriptions, lowest first.`,
          loc,
          fix: isRecord(criteria) ? convert('Use the descriptions as levels, in this order') : undefined,
        });
      } else if (q.kind === 'noul' && !isRecord(criteria)) {
        hits.push({
          message: `The criteria of noul question "${q.name}" must be an object with "true" and "false" descriptions.`,
          loc,
          fix: {
            title: 'Remove the criteria',
            edits: [{ document: 'questions', path: [q.name, 'criteria'], value: undefined }],
          },
        });
      } else if (q.kind === 'noul' && isRecord(criteria)) {
        for (const key of Object.keys(criteria)) {
          if (key === 'true' || key === 'false') continue;
          const meant = NOUL_KEYS[key.trim().toLowerCase()];
          const free = meant !== undefined && !Object.hasOwn(criteria, meant);
          hits.push({
            message: `Noul criteria hold only "true" and "false"; "${key}" is not read.`,
            loc: [...loc, key],
            fix: free
              ? {
                  title: `Rename "${key}" to "${meant}"`,
                  edits: [
                    { document: 'questions', path: [q.name, 'criteria', meant], value: criteria[key] },
                    { document: 'questions', path: [q.name, 'criteria', key], value: undefined },
                  ],
                }
              : {
                  title: `Remove "${key}"`,
                  edits: [{ document: 'questions', path: [q.name, 'criteria', key], value: undefined }],
                },
          });
        }
      }
    }
    return hits;
  },
};
