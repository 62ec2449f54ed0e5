// The questions document must be a non-empty map of named question objects.
import type { LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { questionLoc } from '../util';

/** A list of questions that each carry their name, turned into the map the service expects (or null). */
function listToMap(list: unknown[]): Record<string, unknown> | null {
  const map: Record<string, unknown> = {};
  for (const item of list) {
    if (!isRecord(item)) return null;
    const name = item.name;
    if (typeof name !== 'string' || name === '' || Object.hasOwn(map, name)) return null;
    const { name: _name, ...question } = item;
    map[name] = question;
  }
  return list.length > 0 ? map : null;
}

export const questionsShape: LintRule = {
  id: 'contract/questions-shape',
  severity: 'error',
  title: 'Questions are a map of named question objects',
  explanation:
    'The request holds `questions` as an object of name -> question, with at least one entry; anything else is a 422.',
  check({ input, questionsIsMap, pastedRequest, questions }) {
    // Not parsed: the editor's JSON diagnostics say where. Pasted request: its own rule explains.
    if (input.questions === undefined || pastedRequest) return [];
    if (!questionsIsMap) {
      const map = Array.isArray(input.questions) ? listToMap(input.questions) : null;
      return [
        {
          message: Array.isArray(input.questions)
            ? 'The questions are a list; the service expects an object that maps each question name to its question.'
            : 'The questions must be an object that maps each question name to its question.',
          loc: ['questions'],
          fix: map
            ? {
                title: 'Turn the list into a map keyed by each question\'s "name"',
                edits: [{ document: 'questions', path: [], value: map }],
              }
            : undefined,
        },
      ];
    }
    if (questions.length === 0) return [{ message: 'Add at least one question.', loc: ['questions'] }];
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (q.name.trim() === '')
        hits.push({ message: 'A question name must not be empty.', loc: questionLoc(q.name) });
      if (!q.obj) {
        hits.push({
          message: `Question "${q.name}" must be an object with a type, instructions and criteria.`,
          loc: questionLoc(q.name),
        });
      }
    }
    return hits;
  },
};
