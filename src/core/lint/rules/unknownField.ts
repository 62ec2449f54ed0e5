// A question holds only `type`, `instructions` and `criteria`; options, levels and the like go in `criteria`.
import type { LintFix, LintRule, RuleHit } from '../types';
import { questionLoc } from '../util';
import { criteriaFor } from './convertCriteria';

const FIELDS = new Set(['type', 'instructions', 'criteria']);
// Names other tools (and the interface document's prose) use for the criteria and the instructions.
const CRITERIA_NAMES = new Set([
  'options',
  'choices',
  'labels',
  'categories',
  'classes',
  'levels',
  'scale',
  'scores',
  'values',
  'enum',
  'rubric',
]);
const INSTRUCTIONS_NAMES = new Set(['instruction', 'prompt', 'question', 'description', 'text', 'rubric']);

/** The field a misnamed one was meant to be, judged by its name and the shape of its value. */
function meantField(field: string, value: unknown): 'criteria' | 'instructions' | null {
  const name = field.toLowerCase();
  if (INSTRUCTIONS_NAMES.has(name) && typeof value === 'string') return 'instructions';
  if (CRITERIA_NAMES.has(name) && typeof value === 'object' && value !== null) return 'criteria';
  if (name === 'criterion' || name === 'criterias') return 'criteria';
  return null;
}

export const unknownField: LintRule = {
  id: 'contract/unknown-field',
  severity: 'error',
  title: 'Unknown field in a question',
  explanation:
    'A question takes only `type`, `instructions` and `criteria`; options and levels go in `criteria`, and any other field is a 422.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (!q.obj) continue;
      const filled = new Set(Object.keys(q.obj).filter((k) => FIELDS.has(k)));
      for (const [field, value] of Object.entries(q.obj)) {
        if (FIELDS.has(field)) continue;
        const meant = meantField(field, value);
        const converted = meant === 'criteria' ? criteriaFor(q.kind, value) : value;
        let fix: LintFix;
        if (meant && !filled.has(meant) && converted !== null) {
          filled.add(meant);
          fix = {
            title: `Move "${field}" to "${meant}"`,
            edits: [
              { document: 'questions', path: [q.name, meant], value: converted },
              { document: 'questions', path: [q.name, field], value: undefined },
            ],
          };
        } else {
          fix = {
            title: `Remove "${field}"`,
            edits: [{ document: 'questions', path: [q.name, field], value: undefined }],
          };
        }
        hits.push({
          message: meant
            ? `"${field}" is not a question field; the service reads ${meant === 'criteria' ? 'options and levels from "criteria"' : 'the rubric from "instructions"'}.`
            : `"${field}" is not a question field; a question takes only type, instructions and criteria.`,
          loc: questionLoc(q.name, field),
          fix,
        });
      }
    }
    return hits;
  },
};
