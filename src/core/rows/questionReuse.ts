// Reuse per question: which of a row's questions stored answers already answer (found under each question's own key,
// dedup.ts questionIdentities), what is left to ask, and the row's response put together in the questions' order.
import type { EvaluateResponse, Questions } from '../../contract';
import { canonicalJson } from './dedup';
import type { RowRun, StoredAnswer } from './records';

/**
 * The stored answers that answer a row's questions, by question name: `keys` are the questions' keys in the
 * questions' order, `stored` what a lookup found by key. An answer of another kind is left out (it is asked again).
 */
export function questionsFound(
  questions: Questions,
  keys: readonly string[],
  stored: ReadonlyMap<string, StoredAnswer>,
): Map<string, StoredAnswer> {
  const found = new Map<string, StoredAnswer>();
  Object.entries(questions).forEach(([name, question], i) => {
    const answer = stored.get(keys[i]!);
    const type = answer?.response.answers[name]?.type;
    // A refusal is that question's answer too: the whole-row reuse keeps it the same way.
    if (answer && (type === question.type || type === 'refusal')) found.set(name, answer);
  });
  return found;
}

/** The questions a row still has to ask: those without a found answer, in their order. */
export function questionsLeft(questions: Questions, found: ReadonlyMap<string, unknown>): Questions {
  return Object.fromEntries(Object.entries(questions).filter(([name]) => !found.has(name)));
}

/**
 * A row's response: each question's answer, from the request sent (`sent`) or found, in the questions' order. The
 * usage is only the sent request's (nothing when nothing was sent): found answers were billed when first asked.
 */
export function mergedResponse(
  questions: Questions,
  found: ReadonlyMap<string, StoredAnswer>,
  sent: EvaluateResponse | null,
  model: string,
): EvaluateResponse {
  const answers: EvaluateResponse['answers'] = {};
  for (const name of Object.keys(questions)) {
    const answer = sent?.answers[name] ?? found.get(name)?.response.answers[name];
    if (answer) answers[name] = answer;
  }
  return sent ? { ...sent, answers } : { model, answers, usage: { input_tokens: 0 } };
}

/**
 * Whether a run's rows may find some of their questions answered in storage: another stored run of the same file
 * (name and row count) on the same target and model asks at least one of its questions, worded the same, and not
 * all of them alike (then whole answers are found). A new file's first run skips the per-question reads, which
 * made 100,000 rows in Chromium 2.5 times slower for nothing; a variant, or the file run again with a question
 * reworded, does them.
 */
export function mayReuseByQuestion(run: RowRun, stored: readonly RowRun[]): boolean {
  const mine = new Map(Object.entries(run.questions).map(([name, q]) => [name, canonicalJson(q)]));
  return stored.some((other) => {
    if (other.id === run.id || other.fileName !== run.fileName || other.rowCount !== run.rowCount)
      return false;
    if (other.targetId !== run.targetId || other.model !== run.model) return false;
    const theirs = Object.entries(other.questions).map(([name, q]) => [name, canonicalJson(q)] as const);
    const shared = theirs.filter(([name, text]) => mine.get(name) === text).length;
    return shared > 0 && !(shared === theirs.length && shared === mine.size);
  });
}
