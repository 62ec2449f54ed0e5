// A whole request pasted into the questions editor, instead of only its questions map.
import { isPastedRequest } from '../context';
import type { JsonEdit, LintRule } from '../types';

export const pastedRequest: LintRule = {
  id: 'contract/pasted-request',
  severity: 'error',
  title: 'A whole request in the questions editor',
  explanation:
    'The questions editor holds only the questions map; state and model have their own places in the request.',
  check({ input }) {
    const doc = input.questions;
    if (!isPastedRequest(doc)) return [];
    const edits: JsonEdit[] = [{ document: 'questions', path: [], value: doc.questions }];
    if ('state' in doc && doc.state !== null && doc.state !== undefined)
      edits.push({ document: 'state', path: [], value: doc.state });
    const model = typeof doc.model === 'string' ? ` and pick the model "${doc.model}"` : '';
    return [
      {
        message: `This is a whole request; keep only its "questions" here, move its state to the state editor${model}.`,
        loc: ['questions'],
        fix: { title: 'Split the request: questions here, state into the state editor', edits },
      },
    ];
  },
};
