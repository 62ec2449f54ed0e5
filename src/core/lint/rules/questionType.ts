// A question's `type` must be one the service knows: choice, score or noul. Gateway samples say `boolean`.
import type { QuestionType } from '../../../contract';
import type { LintFix, LintRule, QuestionView, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { questionLoc, quote } from '../util';

// Words people write for a kind, from other tools and gateway samples, mapped to the service's kind.
const SYNONYMS: Record<string, QuestionType> = {
  bool: 'noul',
  binary: 'noul',
  yesno: 'noul',
  yes_no: 'noul',
  'yes/no': 'noul',
  flag: 'noul',
  classification: 'choice',
  classify: 'choice',
  category: 'choice',
  categorical: 'choice',
  enum: 'choice',
  select: 'choice',
  label: 'choice',
  rating: 'score',
  rate: 'score',
  scale: 'score',
  likert: 'score',
  ordinal: 'score',
};

/** The kind the criteria suggest: levels (array) for score, true/false for noul, labels for choice. */
function kindFromCriteria(q: QuestionView): QuestionType | null {
  const criteria = q.obj?.criteria;
  if (Array.isArray(criteria)) return 'score';
  if (isRecord(criteria)) {
    const keys = Object.keys(criteria);
    return keys.length > 0 && keys.every((k) => k === 'true' || k === 'false') ? 'noul' : 'choice';
  }
  return criteria === undefined ? 'noul' : null;
}

const setType = (name: string, kind: QuestionType, why: string): LintFix => ({
  title: `Set the type to "${kind}"${why}`,
  edits: [{ document: 'questions', path: [name, 'type'], value: kind }],
});

const isBoolean = (type: unknown): boolean =>
  typeof type === 'string' && type.trim().toLowerCase() === 'boolean';

export const unknownType: LintRule = {
  id: 'contract/unknown-type',
  severity: 'error',
  title: 'Unknown question type',
  explanation: 'A question is one of three kinds, `choice`, `score` or `noul`; any other type is a 422.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (!q.obj || q.kind || isBoolean(q.obj.type)) continue;
      const type = q.obj.type;
      const inferred = kindFromCriteria(q);
      if (type === undefined) {
        hits.push({
          message: `Question "${q.name}" has no type; choose choice, score or noul.`,
          loc: questionLoc(q.name),
          fix: inferred ? setType(q.name, inferred, ' (from its criteria)') : undefined,
        });
        continue;
      }
      const word = typeof type === 'string' ? type.trim().toLowerCase() : '';
      const meant = (['choice', 'score', 'noul'] as const).find((k) => k === word) ?? SYNONYMS[word] ?? null;
      hits.push({
        message: `${quote(type)} is not a question type; use choice, score or noul.`,
        loc: questionLoc(q.name, 'type'),
        fix: meant
          ? setType(q.name, meant, '')
          : inferred
            ? setType(q.name, inferred, ' (from its criteria)')
            : undefined,
      });
    }
    return hits;
  },
};

export const booleanType: LintRule = {
  id: 'contract/boolean-type',
  severity: 'error',
  title: "`boolean` is the gateway's name for `noul`",
  explanation:
    'Gateway samples call the yes/no kind `boolean`; the direct service only knows `noul` and rejects `boolean` with a 422.',
  check({ questions }) {
    return questions
      .filter((q) => q.obj && isBoolean(q.obj.type))
      .map((q) => ({
        message: `Question "${q.name}" uses the gateway type "boolean"; the direct service calls it "noul".`,
        loc: questionLoc(q.name, 'type'),
        fix: setType(q.name, 'noul', ''),
      }));
  },
};
