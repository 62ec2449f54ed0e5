// The Decisions dialect's answers <-> the interface's answers. Decisions answers come as an array in question order,
// each typed and named; any one of them may be a `refusal`, which stays a refusal here and never becomes a number.
import type {
  DecisionsAnswer,
  DecisionsQuestion,
  DecisionsRequest,
  DecisionsResponse,
} from './decisionsWire';
import { DecisionsResponseSchema } from './decisionsWire';
import { isYesNoChoice } from './decisionsRequest';
import type { EvaluateRequest, Question } from './request';
import type { Answer, EvaluateResponse } from './response';

export type AnswersRead = { ok: true; value: EvaluateResponse } | { ok: false; problem: string };

const quoted = (name: string): string => `"${name}"`;

function readAnswer(name: string, question: Question, answer: DecisionsAnswer): Answer | string {
  if (answer.type === 'refusal') return { type: 'refusal', question_type: question.type };
  const mismatch = `${quoted(name)} was answered as ${answer.type}, which does not answer a ${question.type} question`;
  switch (question.type) {
    case 'noul':
      if (answer.type === 'predicate') return { type: 'noul', noul: answer.probability };
      // A described noul was sent as a choice between true and false: p(yes) is the probability of true.
      if (answer.type === 'choice' && question.criteria) {
        const yes = answer.probabilities.find((p) => p.value === true)?.probability;
        const no = answer.probabilities.find((p) => p.value === false)?.probability;
        if (yes === undefined && no === undefined)
          return `${quoted(name)} came back without p(true) or p(false)`;
        return { type: 'noul', noul: yes ?? 1 - (no ?? 0) };
      }
      return mismatch;
    case 'choice': {
      if (answer.type !== 'choice') return mismatch;
      // A Map, then fromEntries: a label named "__proto__" assigned to a plain object would set its prototype instead.
      const probabilities = new Map<string, number>();
      for (const p of answer.probabilities) {
        if (typeof p.value !== 'string')
          return `${quoted(name)} came back with the non-text choice ${String(p.value)}`;
        probabilities.set(p.value, p.probability);
      }
      return {
        type: 'choice',
        choice: String(answer.choice),
        confidence: answer.confidence,
        probabilities: Object.fromEntries(probabilities),
      };
    }
    case 'score': {
      if (answer.type !== 'score') return mismatch;
      const probabilities = Object.fromEntries(
        answer.probabilities.map((p) => [String(p.value), p.probability]),
      );
      const legend = Object.fromEntries(question.criteria.map((level, i) => [String(i), level]));
      return { type: 'score', score: answer.score, confidence: answer.confidence, legend, probabilities };
    }
  }
}

/**
 * A Decisions response read as the interface's response to `request` (the request that was translated and sent):
 * answers matched by position and checked by name, usage kept with its details.
 */
export function fromDecisionsResponse(json: unknown, request: EvaluateRequest): AnswersRead {
  const parsed = DecisionsResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `${issue.path.join('.') || 'the body'}: ${issue.message}` };
  }
  const { answers, model, usage, ...rest } = parsed.data;
  const entries = Object.entries(request.questions);
  if (answers.length !== entries.length)
    return { ok: false, problem: `${answers.length} answers came back for ${entries.length} questions` };
  const out: [string, Answer][] = [];
  for (const [i, [name, question]] of entries.entries()) {
    const answer = answers[i]!;
    if (answer.name !== null && answer.name !== name)
      return {
        ok: false,
        problem: `answer ${i + 1} is named ${quoted(answer.name)}, but question ${i + 1} is ${quoted(name)}`,
      };
    const read = readAnswer(name, question, answer);
    if (typeof read === 'string') return { ok: false, problem: read };
    out.push([name, read]);
  }
  return { ok: true, value: { ...rest, model, answers: Object.fromEntries(out), usage } };
}

/** One interface answer in the Decisions form, for the question as the Decisions body asked it. */
function writeAnswer(question: DecisionsQuestion, name: string | null, answer: Answer): DecisionsAnswer {
  if (answer.type === 'refusal') return { type: 'refusal', name };
  if (question.type === 'predicate' && answer.type === 'noul')
    return { type: 'predicate', name, probability: answer.noul };
  if (question.type === 'choice' && answer.type === 'noul' && isYesNoChoice(question.choices)) {
    const yes = answer.noul;
    const top = Math.max(yes, 1 - yes);
    return {
      type: 'choice',
      name,
      choice: yes >= 0.5,
      confidence: 2 * top - 1,
      probabilities: [
        { value: true, probability: yes },
        { value: false, probability: 1 - yes },
      ],
    };
  }
  if (question.type === 'choice' && answer.type === 'choice')
    return {
      type: 'choice',
      name,
      choice: answer.choice,
      confidence: answer.confidence,
      probabilities: question.choices.map((c) => ({
        value: c.value,
        probability: answer.probabilities[String(c.value)] ?? 0,
      })),
    };
  if (question.type === 'score' && answer.type === 'score')
    return {
      type: 'score',
      name,
      score: answer.score,
      confidence: answer.confidence,
      probabilities: question.levels.map((level, i) => ({
        label: level.label,
        value: i,
        probability: answer.probabilities[String(i)] ?? 0,
      })),
    };
  throw new Error(`A ${answer.type} answer cannot answer a ${question.type} question.`);
}

/**
 * The interface's response in the Decisions form, for the Decisions body it answers (`keys` are the interface names
 * the questions were read under, `names` what each was called in the body). Used by the Decisions stand-in.
 */
export function toDecisionsResponse(
  response: EvaluateResponse,
  body: DecisionsRequest,
  keys: readonly string[],
  names: readonly (string | null)[],
): DecisionsResponse {
  const answers = body.questions.map((question, i) => {
    const answer = response.answers[keys[i]!];
    if (!answer) throw new Error(`No answer for question ${i + 1}.`);
    return writeAnswer(question, names[i] ?? null, answer);
  });
  return { model: response.model, answers, usage: response.usage };
}
