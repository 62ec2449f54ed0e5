// State fields that no question refers to: billed on every call, and they distract the model.
import type { LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import {
  criteriaTexts,
  fieldMention,
  fieldRefsIn,
  instructionTexts,
  notFieldNames,
  refHead,
} from './fieldRefs';

export const unusedField: LintRule = {
  id: 'state/unused-field',
  severity: 'warning',
  title: 'State field no question uses',
  explanation:
    'Everything in the state is billed as input and can distract the model; send only the fields the questions need.',
  check({ input, questions }) {
    // Only an object state has fields that can be removed one by one.
    if (!isRecord(input.state) || questions.length === 0) return [];
    const fields = Object.keys(input.state);
    const named = new Set<string>();
    const texts: string[] = [];
    for (const q of questions) {
      const skip = notFieldNames(q);
      for (const { text } of [...instructionTexts(q), ...criteriaTexts(q)]) {
        texts.push(text);
        for (const ref of fieldRefsIn(text, skip)) named.add(refHead(ref));
      }
    }
    // One text to search: each field's pattern runs once, not once per label. Texts are joined by NUL, which is a
    // word boundary that no field spelling matches across (a newline would be read as a space).
    const allText = texts.join('\u0000');
    // NOTE: a plain-word mention counts as use ("Is the message urgent?" uses `message`): flagging it would push the
    // user to delete the very content being judged.
    const used = new Set(fields.filter((f) => named.has(f) || fieldMention(f)(allText)));
    // When no question refers to any field, the questions judge the state as a whole: nothing is singled out.
    if (used.size === 0) return [];
    const hits: RuleHit[] = [];
    for (const field of fields) {
      if (used.has(field)) continue;
      hits.push({
        message: `No question uses the state field "${field}"; it is billed on every call and can distract the model.`,
        loc: ['state', field],
        fix: {
          title: `Remove "${field}" from the state`,
          edits: [{ document: 'state', path: [field], value: undefined }],
        },
      });
    }
    return hits;
  },
};
