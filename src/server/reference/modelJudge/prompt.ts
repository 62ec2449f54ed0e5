// Pure translation between the contract and node-llama-cpp's decision API: a request's state and questions into the
// engine's document and questions, the engine's answers back into the contract's shapes, formulas and rounding.
import type {
  DecisionAnswer,
  DecisionChoiceQuestion,
  DecisionQuestion,
  DecisionQuestions,
} from 'node-llama-cpp';
import type { Answer, Description, Question, State } from '../../../contract';
import { choiceAnswer, noulAnswer, scoreAnswer } from '../judge/answers';

// Instructions are optional in the contract; the engine needs a question to put to the model.
const DEFAULT_INSTRUCTIONS: Readonly<Record<Question['type'], string>> = Object.freeze({
  noul: 'Is the answer to this yes?',
  choice: 'Which option describes the text best?',
  score: 'Which level describes the text best?',
});

/** Text as the model reads it: text stays as sent, an object or array is shown as indented JSON. */
export function textOf(value: Description | State): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The document the model judges: the state. */
export const documentOf = (state: State): string => textOf(state);

function instructionOf(q: Question): string {
  const text = q.instructions === undefined ? '' : textOf(q.instructions);
  return text.trim() === '' ? DEFAULT_INSTRUCTIONS[q.type] : text;
}

/** One contract question as the engine's question; labels and levels keep their order. */
export function decisionQuestion(q: Question): DecisionQuestion {
  switch (q.type) {
    case 'noul': {
      const yes = q.criteria?.true;
      const no = q.criteria?.false;
      // The engine falls back to plain "Yes"/"No" for an empty description.
      return {
        type: 'noul',
        instruction: instructionOf(q),
        ...(q.criteria
          ? {
              criteria: {
                true: yes === undefined ? '' : textOf(yes),
                false: no === undefined ? '' : textOf(no),
              },
            }
          : {}),
      };
    }
    case 'choice': {
      const criteria: DecisionChoiceQuestion['criteria'] = {};
      // A null description lets the engine show the label itself.
      for (const [label, d] of Object.entries(q.criteria)) criteria[label] = d === null ? null : textOf(d);
      return { type: 'choice', instruction: instructionOf(q), criteria };
    }
    case 'score':
      return { type: 'score', instruction: instructionOf(q), criteria: [...q.criteria] };
  }
}

/** Every question of a request as the engine's questions, under the same names. */
export function decisionQuestions(questions: Readonly<Record<string, Question>>): DecisionQuestions {
  const out: Record<string, DecisionQuestion> = {};
  for (const [name, q] of Object.entries(questions)) out[name] = decisionQuestion(q);
  return out;
}

/** Probabilities made safe to round: non-finite or negative entries count as 0, the rest sum to 1 (flat if none). */
export function normalised(values: readonly number[]): number[] {
  const xs = values.map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const sum = xs.reduce((a, b) => a + b, 0);
  return sum > 0 ? xs.map((x) => x / sum) : xs.map(() => 1 / xs.length);
}

/**
 * The contract's answer from the engine's: only the probabilities are taken. Rounding to hundredths, the most probable
 * label, the expected score and both confidences are recomputed with the contract's formulas (the engine's choice
 * confidence is tanh of half the top-two logit gap and its score confidence is 1 - P("none of the above"), neither of
 * which is the contract's concentration measure).
 */
export function contractAnswer(q: Question, a: DecisionAnswer<DecisionQuestion>): Answer {
  if (q.type === 'noul' && a.type === 'noul') return noulAnswer(Number.isFinite(a.value) ? a.value : 0.5);
  if (q.type === 'choice' && a.type === 'choice') {
    const labels = Object.keys(q.criteria);
    const probabilities = a.probabilities as Record<string, number>;
    return choiceAnswer(
      labels,
      normalised(labels.map((l) => (Object.hasOwn(probabilities, l) ? probabilities[l]! : 0))),
    );
  }
  if (q.type === 'score' && a.type === 'score') {
    const p = a.probabilities as readonly number[];
    return scoreAnswer(q.criteria, normalised(q.criteria.map((_, i) => p[i] ?? 0)));
  }
  throw new Error(`The engine answered a ${q.type} question with a ${a.type} answer.`);
}
