// Backtick field names in instructions that the state does not have: the model is pointed at nothing.
import { stateHasField } from '../stateFields';
import type { LintFix, LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { questionLoc } from '../util';
import { fieldRefsIn, instructionTexts, notFieldNames, refHead } from './fieldRefs';

/** Adds a missing (possibly nested) field as null, when every existing step of its path is an object. */
function addFieldFix(state: unknown, ref: string): LintFix | undefined {
  const path = ref.split('.');
  let at: unknown = state;
  for (const part of path) {
    if (!isRecord(at)) return undefined; // a text or number in the way: the field cannot be added beneath it
    if (!Object.hasOwn(at, part)) break;
    at = at[part];
  }
  return { title: `Add "${ref}" to the state (null)`, edits: [{ document: 'state', path, value: null }] };
}

export const missingField: LintRule = {
  id: 'state/missing-field',
  severity: 'warning',
  title: 'Backtick field the state lacks',
  explanation:
    'Instructions name state fields in backticks; a name the state lacks points the model at nothing, so it guesses.',
  check({ input, questions, stateFields }) {
    // A text state (or one that does not parse) has no named fields to check against.
    if (stateFields === null) return [];
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (!q.obj) continue;
      const instructions = q.obj.instructions;
      const skip = notFieldNames(q);
      for (const { text, path } of instructionTexts(q)) {
        for (const ref of fieldRefsIn(text, skip)) {
          if (stateHasField(input.state, ref)) continue;
          // An instructions object may carry the referenced data itself, next to the question text.
          if (isRecord(instructions) && Object.hasOwn(instructions, refHead(ref))) continue;
          const fix = addFieldFix(input.state, ref);
          hits.push({
            message: `The instructions of "${q.name}" name \`${ref}\`, but the state has no such field.`,
            loc: questionLoc(q.name, ...path),
            fix,
          });
        }
      }
    }
    return hits;
  },
};
