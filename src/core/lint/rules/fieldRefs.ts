// Where rubric texts refer to state fields: backtick names in instructions and criteria, and plain-word mentions.
import { backtickFields } from '../stateFields';
import type { QuestionView } from '../types';
import { isRecord } from '../../../contract/guards';
import { textsIn } from '../util';
import type { TextAt } from '../util';

/** Every text of a question's instructions, with paths relative to the question. */
export const instructionTexts = (q: QuestionView): TextAt[] => textsIn(q.obj?.instructions, ['instructions']);

/** Every text a question sends besides its instructions: descriptions, levels, and choice labels. */
export function criteriaTexts(q: QuestionView): TextAt[] {
  const criteria = q.obj?.criteria;
  const labels: TextAt[] =
    isRecord(criteria) && q.kind === 'choice'
      ? Object.keys(criteria).map((l) => ({ text: l, path: ['criteria', l] }))
      : [];
  return [...labels, ...textsIn(criteria, ['criteria'])];
}

/** Words that are quoted in backticks as values rather than field names: JSON literals and the question's own labels. */
export function notFieldNames(q: QuestionView): Set<string> {
  const names = new Set(['true', 'false', 'null', 'yes', 'no']);
  const criteria = q.obj?.criteria;
  if (isRecord(criteria)) for (const label of Object.keys(criteria)) names.add(label);
  return names;
}

/** The head of a dotted field reference: `customer.name` refers to the state field `customer`. */
export const refHead = (ref: string): string => ref.split('.')[0] ?? ref;

/** Backtick field references in a text that name fields (not labels or literals); `skip` from notFieldNames. */
export const fieldRefsIn = (text: string, skip: ReadonlySet<string>): string[] =>
  text.includes('`') ? backtickFields(text).filter((ref) => !skip.has(ref)) : [];

/** Spellings of a field name as words: `customer_name` and `customerName` read as "customer name". */
function wordForms(field: string): string[] {
  const spaced = field
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .trim();
  return [...new Set([field, spaced].filter((f) => f !== ''))];
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A test for whether a text mentions a field as a whole word, in any of its spellings, ignoring case. */
export function fieldMention(field: string): (text: string) => boolean {
  const forms = wordForms(field).map((form) => form.split(' ').map(escape).join('[\\s_-]+'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${forms.join('|')})(?![\\p{L}\\p{N}_])`, 'iu');
  return (text) => pattern.test(text);
}

/** True when a text mentions a field as a whole word, in any of its spellings, ignoring case. */
export const mentionsField = (text: string, field: string): boolean => fieldMention(field)(text);
