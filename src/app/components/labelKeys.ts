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

/** What a key press on a labelling card asks for; null for a key it leaves alone (a modifier, a typing field). */
export type LabelKeyAction = { kind: 'back' } | { kind: 'skip' } | { kind: 'give'; value: LabelValue } | null;

/** Reads a key press on a labelling card: Backspace goes back, s skips, an option's key gives its label. */
export function labelKeyAction(
  event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; target: EventTarget | null },
  options: readonly LabelOption[],
): LabelKeyAction {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  // Keys typed into a field stay the field's: shortcuts never override an editor's.
  if ((event.target as HTMLElement | null)?.closest?.('input, select, textarea, [contenteditable="true"]'))
    return null;
  if (event.key === 'Backspace') return { kind: 'back' };
  const key = event.key.toLowerCase();
  if (key === 's') return { kind: 'skip' };
  const option = options.find((o) => o.key === key);
  return option ? { kind: 'give', value: option.value } : null;
}
