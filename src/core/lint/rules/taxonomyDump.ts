// Criteria that read like a pasted taxonomy or document rather than a short rubric.
import type { LintRule, RuleHit } from '../types';
import { isRecord } from '../../../contract/guards';
import { questionLoc, textsIn, wordCount } from '../util';

/** A single description (label, level, yes/no text) longer than this many words reads like a pasted document. */
export const LONG_DESCRIPTION_WORDS = 60;
/** This many descriptions sharing one template ("Products in category 12") look generated from a taxonomy... */
export const NEAR_IDENTICAL_MIN = 5;
/** ...when they are also at least this share of the described labels. */
export const NEAR_IDENTICAL_SHARE = 0.5;
/** This many labels written as paths ("Electronics > Phones") are a flattened tree. */
export const PATH_LABELS_MIN = 5;

const PATH_LABEL = /\s>\s|\s\/\s|::|\s»\s/;

/** A description reduced to its template: the label's own words and all numbers replaced, case and spacing folded. */
export function descriptionTemplate(label: string, description: string): string {
  let t = description.toLowerCase();
  const l = label.trim().toLowerCase();
  if (l !== '') t = t.split(l).join('<label>');
  return t
    .replace(/\d+(?:[.,]\d+)*/g, '#')
    .replace(/[^\p{L}\p{N}<>#]+/gu, ' ')
    .trim();
}

export const taxonomyDump: LintRule = {
  id: 'criteria/taxonomy-dump',
  severity: 'warning',
  title: 'Criteria that look like a pasted taxonomy',
  explanation:
    'Criteria are short rubrics, not a dump of a taxonomy: long or templated text is billed on every call and blurs the labels.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      const criteria = q.obj?.criteria;
      if (!q.kind || criteria === undefined) continue;
      for (const { text, path } of textsIn(criteria)) {
        const words = wordCount(text);
        if (words <= LONG_DESCRIPTION_WORDS) continue;
        hits.push({
          message: `This description of "${q.name}" runs to ${words} words; keep each to a sentence or two (at most ${LONG_DESCRIPTION_WORDS} words).`,
          loc: questionLoc(q.name, 'criteria', ...path),
        });
      }
      if (q.kind !== 'choice' || !isRecord(criteria)) continue;
      const labels = Object.keys(criteria);
      const pathLabels = labels.filter((l) => PATH_LABEL.test(l));
      if (pathLabels.length >= PATH_LABELS_MIN) {
        hits.push({
          message: `${pathLabels.length} labels of "${q.name}" are paths in a tree (like "${pathLabels[0]}"); choose coarse to fine over the tree instead (Large taxonomy).`,
          loc: questionLoc(q.name, 'criteria'),
        });
      }
      const groups = new Map<string, string[]>();
      let described = 0;
      for (const [label, description] of Object.entries(criteria)) {
        if (typeof description !== 'string' || description.trim() === '') continue;
        described++;
        const t = descriptionTemplate(label, description);
        groups.set(t, [...(groups.get(t) ?? []), label]);
      }
      const [template, members] = [...groups].sort((a, b) => b[1].length - a[1].length)[0] ?? ['', []];
      if (members.length >= NEAR_IDENTICAL_MIN && members.length >= described * NEAR_IDENTICAL_SHARE) {
        hits.push({
          message: `${members.length} descriptions of "${q.name}" follow one template ("${template}"); they add tokens, not meaning: say what sets each label apart, or leave it null.`,
          loc: questionLoc(q.name, 'criteria'),
          fix: {
            title: `Set the ${members.length} templated descriptions to null`,
            edits: members.map((label) => ({
              document: 'questions',
              path: [q.name, 'criteria', label],
              value: null,
            })),
          },
        });
      }
    }
    return hits;
  },
};
