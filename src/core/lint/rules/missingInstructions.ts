// Questions without instructions: the model never sees the question name, so the meaning must live in the text.
import type { LintRule, RuleHit } from '../types';
import { questionLoc } from '../util';
import { instructionTexts } from './fieldRefs';

const hasInstructions = (instructions: unknown, texts: { text: string }[]): boolean =>
  instructions !== undefined && instructions !== null && texts.some((t) => t.text.trim() !== '');

export const missingInstructions: LintRule = {
  id: 'instructions/missing',
  severity: 'info',
  title: 'Choice or score without instructions',
  explanation:
    'The model never sees the question name; without instructions it judges the labels or levels with no question to answer.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (
        (q.kind !== 'choice' && q.kind !== 'score') ||
        hasInstructions(q.obj?.instructions, instructionTexts(q))
      )
        continue;
      hits.push({
        message: `"${q.name}" has no instructions; say in a sentence what to judge (the model never sees the name "${q.name}").`,
        loc: questionLoc(q.name),
      });
    }
    return hits;
  },
};

export const missingNoulInstructions: LintRule = {
  id: 'instructions/missing-noul',
  severity: 'warning',
  title: 'Noul without instructions',
  explanation:
    'A noul question is its instructions: without them the yes/no has no question, and the answer means nothing.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      if (q.kind !== 'noul' || hasInstructions(q.obj?.instructions, instructionTexts(q))) continue;
      hits.push({
        message: `Noul question "${q.name}" has no instructions; write the yes/no question it answers.`,
        loc: questionLoc(q.name),
      });
    }
    return hits;
  },
};
