// The keys of keyboard labelling, shared by the alignment screen's labelling view and the workspace's labeller screen:
// 1-9 then letters for a question's options (y/n for yes/no), s to skip, Backspace to undo.
import type { Question } from '../../contract';
import type { LabelValue } from '../../core/labels';
import { labelText } from '../../core/labels/values';

/** Option keys beyond 1-9: letters, leaving out s (skip), y and n (yes/no). */
const LETTERS = 'abcdefghijklmopqrtuvwxz';

export interface LabelOption {
  value: LabelValue;
  key: string;
  text: string;
}

/** The options of a question with their keys. */
export function labelOptions(question: Question): LabelOption[] {
  if (question.type === 'noul')
    return [
      { value: true, key: 'y', text: 'yes' },
      { value: false, key: 'n', text: 'no' },
    ];
  const values: LabelValue[] =
    question.type === 'choice' ? Object.keys(question.criteria) : question.criteria.map((_, i) => i);
  return values.map((value, i) => ({
    value,
    key: i < 9 ? String(i + 1) : (LETTERS[i - 9] ?? ''),
    text: labelText(value, question),
  }));
}
