// The one tokenizer of the project: the reference bills with it and the workbench estimates with it,
// so an estimate equals the bill. cl100k_base is large (about 1 MB): the SPA loads this module lazily.
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type { Description, EvaluateRequest, Question, State } from '../contract';
import { MAX_REQUEST_INPUT_TOKENS, MAX_STATE_PLUS_QUESTION_TOKENS } from '../contract';

/** Tokens in a piece of text. */
export const countTokens = (text: string): number => (text === '' ? 0 : countCl100k(text));

/** The text the model reads for a state, instructions or a description: text as is, anything else as JSON. */
export const modelText = (value: State | Description | null | undefined): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** Input tokens of the state. */
export const stateTokens = (state: State): number => countTokens(modelText(state));

/** Input tokens of one question: its instructions and every label, level or yes/no description. */
export function questionTokens(question: Question): number {
  let total = countTokens(modelText(question.instructions));
  if (question.type === 'choice') {
    for (const [label, description] of Object.entries(question.criteria)) {
      total += countTokens(label) + countTokens(modelText(description));
    }
  } else if (question.type === 'score') {
    for (const level of question.criteria) total += countTokens(level);
  } else if (question.criteria) {
    total += countTokens(modelText(question.criteria.true)) + countTokens(modelText(question.criteria.false));
  }
  return total;
}

/** Token accounting of a whole request, as the reference bills it. */
export interface RequestTokens {
  state: number;
  questions: Record<string, number>;
  total: number;
  /** State plus the longest single question, held against the 32k limit. */
  statePlusLongest: number;
}

export function requestTokens(request: Pick<EvaluateRequest, 'state' | 'questions'>): RequestTokens {
  const state = stateTokens(request.state);
  const questions: Record<string, number> = {};
  let sum = 0;
  let longest = 0;
  for (const [name, q] of Object.entries(request.questions)) {
    const n = questionTokens(q);
    questions[name] = n;
    sum += n;
    longest = Math.max(longest, n);
  }
  return { state, questions, total: state + sum, statePlusLongest: state + longest };
}

/** Sentences for each token limit a request passes, empty when it fits. */
export function tokenLimitProblems(tokens: RequestTokens): string[] {
  const problems: string[] = [];
  if (tokens.total > MAX_REQUEST_INPUT_TOKENS) {
    problems.push(
      `The request holds ${tokens.total.toLocaleString()} input tokens; the limit is ${MAX_REQUEST_INPUT_TOKENS.toLocaleString()}.`,
    );
  }
  if (tokens.statePlusLongest > MAX_STATE_PLUS_QUESTION_TOKENS) {
    problems.push(
      `The state plus the longest question hold ${tokens.statePlusLongest.toLocaleString()} tokens; the limit is ${MAX_STATE_PLUS_QUESTION_TOKENS.toLocaleString()}.`,
    );
  }
  return problems;
}
