// A run of rows as a workspace queue (issue 40): each row's key, the state it was sent as, and the judge's answer to
// each question read as a label under the alignment's conventions (the most probable class, P(yes) at 0.5) with its
// top probability as confidence, and its probabilities (an active order reads them). Rows that map to no state are left out and counted, so the owner is told.
import type { Answer, Question, Questions } from '../../contract';
import type { PublishedRow, JudgeAnswer } from '../../contract/workspace';
import { classesOf, distributionOf, predictedClass, yesProbability } from '../labels/prediction';
import { mapRow } from '../rows/mapping';
import type { RowMapping } from '../rows/mapping';
import type { ResultRow } from '../rows/results';

/** The judge's answer to one question as a workspace label, or undefined when it gave none (or refused). */
export function judgeAnswerOf(answer: Answer | undefined, question: Question): JudgeAnswer | undefined {
  const k = predictedClass(answer, question);
  if (k === null) return undefined;
  if (question.type === 'noul') {
    const p = yesProbability(answer)!;
    return { label: k === 1, confidence: Math.max(p, 1 - p), probabilities: [1 - p, p] };
  }
  const d = distributionOf(answer, question)!;
  const label = question.type === 'choice' ? classesOf(question)[k]! : k;
  return { label, confidence: d[k]!, probabilities: Array.from(d) };
}

export interface PublishPlan {
  rows: PublishedRow[];
  /** Rows left out because they map to no state. */
  leftOut: number;
}

/** The rows of a run, ready for POST /queues. */
export function publishedRows(
  results: readonly ResultRow[],
  mapping: RowMapping,
  questions: Questions,
): PublishPlan {
  const rows: PublishedRow[] = [];
  let leftOut = 0;
  for (const row of results) {
    const mapped = mapRow(row.data, mapping);
    if (!mapped.ok) {
      leftOut++;
      continue;
    }
    const judge: Record<string, JudgeAnswer> = {};
    for (const [name, question] of Object.entries(questions)) {
      const answer = judgeAnswerOf(row.response?.answers[name], question);
      if (answer) judge[name] = answer;
    }
    rows.push({ key: row.id || String(row.number), state: mapped.state, judge });
  }
  return { rows, leftOut };
}
